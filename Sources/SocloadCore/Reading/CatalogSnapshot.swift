/// Every catalog entry of a database, read at once (`CatalogReader.catalogEntries()`), and looked
/// up as `CatalogReader.entry(for:withDescription:)` looks up one: a table name exactly, else as
/// a load shortened it (PostgreSQL keeps 63 bytes), else ignoring case, else the latest load of a
/// dataset id. A batch of loads (`refresh`, `fetch A B C`) reads it before any of them writes: on
/// SQLite a query after another connection changed the schema first reads the whole schema again,
/// which at a thousand datasets costs more than the lookup.
///
///     let snapshot = CatalogSnapshot([entry])
///     _ = snapshot.entry(for: "n5m4_mism")
public struct CatalogSnapshot: Sendable {
    private var byName: [String: CatalogEntry] = [:]
    private var byFoldedName: [String: CatalogEntry] = [:]
    private var byDatasetID: [String: CatalogEntry] = [:]

    public init(_ entries: [CatalogEntry]) {
        for entry in entries {
            byName[entry.tableName] = entry
            byFoldedName[entry.tableName.lowercased()] = byFoldedName[entry.tableName.lowercased()] ?? entry
            if let id = entry.datasetID, byDatasetID[id].map({ $0.fetchedAt < entry.fetchedAt }) ?? true {
                byDatasetID[id] = entry
            }
        }
    }

    /// The entry of a table name or a dataset id; nil when the catalog had none.
    public func entry(for tableOrDatasetID: String) -> CatalogEntry? {
        byName[tableOrDatasetID] ?? byName[LoadPlan.shortenedName(tableOrDatasetID, toBytes: 63)]
            ?? byFoldedName[tableOrDatasetID.lowercased()] ?? byDatasetID[tableOrDatasetID]
    }

    /// How many tables the catalog had.
    public var count: Int { byName.count }
}
