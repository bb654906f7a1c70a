import SocloadCore

/// The outcome of an incremental sync.
public struct SyncSummary: Sendable, Equatable {
    public var tableName: String
    public var inserted: Int
    public var updated: Int
    /// Rows in the table after the sync.
    public var rowCount: Int
    /// The `_updated_at` the sync asked for rows after (nil: the table was empty).
    public var since: String?
    public var elapsed: Double
    /// Per column, the cells of the synced rows that were not of its type (stored as NULL).
    public var invalidCells: [InvalidCells] = []
    /// Rows deleted because the portal no longer has them (`deletes`); nil when not asked.
    public var deleted: Int?
    /// The synced rows by what they did to the table (new, changed, the same; removed by
    /// `deletes`), counted by their fingerprints; nil for a table whose fingerprints were not kept.
    public var rowChanges: RowChangeCounts?
    /// What `--on-schema-change evolve` kept of the portal's column changes (empty otherwise).
    public var schemaChanges: [SchemaChange] = []
    /// What the sync could not do that a reader should know (a version the cache could not keep).
    public var notes: [String] = []
}
