import SocloadCore

extension CatalogStore {
    /// The last step of every job, written once: the table's catalog entry, the schema changes
    /// the load made (at the entry's time) and its row of the refresh log, in the load's
    /// transaction, so they commit or roll back with the rows.
    public func recordLoad(_ entry: CatalogEntry, schemaChanges: [SchemaChange], refresh: RefreshRecord) throws {
        try record(entry)
        try recordSchemaChanges(schemaChanges, at: entry.fetchedAt)
        try recordRefresh(refresh)
    }
}
