/// An upserter that also tells the sync's change tracker what it does.
final class FingerprintingUpserter: RowUpserter {
    private let base: any RowUpserter
    private let tracker: SyncChangeTracker

    init(base: any RowUpserter, tracker: SyncChangeTracker) {
        self.base = base
        self.tracker = tracker
    }

    func upsert(_ batch: RowBatch) throws -> Int {
        try tracker.beforeUpsert(batch)
        return try base.upsert(batch)
    }

    func largestValue(of column: String) throws -> String? { try base.largestValue(of: column) }
    func rowCount() throws -> Int { try base.rowCount() }
    func addIndex(_ index: PlanIndex) throws { try base.addIndex(index) }

    func finish() throws {
        try base.finish()
        try tracker.finish()
    }

    func beginKeySet() throws { try base.beginKeySet() }
    func addKeys(_ batch: RowBatch) throws { try base.addKeys(batch) }
    func countRowsOutsideKeySet() throws -> Int { try base.countRowsOutsideKeySet() }

    func deleteRowsOutsideKeySet() throws -> Int {
        try tracker.beforeDeleting(keysTable: base.keySetTable)
        let deleted = try base.deleteRowsOutsideKeySet()
        try tracker.afterDeleting(deleted)
        return deleted
    }

    var keySetTable: String? { base.keySetTable }
}
