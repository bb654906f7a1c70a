import Foundation
import SocloadPostgreSQL
import SocloadTestSupport
import XCTest

/// A signal or `--timeout` cancels the statement a read command runs — in SQLite
/// (`sqlite3_interrupt`) and in PostgreSQL (`PQcancel`, so it does not go on running on the
/// server) — and socload exits 130 / 143 / 75 within a second, with one line saying why.
final class StatementCancelTests: XCTestCase {
    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"

    private func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = SocloadProcess.executable
        process.arguments = arguments
        process.standardOutput = Pipe()
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        return (process, stderr)
    }

    /// Runs the command, signals it after `delay` (or lets its `--timeout` run out), and checks
    /// the exit status, the message and how soon it came.
    private func assertStopped(_ arguments: [String], signal: Int32?, status: Int32, message: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let (process, stderr) = try start(arguments)
        let began = Date()
        Thread.sleep(forTimeInterval: 0.8)
        XCTAssertTrue(process.isRunning, "\(arguments) ended before the signal", file: file, line: line)
        let sent = Date()
        if let signal { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, status, output, file: file, line: line)
        XCTAssertEqual(output, "Error: \(message)\n", file: file, line: line)
        if signal != nil {
            XCTAssertLessThan(Date().timeIntervalSince(sent), 1.0, file: file, line: line)
        } else {
            XCTAssertLessThan(Date().timeIntervalSince(began), 2.6, file: file, line: line)
        }
    }

    func testSQLiteQueryAndSelectAreCancelledBySignalsAndTimeout() throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("cancel.sqlite")
        let dataset = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        XCTAssertEqual(try SocloadProcess.run(["fetch", dataset, "--table", "t", "--db", db, "--quiet"]).status, 0)
        let query = ["query", Self.endless, "--db", db, "--format", "csv"]
        try assertStopped(query, signal: SIGINT, status: 130, message: "interrupted by SIGINT; the statement was cancelled")
        try assertStopped(query, signal: SIGTERM, status: 143, message: "interrupted by SIGTERM; the statement was cancelled")
        try assertStopped(query + ["--timeout", "1.5"], signal: nil, status: 75, message: "timed out after 1.5 s; the statement was cancelled")
        // A statement that ends in time is not affected.
        let quick = try SocloadProcess.run(["query", "select count(*) as n from t", "--db", db, "--format", "csv", "--timeout", "30"])
        XCTAssertEqual(quick.status, 0, quick.stderr)
        XCTAssertEqual(quick.stdout, "n\r\n300\r\n")
        let select = try SocloadProcess.run(["select", "t", "--limit", "1", "--columns", "name", "--db", db, "--timeout", "5", "--format", "csv"])
        XCTAssertEqual(select.status, 0, select.stderr)
        let bad = try SocloadProcess.run(["query", "select 1", "--db", db, "--timeout", "0"])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.hasPrefix("Error: --timeout takes a number of seconds above 0, not '0'"), bad.stderr)
    }

    func testPostgreSQLStatementsAreCancelledOnTheServer() throws {
        let database = try TestPostgreSQL.makeDatabase()
        let admin = try database.connect()
        let sleeping = "select count(*) from pg_stat_activity where query like '%pg_sleep(20)%' and pid <> pg_backend_pid()"
        let query = ["query", "select pg_sleep(20)", "--db", database.url]
        for (signal, status, message) in [(Int32?.some(SIGINT), Int32(130), "interrupted by SIGINT; the statement was cancelled"),
                                          (SIGTERM, 143, "interrupted by SIGTERM; the statement was cancelled"),
                                          (nil, 75, "timed out after 1 s; the statement was cancelled")] {
            try assertStopped(query + (signal == nil ? ["--timeout", "1"] : []), signal: signal, status: status, message: message)
            // Nothing of it goes on running on the server.
            var left = try admin.value(sleeping)
            for _ in 0..<20 where left != "0" {
                Thread.sleep(forTimeInterval: 0.05)
                left = try admin.value(sleeping)
            }
            XCTAssertEqual(left, "0", "\(message): the statement still runs on the server")
        }
        let select = try SocloadProcess.run(["query", "select 1 as one", "--db", database.url, "--timeout", "10", "--format", "csv"])
        XCTAssertEqual(select.stdout, "one\r\n1\r\n", select.stderr)
    }
}
