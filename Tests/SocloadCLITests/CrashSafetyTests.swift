import Foundation
import SocloadDatabase
import SocloadTestSupport
import XCTest

/// `socload fetch` killed with SIGKILL at random moments: the database must stay intact, with the
/// previous table and its catalog row exactly as they were and no stray tables.
/// `SOCLOAD_STRESS_TRIALS` raises the number of trials (`make stress`).
final class CrashSafetyTests: XCTestCase {
    static var trials: Int { Int(ProcessInfo.processInfo.environment["SOCLOAD_STRESS_TRIALS"] ?? "") ?? 20 }

    /// A generated dataset large enough that a load takes a while; made once and kept in
    /// `.build/test-data` (the generator is deterministic, so a kept copy is the same file).
    static func largeDataset(in _: TemporaryDirectory, rows: Int = 30_000) throws -> String {
        let directory = Fixtures.packageRoot.appendingPathComponent(".build/test-data").path
        let path = directory + "/bench-\(rows).rows.json"
        if FileManager.default.fileExists(atPath: path) { return path }
        let generator = SocloadProcess.executable.deletingLastPathComponent().appendingPathComponent("socload-datasets")
        let process = Process()
        process.executableURL = generator
        process.arguments = ["bench", String(rows), directory]
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        return path
    }

    /// Everything a reader could see: every table's rows, the catalog, and the list of tables.
    static func state(of path: String) throws -> (integrity: String, digest: [String]) {
        let db = try Database(path: path)
        let integrity = try db.fetchOne(String.self, sql: "PRAGMA integrity_check") ?? ""
        var digest = try db.fetchAll(String.self, sql: "SELECT type || ' ' || name FROM sqlite_schema ORDER BY name")
        for table in try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
            let rows = try db.fetchRows(sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY rowid")
            digest.append("\(table): \(rows.count) rows, \(rows.hashValue)")
        }
        return (integrity, digest)
    }

    /// (Cuts stay within the first 2 MB, some 4,000 rows, so that a debug build's trials stay short;
    /// several batches of rows are in the transaction by then.)
    ///
    /// Feeds the first `cut` bytes of `document` to `socload fetch` through a FIFO, waits a little
    /// while it loads them, and kills it with SIGKILL. The rest of the document never comes, so
    /// the kill cannot miss the load however fast the build is: the test asserts that the process
    /// was still running and died of the signal.
    func killMidLoad(_ document: [UInt8], cut: Int, db: String, table: String, in directory: TemporaryDirectory,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let fifo = directory.path("feed-\(UUID().uuidString.prefix(8))")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let process = Process()
        process.executableURL = SocloadProcess.executable
        process.arguments = ["fetch", fifo, "--db", db, "--table", table, "--quiet"]
        process.standardError = Pipe()
        try process.run()
        var descriptor: Int32 = -1
        let deadline = Date().addingTimeInterval(10)
        while descriptor < 0, Date() < deadline, process.isRunning {
            descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor < 0 { Thread.sleep(forTimeInterval: 0.005) }
        }
        XCTAssertGreaterThanOrEqual(descriptor, 0, "socload never opened the FIFO", file: file, line: line)
        if descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFL, 0)
            _ = document.withUnsafeBytes { write(descriptor, $0.baseAddress, cut) }
        }
        Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.4))
        XCTAssertTrue(process.isRunning, "the load ended before the kill", file: file, line: line)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if descriptor >= 0 { close(descriptor) }
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, file: file, line: line)
        XCTAssertEqual(process.terminationStatus, SIGKILL, file: file, line: line)
    }

    func testKilledLoadsLeaveThePreviousTableIntact() throws {
        signal(SIGPIPE, SIG_IGN)
        let directory = try TemporaryDirectory()
        let document = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.largeDataset(in: directory))))
        let db = directory.path("crash.sqlite")
        let first = try SocloadProcess.run(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path,
                                            "--table", "t", "--db", db])
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try Self.state(of: db)
        XCTAssertEqual(before.integrity, "ok")
        for trial in 0..<Self.trials {
            let cut = Int.random(in: 1...min(document.count - 1, 2_000_000))
            try killMidLoad(document, cut: cut, db: db, table: "t", in: directory)
            let after = try Self.state(of: db)
            XCTAssertEqual(after.integrity, "ok", "trial \(trial), killed after \(cut) bytes")
            XCTAssertEqual(after.digest, before.digest, "trial \(trial), killed after \(cut) bytes")
        }
        // The database still works: a complete load replaces the table.
        let complete = try SocloadProcess.run(["fetch", try Self.largeDataset(in: directory), "--db", db, "--table", "t", "--quiet"])
        XCTAssertEqual(complete.status, 0, complete.stderr)
        XCTAssertEqual(try Self.state(of: db).integrity, "ok")
    }

    /// A first load killed at any point leaves no database at all (it was being built under a
    /// temporary name); the next fetch creates it and clears away the abandoned file.
    func testKilledFirstLoadLeavesNoDatabase() throws {
        signal(SIGPIPE, SIG_IGN)
        let directory = try TemporaryDirectory()
        let document = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.largeDataset(in: directory))))
        let db = directory.path("fresh.sqlite")
        for trial in 0..<max(3, Self.trials / 4) {
            let cut = Int.random(in: 1...min(document.count - 1, 2_000_000))
            try killMidLoad(document, cut: cut, db: db, table: "t", in: directory)
            XCTAssertFalse(FileManager.default.fileExists(atPath: db), "trial \(trial), killed after \(cut) bytes")
        }
        let complete = try SocloadProcess.run(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path,
                                               "--db", db, "--table", "t"])
        XCTAssertEqual(complete.status, 0, complete.stderr)
        XCTAssertEqual(try Self.state(of: db).integrity, "ok")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("socload-") }
        XCTAssertEqual(left, [], "abandoned staged databases were not removed")
    }
}
