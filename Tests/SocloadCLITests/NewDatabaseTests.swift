import Foundation
import SocloadDatabase
import SocloadTestSupport
import XCTest

/// A fetch into a database that does not exist builds it under a temporary name and moves it into
/// place only when the load commits: a failure leaves no file, and a database another process
/// created meanwhile is neither deleted nor replaced.
final class NewDatabaseTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!
    let dataset = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path

    override func setUpWithError() throws {
        signal(SIGPIPE, SIG_IGN)
        directory = try TemporaryDirectory()
        db = directory.path("new.sqlite")
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    func testAFailedFirstLoadLeavesNoFile() throws {
        let bad = directory.path("bad.json")
        try Data(#"{"meta":{"view":{"id":"abcd-1234","columns":[{"fieldName":"a","dataTypeName":"text"}]}},"data":[["x"],"#.utf8)
            .write(to: URL(fileURLWithPath: bad))
        let run = try SocloadProcess.run(["fetch", bad, "--db", db])
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(run.stderr, "Error: the document ends early, at byte 102 (truncated download?); \(db!) was not created\n")
        XCTAssertEqual(try files(), ["bad.json"])
    }

    func testANewDatabaseIsWALWithTheUsualPermissions() throws {
        let run = try SocloadProcess.run(["fetch", dataset, "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try files(), ["new.sqlite"])
        let mode = try FileManager.default.attributesOfItem(atPath: db)[.posixPermissions] as? Int
        let mask = umask(0)
        umask(mask)
        XCTAssertEqual(mode, 0o644 & ~Int(mask))
        XCTAssertEqual(try Database(path: db).fetchValue(sql: "PRAGMA journal_mode"), .text("wal"))
    }

    /// A fetch that reads a FIFO the test writes: the first `head` bytes now, the rest when asked.
    final class SlowFetch {
        let process = Process()
        let stderr = Pipe()
        private var descriptor: Int32 = -1

        init(db: String, table: String, fifo: String, head: [UInt8]) throws {
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            process.executableURL = SocloadProcess.executable
            process.arguments = ["fetch", fifo, "--db", db, "--table", table, "--quiet"]
            process.standardError = stderr
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while descriptor < 0, Date() < deadline {
                descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
                if descriptor < 0 { Thread.sleep(forTimeInterval: 0.005) }
            }
            _ = fcntl(descriptor, F_SETFL, 0)
            send(head)
            Thread.sleep(forTimeInterval: 0.3)
        }

        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }

        /// Ends the input and waits: the exit status and standard error.
        func finish() -> (Int32, String) {
            close(descriptor)
            let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }
    }

    /// Two fetches into a fresh file; the first fails after the second has created it: the
    /// second's database and table survive.
    func testAFailingFirstLoadDoesNotDeleteADatabaseCreatedMeanwhile() throws {
        let document = try Fixtures.bundled("n5m4-mism")
        let slow = try SlowFetch(db: db, table: "slow", fifo: directory.path("feed"), head: Array(document.prefix(5_000)))
        let second = try SocloadProcess.run(["fetch", dataset, "--db", db, "--table", "other"])
        XCTAssertEqual(second.status, 0, second.stderr)
        slow.send(Array("}}}".utf8))
        let (status, output) = slow.finish()
        XCTAssertEqual(status, 65, output)
        XCTAssertEqual(try files(), ["feed", "new.sqlite"])
        let database = try Database(path: db)
        XCTAssertEqual(try database.fetchOne(String.self, sql: "PRAGMA integrity_check"), "ok")
        XCTAssertEqual(try database.fetchValue(sql: "select count(*) from other"), .integer(300))
    }

    /// The first load succeeds after another process created the file: the other database is
    /// kept as it is and the first fetch says so (exit 74), leaving no temporary file.
    func testADatabaseCreatedMeanwhileIsNotReplaced() throws {
        let document = try Fixtures.bundled("n5m4-mism")
        let slow = try SlowFetch(db: db, table: "slow", fifo: directory.path("feed"), head: Array(document.prefix(5_000)))
        let second = try SocloadProcess.run(["fetch", dataset, "--db", db, "--table", "other"])
        XCTAssertEqual(second.status, 0, second.stderr)
        slow.send(Array(document.dropFirst(5_000)))
        let (status, output) = slow.finish()
        XCTAssertEqual(status, 74, output)
        XCTAssertEqual(output, "Error: '\(db!)' was created by another process while this load ran; it was left as it is "
                       + "and nothing was loaded (run the command again to load into it)\n")
        XCTAssertEqual(try files(), ["feed", "new.sqlite"])
        let database = try Database(path: db)
        XCTAssertEqual(try database.fetchAll(String.self, sql: "select name from sqlite_schema where type = 'table' order by name"),
                       ["_socload_datasets", "_socload_fingerprints_other", "_socload_meta", "_socload_refreshes",
                        "_socload_schema_changes", "_socload_table_names", "other"])
        // Run again, it loads into the existing database.
        let again = try SocloadProcess.run(["fetch", dataset, "--db", db, "--table", "slow"])
        XCTAssertEqual(again.status, 0, again.stderr)
    }

    /// After each fetch (the second one in WAL mode) the database file alone holds every table:
    /// a copy of it without its `-wal` (what `scp`, a mail or a `make` artifact carries) is complete.
    func testTheMainFileAloneIsCompleteAfterEachFetch() throws {
        for (round, table) in ["t", "u"].enumerated() {
            let run = try SocloadProcess.run(["fetch", dataset, "--table", table, "--db", db, "-q"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let copy = directory.path("copy-\(round).sqlite")
            try FileManager.default.copyItem(atPath: db, toPath: copy)
            let copied = try Database(path: copy)
            XCTAssertEqual(try copied.fetchValue(sql: "select count(*) from \(table)"), .integer(300), "round \(round)")
        }
    }
}
