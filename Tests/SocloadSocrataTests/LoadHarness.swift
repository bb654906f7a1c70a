import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import XCTest

/// A database in a temporary directory and a loader writing into it.
final class LoadHarness {
    let directory: URL
    let queue: DatabaseQueue

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("socload-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        queue = try DatabaseQueue(path: directory.appendingPathComponent("test.sqlite").path)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Retries quickly, so fault tests take milliseconds, not the real backoff's seconds.
    static let fastRetry = RetryPolicy(maximumRetries: 2, baseDelay: 0.01, maximumDelay: 0.05, maximumRetryAfter: 2)

    @discardableResult
    func load(_ location: DatasetReference.Location, id: String? = "abcd-1234", table: String? = nil, limit: Int? = nil,
              http: HTTPOptions = HTTPOptions(), cancellation: LoadCancellation? = nil,
              retry: RetryPolicy = LoadHarness.fastRetry) throws -> LoadSummary {
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue), http: http, retry: retry,
                                   cancellation: cancellation)
        let reference = DatasetReference(location: location, datasetID: id, domain: nil)
        return try loader.load(LoadRequest(reference: reference, tableName: table, limit: limit))
    }

    /// Loads with a full request (API, SoQL, paging, force...).
    @discardableResult
    func load(_ request: LoadRequest, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = LoadHarness.fastRetry,
              onRetry: (@Sendable (String) -> Void)? = nil) throws -> LoadSummary {
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue), http: http, retry: retry, onRetry: onRetry)
        return try loader.load(request)
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every row of the table and its catalog entry: equal snapshots mean nothing changed.
    func snapshot(_ table: String) throws -> [Row] {
        try queue.read { db in
            try db.fetchRows(sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY rowid")
                + db.fetchRows(sql: "SELECT * FROM _socload_datasets WHERE table_name = ?", arguments: [table])
        }
    }

    func rows(_ sql: String) throws -> [Row] {
        try queue.read { try $0.fetchRows(sql: sql) }
    }

    func value(_ sql: String) throws -> DatabaseValue? {
        try queue.read { try $0.fetchValue(sql: sql) }
    }
}
