import Foundation
import SocloadTestSupport
import XCTest

/// `sync --deletes` through the loopback portal, on SQLite and PostgreSQL: the rows the portal
/// no longer has go, found from the current ids alone (paged), never by fetching every row; a
/// sync that would delete more than `--max-deletes`, or everything because the portal listed
/// nothing, changes nothing.
final class SyncDeletesTests: XCTestCase {
    var directory: TemporaryDirectory!
    private var postgreSQL: TestPostgreSQL.TestDatabase?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func socload(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db])
    }

    private static func row(_ index: Int, updated: Int = 0) -> FakeSocrataPortal.Row {
        .init(id: "row-\(String(format: "%04d", index))", createdAt: 1_420_070_400 + index, updatedAt: 1_420_070_400 + index + updated,
              cells: ["name": .text("Name \(index) — Ünïcode"), "amount": .number("\(index).5")])
    }

    func testDeletedRowsGoAndALimitOrAnEmptyListingChangesNothing() throws {
        postgreSQL = try TestPostgreSQL.makeDatabase()
        for db in [directory.path("deletes.sqlite"), postgreSQL!.url] {
            let portal = try FakeSocrataPortal(datasetID: "dele-0001", columns: [.init("name", "text"), .init("amount", "number")],
                                               rows: (1...20).map { Self.row($0) }, rowsUpdatedAt: 1_430_000_000)
            defer { portal.stop() }
            let fetch = try socload(["fetch", "dele-0001", "--domain", portal.baseURL, "--api", "soda2", "--quiet"], db: db)
            XCTAssertEqual(fetch.status, 0, fetch.stderr)
            let ids = { try self.socload(["query", "select _id from dele_0001 order by _id", "--format", "csv"], db: db).stdout
                .split(whereSeparator: \.isNewline).dropFirst().map(String.init) }
            XCTAssertEqual(try ids().count, 20)

            // Rows 3 and 7 deleted upstream, row 1 changed, row 21 added.
            portal.update({ rows, _ in
                rows.removeAll { $0.id == "row-0003" || $0.id == "row-0007" }
                rows[0].cells["name"] = .text("Changed")
                rows[0].updatedAt += 10_000
                rows.append(Self.row(21, updated: 20_000))
            }, rowsUpdatedAt: 1_430_000_100)
            let requestsBefore = portal.server.requests.count
            let sync = try socload(["sync", "dele_0001", "--deletes", "--page-size", "4"], db: db)
            XCTAssertEqual(sync.status, 0, sync.stderr)
            XCTAssertTrue(sync.stderr.hasPrefix("Synced dele_0001: 2 rows received (1 new, 1 already there), 2 deleted since "), sync.stderr)
            XCTAssertTrue(sync.stderr.contains(", 19 rows in all"), sync.stderr)
            XCTAssertTrue(sync.stderr.contains("Refreshed dele_0001: 1 added, 1 changed, 2 removed, 0 unchanged"), sync.stderr)
            let changes = try socload(["changes", "dele_0001", "--format", "csv"], db: db).stdout
                .split(whereSeparator: \.isNewline).dropFirst().map { CSVLine.fields(String($0)) }
            XCTAssertEqual(changes.map { "\($0[1]) \($0[2]) \($0[3])" }.sorted(),
                           ["added _id=row-0021 ", "changed _id=row-0001 _updated_at", "changed _id=row-0001 name",
                            "removed _id=row-0003 ", "removed _id=row-0007 "], db)
            XCTAssertEqual(changes.first { $0[3] == "name" }.map { [$0[4], $0[5]] }, ["Name 1 — Ünïcode", "Changed"])
            XCTAssertEqual(try ids(), (1...21).filter { $0 != 3 && $0 != 7 }.map { String(format: "row-%04d", $0) })
            let log = try socload(["info", "dele_0001", "--refreshes", "--format", "csv"], db: db).stdout
                .split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            XCTAssertEqual(log.first?.joined(separator: ","),
                           "refreshed_at,kind,source,rows_updated_at,etag,rows,schema_changes,inserted,updated,deleted,unchanged,reissued,seconds,api,notices")
            XCTAssertEqual(log.dropFirst().map { $0[1] }, ["fetch", "sync"])
            XCTAssertEqual(log.last.map { $0[5...9].joined(separator: ",") }, "19,0,1,1,2", "rows, schema changes, inserted, updated, deleted")
            let listing = portal.server.requests.dropFirst(requestsBefore).filter { $0.query["$select"] == ":id" }
            XCTAssertEqual(listing.count, 5, "19 ids in pages of 4: the fifth, short, is the last")
            // Paged by key: each page of ids after the last id of the page before (3 and 7 are gone), never an offset.
            XCTAssertEqual(listing.map { $0.query["$where"] }, [nil, ":id > 'row-0005'", ":id > 'row-0010'", ":id > 'row-0014'",
                                                               ":id > 'row-0018'"])
            XCTAssertTrue(listing.allSatisfy { $0.query["$order"] == ":id" && $0.query["$offset"] == nil })

            // More than the limit (5 of 19 is over 20%): refused, nothing changed, not even the upserts.
            portal.update({ rows, _ in
                rows.removeAll { ["row-0010", "row-0011", "row-0012", "row-0013", "row-0014"].contains($0.id) }
                rows[0].updatedAt += 30_000
            }, rowsUpdatedAt: 1_430_000_200)
            let before = try socload(["query", "select * from dele_0001 order by _id", "--format", "csv"], db: db).stdout
            let limited = try socload(["sync", "dele_0001", "--deletes", "--max-deletes", "20%"], db: db)
            XCTAssertEqual(limited.status, 65, limited.stderr)
            XCTAssertTrue(limited.stderr.contains("sync --deletes would delete 5 of the 19 rows of dele_0001, more than --max-deletes allows (3)"),
                          limited.stderr)
            XCTAssertEqual(try socload(["query", "select * from dele_0001 order by _id", "--format", "csv"], db: db).stdout, before)
            XCTAssertEqual(try socload(["sync", "dele_0001", "--deletes", "--max-deletes", "5"], db: db).status, 0)
            XCTAssertEqual(try ids().count, 14)
            // The fingerprints the syncs kept are the table's: a full fetch of the same rows changes none.
            let full = try socload(["fetch", "dele-0001", "--domain", portal.baseURL, "--api", "soda2", "--force"], db: db)
            XCTAssertTrue(full.stderr.contains("Refreshed dele_0001: 0 added, 0 changed, 0 removed, 14 unchanged"), full.stderr)

            // A portal that lists nothing never empties the table, unless asked to.
            portal.update({ rows, _ in rows.removeAll() }, rowsUpdatedAt: 1_430_000_300)
            let emptied = try socload(["sync", "dele_0001", "--deletes"], db: db)
            XCTAssertEqual(emptied.status, 65, emptied.stderr)
            XCTAssertTrue(emptied.stderr.contains("the portal listed no rows: sync --deletes would delete all 14 rows of dele_0001"),
                          emptied.stderr)
            XCTAssertEqual(try ids().count, 14)
            XCTAssertEqual(try socload(["sync", "dele_0001", "--deletes", "--max-deletes", "100%"], db: db).status, 0)
            XCTAssertEqual(try ids().count, 0)
        }
        let bad = try socload(["sync", "dele_0001", "--max-deletes", "5"], db: directory.path("deletes.sqlite"))
        XCTAssertEqual(bad.status, 64, bad.stderr)
        let badLimit = try socload(["sync", "dele_0001", "--deletes", "--max-deletes", "lots"], db: directory.path("deletes.sqlite"))
        XCTAssertEqual(badLimit.status, 64, badLimit.stderr)
    }

    /// A sync keeps the history a fetch began: the changed row's old version closed and its new
    /// one added, a new row's first version, a deleted row's version closed.
    func testSyncKeepsTheHistory() throws {
        postgreSQL = try TestPostgreSQL.makeDatabase()
        for db in [directory.path("history.sqlite"), postgreSQL!.url] {
            let portal = try FakeSocrataPortal(datasetID: "hist-0001", columns: [.init("name", "text"), .init("amount", "number")],
                                               rows: (1...10).map { Self.row($0) }, rowsUpdatedAt: 1_430_000_000)
            defer { portal.stop() }
            let fetch = try socload(["fetch", "hist-0001", "--domain", portal.baseURL, "--api", "soda2", "--history", "--quiet"], db: db)
            XCTAssertEqual(fetch.status, 0, fetch.stderr)
            portal.update({ rows, _ in
                rows.removeAll { $0.id == "row-0004" }
                rows[0].cells["name"] = .text("Renamed")
                rows[0].updatedAt += 10_000
                rows.append(Self.row(11, updated: 20_000))
            }, rowsUpdatedAt: 1_430_000_100)
            let sync = try socload(["sync", "hist_0001", "--deletes"], db: db)
            XCTAssertEqual(sync.status, 0, sync.stderr)
            let history = try socload(["query", "select _id, name, _valid_to is null from hist_0001_history order by _id, _valid_from",
                                       "--format", "csv"], db: db).stdout.split(whereSeparator: \.isNewline).dropFirst()
                .map { $0.split(separator: ",").map(String.init) }
            XCTAssertEqual(history.count, 12, "10 first versions, the changed row's second, the new row's first: \(history)")
            XCTAssertEqual(Set(history.filter { $0[0] == "row-0001" }.map { "\($0[1]) \($0[2])" }), ["Name 1 — Ünïcode 0", "Renamed 1"])
            XCTAssertEqual(history.filter { $0[0] == "row-0004" }.map { $0[2] }, ["0"], "deleted: closed")
            XCTAssertEqual(history.filter { $0[0] == "row-0011" }.map { $0[2] }, ["1"])
        }
    }

    /// `sync --on-schema-change evolve` through the CLI on both databases: the new column added
    /// (NULL in the rows not synced); without it the sync stops (65) and `warn` is refused (64).
    func testSyncEvolveKeepsTheColumns() throws {
        postgreSQL = try TestPostgreSQL.makeDatabase()
        for db in [directory.path("evolve.sqlite"), postgreSQL!.url] {
            let portal = try FakeSocrataPortal(datasetID: "evol-0001", columns: [.init("name", "text"), .init("amount", "number")],
                                               rows: (1...6).map { Self.row($0) }, rowsUpdatedAt: 1_430_000_000)
            defer { portal.stop() }
            XCTAssertEqual(try socload(["fetch", "evol-0001", "--domain", portal.baseURL, "--api", "soda2", "--quiet"], db: db).status, 0)
            portal.update({ rows, columns in
                columns.append(.init("note", "text"))
                rows[0].cells["note"] = .text("new column")
                rows[0].updatedAt += 10_000
            }, rowsUpdatedAt: 1_430_000_100)
            XCTAssertEqual(try socload(["sync", "evol_0001"], db: db).status, 65)
            XCTAssertEqual(try socload(["sync", "evol_0001", "--on-schema-change", "warn"], db: db).status, 64)
            let evolved = try socload(["sync", "evol_0001", "--on-schema-change", "evolve"], db: db)
            XCTAssertEqual(evolved.status, 0, evolved.stderr)
            XCTAssertTrue(evolved.stderr.contains("Warning: evol_0001: column note added"), evolved.stderr)
            let rows = try socload(["query", "select _id, note, amount from evol_0001 order by _id", "--format", "csv"], db: db).stdout
                .split(whereSeparator: \.isNewline).dropFirst().map(String.init)
            XCTAssertEqual(rows.first, "row-0001,new column,1.5", "the synced row with the new column's value")
            XCTAssertEqual(rows.dropFirst().first, "row-0002,,2.5", "the other rows as they were")
        }
    }
}
