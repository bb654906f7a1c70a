import Foundation
import SocloadTestSupport
import XCTest

/// Big datasets kept by sync in a nightly refresh: `"incremental": true` or `"incremental-above":
/// ROWS` syncs a table loaded before by `:updated_at`; a first load is whole, and so is a
/// refresh after the dataset's shape changed (said in a warning).
final class IncrementalRefreshTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portals: [FakeSocrataPortal] = []

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        portals = [try ProjectRefreshTests.portal("incr-0001", rows: 40), try ProjectRefreshTests.portal("incr-0002", rows: 8)]
    }

    override func tearDown() {
        for portal in portals { portal.stop() }
    }

    private func refresh() throws -> (SocloadRun, [String: [String: Any]]) {
        let run = try SocloadProcess.run(["refresh", "--json"], directory: URL(fileURLWithPath: directory.path("")))
        var reports: [String: [String: Any]] = [:]
        for line in run.stdout.split(separator: "\n") {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            reports[object["dataset"] as? String ?? ""] = object
        }
        return (run, reports)
    }

    func testBigTablesAreSyncedAndSmallOnesReloaded() throws {
        let entries = portals.enumerated().map { index, portal in
            #"{"id": "incr-000\#(index + 1)", "domain": "\#(portal.baseURL)", "name": "d\#(index + 1)"}"#
        }
        let project = #"{"database": "incr.sqlite", "defaults": {"incremental-above": 20}, "datasets": [\#(entries.joined(separator: ", "))]}"#
        try Data(project.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
        // The first refresh loads both whole.
        let (first, loaded) = try refresh()
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(loaded["d1"]?["status"] as? String, "loaded")
        XCTAssertEqual(loaded["d2"]?["status"] as? String, "loaded")

        for portal in portals {
            portal.update({ rows, _ in
                rows[0].cells["amount"] = .number("999.25")
                rows[0].updatedAt += 100_000
                rows.append(ProjectRefreshTests.row(500))
                rows[rows.count - 1].updatedAt += 200_000
            }, rowsUpdatedAt: 1_430_000_500)
        }
        // 40 rows > 20: synced (the changed and the new row asked for); 8 rows: reloaded whole.
        let (second, changed) = try refresh()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(changed["d1"]?["status"] as? String, "synced", "\(changed)")
        XCTAssertEqual(changed["d1"]?["added"] as? Int, 1, "\(changed)")
        XCTAssertEqual(changed["d1"]?["changed"] as? Int, 1, "\(changed)")
        XCTAssertEqual(changed["d2"]?["status"] as? String, "loaded", "\(changed)")
        XCTAssertEqual(changed["d2"]?["added"] as? Int, 1, "\(changed)")
        let pages = portals[0].server.requests.filter { $0.route.hasPrefix("/resource/") }.last
        XCTAssertTrue(pages?.path.removingPercentEncoding?.contains(":updated_at >") == true, pages?.path ?? "no page")
        let rows = try SocloadProcess.run(["query", "select count(*) as n, sum(amount) as total from incr_0001", "--db",
                                           directory.path("incr.sqlite"), "--format", "csv"])
        XCTAssertEqual(rows.stdout.split(whereSeparator: \.isNewline).last, "41,2328.25", rows.stderr)

        // A new column: the sync cannot take it, so the table is reloaded whole (and says so).
        portals[0].update({ rows, columns in
            columns.append(.init("extra", "text"))
            for index in rows.indices { rows[index].cells["extra"] = .text("x") }
        }, rowsUpdatedAt: 1_430_000_900)
        let (third, reshaped) = try refresh()
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(reshaped["d1"]?["status"] as? String, "loaded", "\(reshaped)")
        XCTAssertTrue(third.stderr.contains("Warning: incr_0001 cannot be synced ("), third.stderr)
        XCTAssertTrue(third.stderr.contains("so it is reloaded whole"), third.stderr)
        let columns = try SocloadProcess.run(["query", "select count(extra) as n from incr_0001", "--db", directory.path("incr.sqlite"),
                                              "--format", "csv"])
        XCTAssertEqual(columns.stdout.split(whereSeparator: \.isNewline).last, "41", columns.stderr)
    }
}
