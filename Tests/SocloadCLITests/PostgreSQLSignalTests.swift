import Foundation
import SocloadPostgreSQL
import SocloadTestSupport
import XCTest

extension PostgreSQLCommandTests {
    /// Starts a fetch into PostgreSQL, signals it after `delay`, and checks exit status, message,
    /// timing, and that the table is as it was.
    private func assertInterrupted(_ arguments: [String], by signal: Int32, after delay: Double,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let connection = try database.connect()
        let before = try connection.execute("SELECT count(*), (SELECT string_agg(fetched_at, ',') FROM _socload_datasets) FROM t").rows
        let process = Process()
        process.executableURL = SocloadProcess.executable
        process.arguments = arguments + ["--db", database.url]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        XCTAssertTrue(process.isRunning, "the load ended before the signal", file: file, line: line)
        let sent = Date()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let took = Date().timeIntervalSince(sent)
        let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, signal == SIGINT ? 130 : 143, output, file: file, line: line)
        XCTAssertLessThan(took, 1.0, file: file, line: line)
        XCTAssertEqual(output, "Error: interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); t was not changed\n", file: file, line: line)
        XCTAssertEqual(try connection.execute("SELECT count(*), (SELECT string_agg(fetched_at, ',') FROM _socload_datasets) FROM t").rows,
                       before, file: file, line: line)
    }

    func testSignalsEndALoadIntoPostgreSQLWithinASecond() throws {
        let dataset = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        XCTAssertEqual(try socload(["fetch", dataset, "--table", "t", "--quiet"]).status, 0)
        // A COPY open while the source stalls.
        let fifo = directory.path("stall.fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            guard descriptor >= 0 else { return }
            let part = Array(((try? Fixtures.bundled("n5m4-mism")) ?? []).prefix(60_000))
            _ = part.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            Thread.sleep(forTimeInterval: 4)
            close(descriptor)
        }
        writer.start()
        try assertInterrupted(["fetch", fifo, "--table", "t"], by: SIGINT, after: 0.8)
        // The swap waiting for another session's lock on the table.
        let holder = try database.connect()
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE t IN ACCESS SHARE MODE")
        try assertInterrupted(["fetch", dataset, "--table", "t", "--quiet", "--force"], by: SIGTERM, after: 1.5)
        try holder.execute("ROLLBACK")
    }
}

extension CrashSafetyTests {
    /// SIGKILL at random moments of a load into PostgreSQL: the server rolls the transaction
    /// back, so the old table and the catalog are as they were, and no new table is left.
    func testKilledPostgreSQLLoadsLeaveThePreviousTableAndCatalogIntact() throws {
        signal(SIGPIPE, SIG_IGN)
        let database = try TestPostgreSQL.makeDatabase()
        let directory = try TemporaryDirectory()
        let document = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.largeDataset(in: directory))))
        let first = try SocloadProcess.run(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path,
                                            "--table", "t", "--db", database.url])
        XCTAssertEqual(first.status, 0, first.stderr)
        let connection = try database.connect()
        func state() throws -> [String] {
            let tables = try connection.execute("SELECT relname FROM pg_class WHERE relkind = 'r' AND "
                                                + "relnamespace = 'public'::regnamespace ORDER BY 1").rows.map { $0[0] ?? "" }
            return try tables + tables.map { table in
                try connection.value("SELECT count(*) || ' ' || md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) FROM \(table.quotedDatabaseIdentifierForTests) r") ?? ""
            }
        }
        let before = try state()
        XCTAssertEqual(before.prefix(7), ["_socload_datasets", "_socload_fingerprints_t", "_socload_meta", "_socload_refreshes",
                                          "_socload_schema_changes", "_socload_table_names", "t"])
        for trial in 0..<max(4, Self.trials / 3) {
            let cut = Int.random(in: 1...min(document.count - 1, 2_000_000))
            try killMidLoad(document, cut: cut, db: database.url, table: "t", in: directory)
            XCTAssertEqual(try state(), before, "trial \(trial), killed after \(cut) bytes")
        }
        let complete = try SocloadProcess.run(["fetch", try Self.largeDataset(in: directory), "--db", database.url, "--table", "t", "--quiet"])
        XCTAssertEqual(complete.status, 0, complete.stderr)
        XCTAssertEqual(try connection.value("SELECT count(*) FROM t"), "30000")
    }
}

extension String {
    var quotedDatabaseIdentifierForTests: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
