import SocloadCore

extension RefreshRecord {
    /// The refresh log's row for a load that recorded `entry`: its schema changes and, when
    /// they were counted, its row changes.
    public static func of(_ entry: CatalogEntry, kind: String, schemaChanges: Int, rowChanges: RowChangeCounts?,
                          seconds: Double) -> RefreshRecord {
        RefreshRecord(table: entry.tableName, refreshedAt: entry.fetchedAt, kind: kind, source: entry.sourceURL,
                      rowsUpdatedAt: entry.rowsUpdatedAt, etag: entry.etag, rowCount: entry.rowCount,
                      schemaChanges: schemaChanges, inserted: rowChanges?.added, updated: rowChanges?.changed,
                      deleted: rowChanges?.removed, unchanged: rowChanges?.unchanged, reissued: rowChanges?.reissued,
                      seconds: seconds)
    }
}
