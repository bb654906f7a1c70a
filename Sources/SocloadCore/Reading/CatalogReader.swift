/// The part of the read role every destination has, SQL or not: what socload loaded into it
/// (its catalog, its schema change and refresh logs) and which tables it holds. `LoadedDatabase`
/// (the whole read role of a SQL database) and `LoadDestination` (the write role) both refine
/// it, so a destination can say what it has loaded without a second connection.
///
///     let destination = SQLiteDestination(queue: try DatabaseQueue(path: "socload.sqlite"))
///     if let entry = try destination.entry(for: "n5m4_mism") { print(entry.fetchedAt) }
public protocol CatalogReader {
    /// How the database is named in messages, after "in": a file path in single quotes
    /// (`'socload.sqlite'`), or the schema and a URL without its password.
    var place: String { get }

    /// The user's tables, socload's catalog aside, by name.
    func tables() throws -> [TableSummary]

    /// What the catalog records for a table name or a dataset id (nil: not loaded by socload);
    /// without the dataset's description unless `withDescription` (see `CatalogStore`).
    func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry?

    /// Every table's entry, without descriptions, in one read: what a batch of loads looks its
    /// tables up in (`CatalogSnapshot`) instead of a query each.
    func catalogEntries() throws -> [CatalogEntry]

    /// The plan socload recorded for the table of exactly this name (nil: none, or not loaded
    /// by socload).
    func planTable(named table: String) throws -> PlanTable?

    /// True when the database has a table of this name.
    func tableExists(_ table: String) throws -> Bool

    /// The table's logged schema changes, oldest first (`SchemaChangeLog`); empty when none
    /// were logged (or the database was made before the log existed).
    func schemaChanges(of table: String) throws -> [RecordedSchemaChange]

    /// The table's loads, refreshes and syncs, oldest first (`RefreshLog`); empty when none were
    /// logged.
    func refreshes(of table: String) throws -> [RefreshRecord]
}

/// A catalog reader that reads through another (a destination through the read role of its
/// database): each requirement is the other's.
public protocol CatalogReadingThrough: CatalogReader {
    /// The reader this one reads through.
    var catalogReader: any CatalogReader { get }
}

extension CatalogReadingThrough {
    public var place: String { catalogReader.place }
    public func tables() throws -> [TableSummary] { try catalogReader.tables() }
    public func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry? {
        try catalogReader.entry(for: tableOrDatasetID, withDescription: withDescription)
    }
    public func catalogEntries() throws -> [CatalogEntry] { try catalogReader.catalogEntries() }
    public func planTable(named table: String) throws -> PlanTable? { try catalogReader.planTable(named: table) }
    public func tableExists(_ table: String) throws -> Bool { try catalogReader.tableExists(table) }
    public func schemaChanges(of table: String) throws -> [RecordedSchemaChange] { try catalogReader.schemaChanges(of: table) }
    public func refreshes(of table: String) throws -> [RefreshRecord] { try catalogReader.refreshes(of: table) }
}

extension CatalogReader {
    /// Each of `tables()`'s entries, one lookup each (a reader with a catalog of its own reads it
    /// in one query instead).
    public func catalogEntries() throws -> [CatalogEntry] {
        try tables().compactMap { table in
            try entry(for: table.name, withDescription: false).flatMap { $0.tableName == table.name ? $0 : nil }
        }
    }
}
