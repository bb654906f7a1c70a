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

    private func killDuringFetch(_ dataset: String, db: String, table: String, delay: Double) throws -> Int32 {
        let process = Process()
        process.executableURL = SocloadProcess.executable
        process.arguments = ["fetch", dataset, "--db", db, "--table", table, "--quiet"]
        process.standardError = Pipe()
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationStatus
    }

    func testKilledLoadsLeaveThePreviousTableIntact() throws {
        let directory = try TemporaryDirectory()
        let dataset = try Self.largeDataset(in: directory)
        let db = directory.path("crash.sqlite")
        let first = try SocloadProcess.run(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path,
                                            "--table", "t", "--db", db])
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try Self.state(of: db)
        XCTAssertEqual(before.integrity, "ok")
        var killed = 0
        for trial in 0..<Self.trials {
            let delay = Double.random(in: 0.02...1.2)
            if try killDuringFetch(dataset, db: db, table: "t", delay: delay) == SIGKILL { killed += 1 }
            let after = try Self.state(of: db)
            XCTAssertEqual(after.integrity, "ok", "trial \(trial), killed after \(delay) s")
            XCTAssertEqual(after.digest, before.digest, "trial \(trial), killed after \(delay) s")
        }
        XCTAssertGreaterThan(killed, 0, "no load was still running when killed: make the dataset larger")
        // The database still works: a complete load replaces the table.
        let complete = try SocloadProcess.run(["fetch", dataset, "--db", db, "--table", "t", "--quiet"])
        XCTAssertEqual(complete.status, 0, complete.stderr)
        XCTAssertEqual(try Self.state(of: db).integrity, "ok")
    }

    func testKilledFirstLoadLeavesAnEmptyIntactDatabase() throws {
        let directory = try TemporaryDirectory()
        let dataset = try Self.largeDataset(in: directory)
        for trial in 0..<max(3, Self.trials / 4) {
            let db = directory.path("fresh-\(trial).sqlite")
            let delay = Double.random(in: 0.05...0.8)
            _ = try killDuringFetch(dataset, db: db, table: "t", delay: delay)
            guard FileManager.default.fileExists(atPath: db) else { continue }
            let after = try Self.state(of: db)
            XCTAssertEqual(after.integrity, "ok", "trial \(trial)")
            // Either nothing was committed, or the whole load was.
            let tables = after.digest.filter { $0.hasPrefix("t: ") }
            if let table = tables.first {
                XCTAssertTrue(table.hasPrefix("t: 30000 rows"), "trial \(trial): \(table)")
            }
        }
    }
}
