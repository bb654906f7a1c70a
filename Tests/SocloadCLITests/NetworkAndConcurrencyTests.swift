import Foundation
import SocloadTestSupport
import XCTest

final class NetworkAndConcurrencyTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!
    var server: LoopbackHTTPServer!
    var body: [UInt8] = []

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("net.sqlite")
        server = try LoopbackHTTPServer()
        body = try Fixtures.bundled("n5m4-mism")
        let first = try SocloadProcess.run(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("ci7y-pmts.json").path,
                                            "--table", "t", "--db", db])
        XCTAssertEqual(first.status, 0, first.stderr)
    }

    override func tearDown() {
        server.stop()
    }

    private var environment: [String: String] { ["SOCLOAD_RETRY_DELAY": "0.01", "SOCLOAD_LOW_SPEED_TIME": "1"] }

    private func tableState() throws -> String {
        try SocloadProcess.run(["query", "select * from t", "--db", db, "--format", "csv"]).stdout
            + SocloadProcess.run(["tables", "--db", db, "--format", "csv"]).stdout
    }

    private func fetch(_ path: String, retries: Int = 1) throws -> SocloadRun {
        try SocloadProcess.run(["fetch", server.baseURL + path, "--table", "t", "--db", db, "--retries", String(retries)],
                               environment: environment)
    }

    /// One line, exit 69, the previous table untouched.
    private func assertNetworkFailure(_ path: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try tableState()
        let run = try fetch(path)
        XCTAssertEqual(run.status, 69, run.stderr, file: file, line: line)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertTrue(lines.last?.hasPrefix("Error: ") ?? false, run.stderr, file: file, line: line)
        XCTAssertTrue(lines.last?.contains(message) ?? false, "expected “\(message)” in \(run.stderr)", file: file, line: line)
        XCTAssertTrue(lines.last?.hasSuffix("; t was not changed") ?? false, run.stderr, file: file, line: line)
        XCTAssertEqual(try tableState(), before, file: file, line: line)
    }

    func testRedirectLoop() throws {
        server.route("/loop/rows.json", .redirect(to: "/loop/rows.json"))
        try assertNetworkFailure("/loop/rows.json", "Maximum (10) redirects followed")
    }

    func testContentLengthLargerThanTheBodyIsRetriedThenReported() throws {
        server.route("/short/rows.json", .init(body: body, delivery: .dropAfter(bytes: body.count / 3)))
        try assertNetworkFailure("/short/rows.json", "transfer closed with")
        let attempts = server.requests.filter { $0.path == "/short/rows.json" }.count
        XCTAssertEqual(attempts, 2, "one retry")
    }

    func testStallIsRetriedThenReported() throws {
        server.route("/stall/rows.json", .init(body: body, delivery: .stall(seconds: 6)))
        try assertNetworkFailure("/stall/rows.json", "Operation too slow")
    }

    func testRefusedConnection() throws {
        let run = try SocloadProcess.run(["fetch", "http://127.0.0.1:1/rows.json", "--table", "t", "--db", db], environment: environment)
        XCTAssertEqual(run.status, 69)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }

    func testSlowDripStillLoads() throws {
        server.route("/drip/rows.json", .init(body: body, delivery: .drip(chunk: 8192, interval: 0.05)))
        let run = try fetch("/drip/rows.json")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("Loaded 300 rows into t"), run.stderr)
    }

    /// A small gzip body that inflates a thousandfold is read as it inflates: memory stays flat.
    func testGzipBombLoadsWithBoundedMemory() throws {
        let padding = String(repeating: " ", count: 60_000_000)
        let document = #"{"meta":{"view":{"columns":[{"fieldName":"a","dataTypeName":"text"}]}},"data":[["x"],"#
            + padding + #"["y"]]}"#
        let plain = directory.path("bomb.json")
        try Data(document.utf8).write(to: URL(fileURLWithPath: plain))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-9", "-k", plain]
        try gzip.run()
        gzip.waitUntilExit()
        let compressed = try Data(contentsOf: URL(fileURLWithPath: plain + ".gz"))
        XCTAssertLessThan(compressed.count * 100, document.utf8.count, "inflates more than 100×")
        server.route("/bomb/rows.json", .init(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                                              body: Array(compressed)))
        let rss = directory.path("rss")
        let timed = Process()
        timed.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        timed.arguments = ["-f", "%M", "-o", rss, SocloadProcess.executable.path, "fetch", server.baseURL + "/bomb/rows.json",
                           "--table", "t", "--db", db]
        timed.standardError = Pipe()
        try timed.run()
        timed.waitUntilExit()
        XCTAssertEqual(timed.terminationStatus, 0)
        let peakKB = Int(try String(contentsOfFile: rss, encoding: .utf8).split(separator: "\n").last ?? "") ?? .max
        XCTAssertLessThan(peakKB, 100_000, "peak RSS \(peakKB) KB")
        XCTAssertEqual(try SocloadProcess.run(["query", "select a from t", "--db", db, "--format", "csv"]).stdout, "a\r\nx\r\ny\r\n")
    }

    /// Starts a fetch whose server sends half the body, then stalls for `stallSeconds` and hangs up:
    /// the load holds the database's write lock meanwhile. Returns once it has started loading.
    private func startLoadThatHoldsTheLock(stallSeconds: Double) throws -> Process {
        server.route("/held/rows.json", .init(body: body, delivery: .partialThenStall(bytes: body.count / 2, seconds: stallSeconds)))
        let process = Process()
        process.executableURL = SocloadProcess.executable
        process.arguments = ["fetch", server.baseURL + "/held/rows.json", "--table", "t", "--db", db, "--retries", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(["SOCLOAD_LOW_SPEED_TIME": "60"]) { $1 }
        process.standardError = Pipe()
        try process.run()
        Thread.sleep(forTimeInterval: 0.7)
        return process
    }

    /// While a load holds the write lock, the sqlite3 shell and socload query read the previous
    /// table; a second fetch waits for the lock (busy timeout) and then proceeds.
    func testReadersDuringALoadAndASecondFetchThatWaits() throws {
        let first = try startLoadThatHoldsTheLock(stallSeconds: 2)

        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [db, "select count(*) from t"]
        let shellOutput = Pipe()
        shell.standardOutput = shellOutput
        try shell.run()
        shell.waitUntilExit()
        XCTAssertEqual(String(decoding: shellOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "120\n")
        let query = try SocloadProcess.run(["query", "select count(*) as n from t", "--db", db, "--format", "csv"])
        XCTAssertEqual(query.stdout, "n\r\n120\r\n")

        let started = Date()
        let second = try SocloadProcess.run(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("geo5-shps.json").path,
                                             "--table", "t", "--db", db])
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 69, "the first load failed when its server hung up")
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.5, "the second fetch waited for the lock")
        XCTAssertEqual(try SocloadProcess.run(["query", "select count(*) as n from t", "--db", db, "--format", "csv"]).stdout,
                       "n\r\n40\r\n")
    }

    /// A second fetch that cannot get the lock within the busy timeout fails clearly; the file is fine.
    func testASecondFetchGivesUpClearlyWhenTheLockStaysTaken() throws {
        let first = try startLoadThatHoldsTheLock(stallSeconds: 8)
        let second = try SocloadProcess.run(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("geo5-shps.json").path,
                                             "--table", "t", "--db", db])
        XCTAssertEqual(second.status, 74)
        XCTAssertTrue(second.stderr.hasPrefix("Error: SQLite error 5 (database is locked)"), second.stderr)
        XCTAssertEqual(second.stderr.split(separator: "\n").count, 1)
        kill(first.processIdentifier, SIGTERM)
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 143)
        let integrity = try SocloadProcess.run(["query", "pragma integrity_check", "--db", db, "--format", "csv"])
        XCTAssertEqual(integrity.stdout, "integrity_check\r\nok\r\n")
    }
}

final class SQLLogTests: XCTestCase {
    /// Values never reach SQL text: a load of hostile names and values logs only placeholders, on
    /// SQLite (`?`) and PostgreSQL (`$1`) alike.
    func testNoValueIsEverSplicedIntoSQL() throws {
        let directory = try TemporaryDirectory()
        let secret = "s3cret'); DROP TABLE t; --"
        let document = HostileInputTests.document(
            columns: [("\"); DROP TABLE x; --", "text"), ("n", "number"), ("when", "date")],
            rows: ["[" + HostileInputTests.quote(secret) + ",\"12345.678\",1446120000]", #"["plain value 98765","1",null]"#])
        let path = directory.path("hostile.json")
        try Data(document.utf8).write(to: URL(fileURLWithPath: path))
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        for (db, log) in [(directory.path("log.sqlite"), directory.path("sqlite.log")), (postgreSQL.url, directory.path("pg.log"))] {
            let run = try SocloadProcess.run(["fetch", path, "--table", "t\"; --", "--db", db], environment: ["SOCLOAD_SQL_LOG": log])
            XCTAssertEqual(run.status, 0, run.stderr)
            let select = try SocloadProcess.run(["select", "t\"; --", "--eq", "n=12345.678", "--db", db, "--format", "csv"],
                                                environment: ["SOCLOAD_SQL_LOG": log])
            XCTAssertEqual(select.status, 0, select.stderr)
            XCTAssertTrue(select.stdout.contains(secret), select.stdout)
            if db != postgreSQL.url {
                // A value bound to a table-valued pragma, which SQLite's trace would spell out.
                let pragma = try SocloadProcess.run(["query", "select count(*) from pragma_table_info(?)", "--param", "hunter2-secret",
                                                     "--db", db], environment: ["SOCLOAD_SQL_LOG": log])
                XCTAssertEqual(pragma.status, 0, pragma.stderr)
            }
            let text = try String(contentsOfFile: log, encoding: .utf8)
            XCTAssertTrue(text.contains(#"CREATE TABLE "t""; --""#) || text.contains(#"RENAME TO "t""; --""#), text)
            for value in ["s3cret", "12345.678", "98765", "plain value", "2015-10-29", "hunter2"] {
                XCTAssertFalse(text.contains(value), "\(value) appears in the SQL log:\n\(text)")
            }
            XCTAssertTrue(text.contains(#""""); DROP TABLE x; --""#), "the hostile column name is quoted:\n\(text)")
            if db == postgreSQL.url {
                XCTAssertTrue(text.hasPrefix("SET TimeZone = 'UTC'\n"), "a connection's first statements are logged too")
            }
        }
    }

    /// `$SOCLOAD_SQL_LOG` may name a pipe (a FIFO another program reads): it cannot seek, and
    /// once was a crash before the load began.
    func testTheLogCanBeAPipe() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path("sql.fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let received = LockedText()
        let reader = Thread {
            guard let handle = FileHandle(forReadingAtPath: fifo) else { return }
            received.set(String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
        }
        reader.start()
        let path = directory.path("plain.json")
        try Data(HostileInputTests.document(columns: [("n", "number")], rows: [#"["1"]"#]).utf8).write(to: URL(fileURLWithPath: path))
        let run = try SocloadProcess.run(["fetch", path, "--table", "t", "--db", directory.path("pipe.sqlite")],
                                         environment: ["SOCLOAD_SQL_LOG": fifo])
        XCTAssertEqual(run.status, 0, run.stderr)
        for _ in 0..<100 where received.text == nil { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(received.text?.contains(#"CREATE TABLE "t""#) == true, received.text ?? "nothing read")
    }
}

/// Text one thread sets and another reads.
private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    var text: String? { lock.withLock { value } }
    func set(_ text: String) { lock.withLock { value = text } }
}
