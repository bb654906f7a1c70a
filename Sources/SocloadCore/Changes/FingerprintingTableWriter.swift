/// A table writer that also hands each batch to the change tracker.
final class FingerprintingTableWriter: TableWriter {
    private let base: any TableWriter
    private let tracker: RowChangeTracker

    init(base: any TableWriter, tracker: RowChangeTracker) {
        self.base = base
        self.tracker = tracker
    }

    func insert(_ batch: RowBatch) throws {
        try base.insert(batch)
        try tracker.addFingerprints(of: batch)
    }

    func finish(strict: Bool) throws -> [String] {
        try base.finish(strict: strict)
    }
}
