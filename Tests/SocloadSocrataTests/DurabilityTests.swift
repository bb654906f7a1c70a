import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// The README's durability promises, each checked on the database itself: loads run with
/// `synchronous = FULL` whatever the connection was set to; a first load into an empty database
/// (which runs with the rollback journal) leaves it in WAL mode; a later load keeps WAL, so
/// readers see the previous table until the commit.
final class DurabilityTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("socload-durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func load(into queue: DatabaseQueue, table: String = "t") throws {
        let reference = DatasetReference(location: .file(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path),
                                         datasetID: "n5m4-mism", domain: nil)
        _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadRequest(reference: reference, tableName: table))
    }

    func testLoadsRunWithFullSynchronousWhateverTheConnectionSaid() throws {
        let queue = try DatabaseQueue(path: path("durable.sqlite"))
        try queue.inDatabase { db in try db.execute(sql: "PRAGMA synchronous = OFF") }
        try load(into: queue)
        XCTAssertEqual(try queue.inDatabase { db in try db.fetchValue(sql: "PRAGMA synchronous") }, DatabaseValue.integer(2), "FULL")
    }

    func testAFirstLoadEndsInWALModeAndLaterLoadsStayThere() throws {
        let path = path("modes.sqlite")
        let queue = try DatabaseQueue(path: path)
        try load(into: queue)
        XCTAssertEqual(try queue.inDatabase { db in try db.fetchValue(sql: "PRAGMA journal_mode") }, DatabaseValue.text("wal"))
        // The mode is in the file: a new connection (another process) sees it too.
        XCTAssertEqual(try Database(path: path).fetchValue(sql: "PRAGMA journal_mode"), DatabaseValue.text("wal"))
        try load(into: queue, table: "u")
        XCTAssertEqual(try Database(path: path).fetchValue(sql: "PRAGMA journal_mode"), DatabaseValue.text("wal"))
        XCTAssertEqual(try queue.read { db in try db.fetchValue(sql: "SELECT count(*) FROM u") }, DatabaseValue.integer(300))
    }

    func testAFirstLoadRunsWithTheRollbackJournal() throws {
        let queue = try DatabaseQueue(path: path("journal.sqlite"))
        var modes: [String] = []
        queue.inDatabase { db in
            db.trace { sql in if sql.uppercased().hasPrefix("PRAGMA JOURNAL_MODE") { modes.append(sql) } }
        }
        try load(into: queue)
        XCTAssertEqual(modes, ["PRAGMA journal_mode = DELETE", "PRAGMA journal_mode = WAL"])
    }

    /// A queue that is never closed (a top-level `let` in a script): the `.sqlite` file alone,
    /// copied without its `-wal`, still holds every table after each load.
    func testTheMainFileAloneIsCompleteAfterEachLoad() throws {
        let queue = try DatabaseQueue(path: path("main.sqlite"))
        for (round, table) in ["t", "u"].enumerated() {
            try load(into: queue, table: table)
            let copy = path("copy-\(round).sqlite")
            try FileManager.default.copyItem(atPath: path("main.sqlite"), toPath: copy)
            let copied = try Database(path: copy)
            XCTAssertEqual(try copied.fetchValue(sql: "SELECT count(*) FROM \(table)"), DatabaseValue.integer(300), "round \(round)")
            XCTAssertEqual(try copied.fetchValue(sql: "SELECT count(*) FROM _socload_datasets"), DatabaseValue.integer(Int64(round + 1)))
        }
    }

    /// A refresh drops the copy it replaces without zeroing its pages (`secure_delete` off for
    /// that drop only), and leaves the connection's setting as it found it.
    func testARefreshLeavesSecureDeleteAsItWas() throws {
        let queue = try DatabaseQueue(path: path("secure.sqlite"))
        for setting in [1, 0, 1] {
            try queue.inDatabase { db in try db.execute(sql: "PRAGMA secure_delete = \(setting)") }
            try load(into: queue)
            XCTAssertEqual(try queue.inDatabase { db in try db.fetchValue(sql: "PRAGMA secure_delete") },
                           DatabaseValue.integer(Int64(setting)))
        }
        XCTAssertEqual(try queue.inDatabase { db in try db.fetchValue(sql: "SELECT count(*) FROM t") }, .integer(300))
    }
}
