import Foundation
import SocloadDatabase
import XCTest

/// A database file in its own temporary directory, removed when the test ends.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("socload-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Records every SQL statement a connection runs, for assertions on the exact SQL.
final class SQLLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    func append(_ sql: String) { lock.withLock { statements.append(sql) } }
    var all: [String] { lock.withLock { statements } }
    func clear() { lock.withLock { statements.removeAll() } }
}

extension XCTestCase {
    /// A new database queue on a fresh file, with its SQL recorded in `log`.
    func makeQueue(_ directory: TemporaryDirectory, log: SQLLog? = nil,
                   name: String = "test.sqlite") throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: directory.path(name))
        if let log {
            queue.inDatabase { db in db.trace { log.append($0) } }
        }
        return queue
    }
}
