import Synchronization
import Foundation
import SocloadDatabase
@testable import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// Refreshes against the loopback portal: a conditional request that finds nothing new, and sync.
extension LivePortalTests {
    func testUnchangedDatasetIsNotReloaded() throws {
        let first = try harness.load(request(.rows))
        XCTAssertFalse(first.isUpToDate)
        let before = try harness.snapshot("fake_0001")
        let second = try harness.load(request(.rows))
        XCTAssertTrue(second.isUpToDate)
        XCTAssertEqual(second.rowCount, 23)
        XCTAssertEqual(try harness.snapshot("fake_0001"), before, "nothing was written")

        // The portal changes its rows: the next fetch reloads, with If-None-Match sent.
        portal.update({ rows, _ in rows[0].cells["name"] = .text("Renamed") }, rowsUpdatedAt: FakePortalDataset.start + 91 * 86_400)
        let third = try harness.load(request(.rows))
        XCTAssertFalse(third.isUpToDate)
        XCTAssertEqual(try harness.value("SELECT name FROM fake_0001 WHERE _id = 'row-0001_abcd.efgh'"), "Renamed")
        let export = portal.server.requests.filter { $0.route.hasSuffix("/rows.json") }.last
        XCTAssertEqual(export?.headers["if-none-match"], "\"v1\"")

        // Without the view metadata, the ETag alone answers: 304 Not Modified.
        portal.hidesMetadata = true
        XCTAssertTrue(try harness.load(request(.rows)).isUpToDate)
        XCTAssertEqual(portal.server.requests.last?.headers["if-none-match"], "\"v2\"")
        var forced = try request(.rows)
        forced.force = true
        XCTAssertFalse(try harness.load(forced).isUpToDate)
    }

    /// A server without ETags: Last-Modified is kept, sent back as If-Modified-Since, and its 304
    /// leaves the table alone.
    func testIfModifiedSinceAloneAnswersUnchanged() throws {
        portal.sendsETag = false
        portal.hidesMetadata = true // so that rowsUpdatedAt cannot answer first
        XCTAssertFalse(try harness.load(request(.rows)).isUpToDate)
        let before = try harness.snapshot("fake_0001")
        XCTAssertTrue(try harness.load(request(.rows)).isUpToDate)
        let export = portal.server.requests.filter { $0.route.hasSuffix("/rows.json") }.last
        XCTAssertEqual(export?.headers["if-modified-since"], "Thu, 01 Jan 2015 00:00:00 GMT")
        XCTAssertNil(export?.headers["if-none-match"])
        XCTAssertEqual(try harness.snapshot("fake_0001"), before)
        // Once the data changes, the date no longer matches and the table is reloaded.
        portal.update({ rows, _ in rows[0].cells["name"] = .text("Renamed") }, rowsUpdatedAt: FakePortalDataset.start + 91 * 86_400)
        XCTAssertFalse(try harness.load(request(.rows)).isUpToDate)
        XCTAssertEqual(try harness.value("SELECT name FROM fake_0001 WHERE _id = 'row-0001_abcd.efgh'"), "Renamed")
    }

    func testSyncChangesExactlyTheUpdatedAndAddedRows() throws {
        try harness.load(request(.rows))
        let before = try table("fake_0001")
        let later = FakePortalDataset.start + 100 * 86_400
        portal.update({ rows, _ in
            for index in [2, 9, 17] {
                rows[index].cells["category"] = .text("changed \(index)")
                rows[index].updatedAt = later + index
            }
            for index in [24, 25] {
                var row = FakePortalDataset.row(index)
                row.updatedAt = later + index
                rows.append(row)
            }
        }, rowsUpdatedAt: later + 100)
        let loader = DatasetLoader(destination: SQLiteDestination(queue: harness.queue), retry: LoadHarness.fastRetry)
        let summary = try loader.sync("fake-0001", pageSize: 2, indexes: [["category"]])
        XCTAssertEqual(summary.inserted, 2)
        XCTAssertEqual(summary.updated, 3)
        XCTAssertEqual(summary.rowCount, 25)
        XCTAssertEqual(summary.since, "2015-01-01T23:01:00Z")
        let after = try table("fake_0001")
        let beforeByID = Dictionary(uniqueKeysWithValues: before.map { ($0["_id"]!, $0) })
        let changed = after.filter { beforeByID[$0["_id"]!] != $0 }.compactMap { $0["_id"] }
        XCTAssertEqual(Set(changed), ["row-0003_abcd.efgh", "row-0010_abcd.efgh", "row-0018_abcd.efgh",
                                      "row-0024_abcd.efgh", "row-0025_abcd.efgh"])
        // Pages of two, each after the (:updated_at, :id) of the last row before it.
        let pages = portal.server.requests.filter { $0.route.hasPrefix("/resource/") && $0.query["$where"]?.hasPrefix("(:updated_at") == true
            || $0.query["$where"] == ":updated_at > '2015-01-01T23:01:00Z'" }
        XCTAssertEqual(pages.count, 3)
        XCTAssertEqual(pages.first?.query["$where"], ":updated_at > '2015-01-01T23:01:00Z'")
        XCTAssertTrue(pages.allSatisfy { $0.query["$order"] == ":updated_at, :id" && $0.query["$offset"] == nil })
        let second = try XCTUnwrap(pages.dropFirst().first?.query["$where"])
        XCTAssertTrue(second.hasPrefix("(:updated_at > '2015-01-01T23:01:00Z') AND (:updated_at > '"), second)
        XCTAssertTrue(second.contains("' OR (:updated_at = '") && second.contains("' AND :id > 'row-"), second)
        let entry = try XCTUnwrap(harness.queue.read { try SQLiteCatalog(db: $0).entry(for: "fake_0001") })
        XCTAssertEqual(entry.rowCount, 25)
        // --index on sync: built now, recorded in the plan, so the next full fetch keeps it.
        XCTAssertEqual(entry.plan?.mainTable.indexes, [PlanIndex(name: "idx_fake_0001_category", columns: ["category"])])
        XCTAssertEqual(try harness.value("SELECT count(*) FROM sqlite_schema WHERE name = 'idx_fake_0001_category'"), .integer(1))
        var refetch = try request(.rows)
        refetch.force = true
        try harness.load(refetch)
        XCTAssertEqual(try harness.value("SELECT count(*) FROM sqlite_schema WHERE name = 'idx_fake_0001_category'"), .integer(1))

        // Nothing new: nothing changes.
        let again = try loader.sync("fake_0001")
        XCTAssertEqual(again.inserted + again.updated, 0)
    }

    func testSyncStopsWhenTheColumnsChanged() throws {
        try harness.load(request(.rows))
        portal.update({ rows, columns in
            columns.removeAll { $0.fieldName == "active" }
            columns.append(.init("rating", "number"))
            columns[2] = .init("amount", "text")
        }, rowsUpdatedAt: FakePortalDataset.start + 200 * 86_400)
        let loader = DatasetLoader(destination: SQLiteDestination(queue: harness.queue), retry: LoadHarness.fastRetry)
        XCTAssertThrowsError(try loader.sync("fake_0001")) { error in
            XCTAssertEqual("\(error)", "the shape of fake_0001 changed upstream (column amount retyped: decimal -> text; "
                           + "column rating added (decimal); column active removed (was boolean)): "
                           + "--on-schema-change evolve keeps the table's columns; warn takes the new shape (fetch, load)")
            XCTAssertEqual((error as? LoadError)?.kind, .badData)
        }
        XCTAssertThrowsError(try loader.sync("fake_0001", schemaPolicy: .evolve)) { error in
            XCTAssertTrue("\(error)".contains("column amount retyped: decimal -> text; a sync cannot retype a column in place"),
                          "\(error)")
        }
        let fileHarness = try LoadHarness()
        let path = try fileHarness.file("t.json", Array(DatasetLoaderTests.tiny.utf8))
        try fileHarness.load(.file(path))
        XCTAssertThrowsError(try DatasetLoader(destination: SQLiteDestination(queue: fileHarness.queue)).sync("abcd_1234")) { error in
            XCTAssertEqual((error as? LoadError)?.kind, .usage)
        }
    }

    /// `evolve`: the table keeps its columns, gains the new one (filled in the synced rows),
    /// and the removed one is NULL in the synced rows; the changes are logged once.
    func testSyncEvolvesTheTableWhenAsked() throws {
        try harness.load(request(.rows))
        let before = try harness.value("SELECT count(*) FROM fake_0001")
        portal.update({ rows, columns in
            columns.removeAll { $0.fieldName == "active" }
            columns.append(.init("rating", "number"))
            for index in rows.indices.suffix(3) {
                rows[index].cells["rating"] = .number("4.5")
                rows[index].updatedAt += 300 * 86_400
            }
        }, rowsUpdatedAt: FakePortalDataset.start + 400 * 86_400)
        let loader = DatasetLoader(destination: SQLiteDestination(queue: harness.queue), retry: LoadHarness.fastRetry)
        let summary = try loader.sync("fake_0001", schemaPolicy: .evolve)
        XCTAssertEqual(summary.inserted + summary.updated, 3)
        XCTAssertEqual(summary.schemaChanges.map(\.kind), [.columnAdded, .columnRemoved])
        XCTAssertEqual(try harness.value("SELECT count(*) FROM fake_0001"), before)
        XCTAssertEqual(try harness.value("SELECT count(*) FROM fake_0001 WHERE rating = 4.5"), .integer(3))
        XCTAssertEqual(try harness.value("SELECT count(*) FROM fake_0001 WHERE active IS NULL"), .integer(3),
                       "the gone column stays, NULL in the synced rows")
        let logged = try harness.queue.read { try SQLiteCatalog(db: $0).schemaChanges(of: "fake_0001") }
        XCTAssertEqual(logged.map(\.change.kind), [.columnAdded, .columnRemoved])
        // Said once: the next sync keeps the same shape without a word.
        let again = try loader.sync("fake_0001", schemaPolicy: .evolve)
        XCTAssertEqual(again.schemaChanges, [])
    }
}
