/// What `socload load` does with a table it loaded before (`--mode`).
///
///     var spec = LoadSpec(document: "changes.json", tableName: "committees")
///     spec.mode = .upsert
///     let upserted = try loader.load(spec).merged // inserted, updated
public enum DocumentLoadMode: String, Sendable, CaseIterable {
    /// A new copy of the table from the document alone (the default), in one transaction.
    case replace
    /// The document's rows are added to the table; a key already in it is refused.
    case append
    /// Each record updates the row of its key (the columns it has; the others keep their
    /// values), or is added when the key is new.
    case upsert
}

/// What `load --mode append|upsert` wrote into the table.
public struct MergedRows: Sendable, Equatable {
    public var mode: DocumentLoadMode
    /// The document's records (rows of the table written: added or updated).
    public var records: Int
    /// Of those, the rows whose key was new (every one for an append).
    public var inserted: Int

    public init(mode: DocumentLoadMode, records: Int, inserted: Int) {
        (self.mode, self.records, self.inserted) = (mode, records, inserted)
    }

    /// The rows an upsert updated.
    public var updated: Int { records - inserted }
}
