import Foundation

/// A load a refresh began to write, recorded in the lock's journal before its transaction (and
/// superseded by the dataset's entry when it commits). SIGKILL can stop a refresh between a
/// load's COMMIT and its entry's line; a reader that has the database settles such a load by
/// asking it (`read(_:settling:)`): the table's catalog says whether the load committed.
extension SocloadLockFile {
    public struct PendingLoad: Codable, Equatable, Sendable {
        /// The table the load writes, when known before it runs (an entry's `table`, the lock's).
        public var table: String?
        public var datasetID: String?
        /// Where the rows come from, as the catalog records it for a file without an id.
        public var source: String
        /// The PostgreSQL schema of the project entry.
        public var schema: String?
        /// The search entry that found the dataset.
        public var search: String?
        /// When the load began (whole seconds, as the catalog's `fetched_at`): a catalog entry
        /// fetched at that time or later was written by it.
        public var startedAt: String

        public init(table: String?, datasetID: String?, source: String, schema: String?, search: String?, startedAt: String) {
            self.table = table
            self.datasetID = datasetID
            self.source = source
            self.schema = schema
            self.search = search
            self.startedAt = startedAt
        }

        enum CodingKeys: String, CodingKey {
            case table, source, schema, search
            case datasetID = "dataset_id", startedAt = "started_at"
        }
    }

    /// Records, before a dataset's load writes, that it may commit (one line in the journal).
    public static func journal(_ name: String, pending: PendingLoad, lock path: String) throws {
        try appendJournal(JournalLine(dataset: name, pending: pending), lock: path)
    }

    /// The lock file at `path` with its journal applied, and each load the journal says began
    /// but not that it committed passed to `settle`: the entry it returns (the database holds
    /// that load) replaces the dataset's, nil keeps what the lock had.
    public static func read(_ path: String,
                            settling settle: (_ name: String, _ pending: PendingLoad) throws -> Entry?) throws -> SocloadLockFile {
        var (file, pending) = try readWritten(path).applyingJournal(of: path)
        for (name, load) in pending {
            if let entry = try settle(name, load) { file.datasets[name] = entry }
        }
        return file
    }
}
