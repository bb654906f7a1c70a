import Foundation
import SocloadDatabase
import SocloadTestSupport
import XCTest

/// socload killed (SIGKILL) at each step a refresh adds — the counts made, the change log
/// written, the history written, the fingerprints replaced; a sync's history, log and merge —
/// leaves the previous table, its change log, history and fingerprints exactly as they were.
final class RowChangeKillTests: XCTestCase {
    var directory: TemporaryDirectory!
    private var postgreSQL: TestPostgreSQL.TestDatabase?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        signal(SIGPIPE, SIG_IGN)
    }

    /// Runs socload paused at `step` and kills it there; fails unless it got there.
    private func kill(_ arguments: [String], at step: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try SocloadProcess.killed(arguments, at: step)
        XCTAssertTrue(run.reached, "socload ended before \(step): \(run.said)", file: file, line: line)
    }

    /// What a reader sees of socload's tables on either database: each table's rows, in order.
    private func state(_ db: String, tables: [String]) throws -> [String] {
        try tables.map { table in
            let run = try SocloadProcess.run(["query", "select * from \(table) order by 1, 2, 3", "--format", "csv", "--db", db])
            return "\(table): \(run.status) \(run.stdout)"
        }
    }

    func testAKillAtEachNewStepLeavesTheTableItsLogHistoryAndFingerprintsAsTheyWere() throws {
        postgreSQL = try TestPostgreSQL.makeDatabase()
        let source = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")
        var export = try RowChangeCommandTests.Export(source)
        let base = directory.path("base.json")
        try export.write(to: base)
        if let text = export.text {
            for index in 0..<3 { export.rows[index][text.position] = "\(export.rows[index][text.position]) (edited)" }
        }
        export.rows.removeSubrange(4..<9)
        let edited = directory.path("edited.json")
        try export.write(to: edited)
        for db in [directory.path("kill.sqlite"), postgreSQL!.url] {
            XCTAssertEqual(try SocloadProcess.run(["fetch", base, "--table", "t", "--history", "--quiet", "--db", db]).status, 0)
            XCTAssertEqual(try SocloadProcess.run(["fetch", edited, "--table", "t", "--quiet", "--db", db]).status, 0)
            // SQLite keeps the copy the last refresh replaced; PostgreSQL drops it in the swap.
            let tables = ["t", "t_history", "_socload_row_changes", "_socload_refreshes", "_socload_fingerprints_t", "_socload_datasets"]
                + (db.hasPrefix("postgresql") ? [] : ["_socload_previous_t"])
            let before = try state(db, tables: tables)
            XCTAssertTrue(before.allSatisfy { $0.contains(": 0 ") }, "every table is there")
            for step in ["row-counts", "change-log", "history", "fingerprints"] {
                try kill(["fetch", base, "--table", "t", "--db", db], at: step)
                XCTAssertEqual(try state(db, tables: tables), before, "killed at \(step) (\(db))")
            }
            if !db.hasPrefix("postgresql") {
                let sqlite = try Database(path: db)
                XCTAssertEqual(try sqlite.fetchOne(String.self, sql: "PRAGMA integrity_check"), "ok")
                XCTAssertEqual(try sqlite.fetchAll(String.self, sql: "SELECT name FROM sqlite_schema WHERE name LIKE '%new%'"), [],
                               "no stray tables")
                XCTAssertEqual(try sqlite.fetchAll(String.self, sql: "SELECT name FROM sqlite_schema WHERE tbl_name = '_socload_previous_t'"),
                               ["_socload_previous_t"], "the copy the last refresh replaced, without indexes")
            }
            let refreshed = try SocloadProcess.run(["fetch", base, "--table", "t", "--db", db])
            XCTAssertTrue(refreshed.stderr.contains("Refreshed t: 5 added, 3 changed, 0 removed, 292 unchanged"),
                          "\(db): \(refreshed.stderr)")
        }
    }

    func testAKilledSyncLeavesItAllAsItWas() throws {
        postgreSQL = try TestPostgreSQL.makeDatabase()
        for db in [directory.path("sync-kill.sqlite"), postgreSQL!.url] {
            let row = { (index: Int, name: String, updated: Int) in
                FakeSocrataPortal.Row(id: "row-\(index)", createdAt: 1_420_070_400 + index, updatedAt: 1_420_070_400 + updated,
                                      cells: ["name": .text(name)])
            }
            let portal = try FakeSocrataPortal(datasetID: "kill-0001", columns: [.init("name", "text")],
                                               rows: (1...8).map { row($0, "n\($0)", $0) }, rowsUpdatedAt: 1_430_000_000)
            defer { portal.stop() }
            let fetch = try SocloadProcess.run(["fetch", "kill-0001", "--domain", portal.baseURL, "--api", "soda2", "--history",
                                                "--quiet", "--db", db])
            XCTAssertEqual(fetch.status, 0, fetch.stderr)
            portal.update({ rows, _ in
                rows.removeAll { $0.id == "row-3" }
                rows[0] = row(1, "changed", 100)
                rows.append(row(9, "new", 200))
            }, rowsUpdatedAt: 1_430_000_100)
            let tables = ["kill_0001", "kill_0001_history", "_socload_refreshes", "_socload_fingerprints_kill_0001", "_socload_datasets"]
            let before = try state(db, tables: tables)
            for step in ["sync-log", "sync-history", "sync-fingerprints"] {
                try kill(["sync", "kill_0001", "--deletes", "--db", db], at: step)
                XCTAssertEqual(try state(db, tables: tables), before, "killed at \(step) (\(db))")
            }
            let sync = try SocloadProcess.run(["sync", "kill_0001", "--deletes", "--db", db])
            XCTAssertTrue(sync.stderr.contains("Refreshed kill_0001: 1 added, 1 changed, 1 removed, 0 unchanged"), "\(db): \(sync.stderr)")
        }
    }
}
