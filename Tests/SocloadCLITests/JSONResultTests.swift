import Foundation
import SocloadTestSupport
import XCTest

/// `--json` on load, sync and extract (fetch and refresh have theirs in `ProjectRefreshTests`):
/// one object on standard output, what a pipeline acts on with jq, also when the command fails.
final class JSONResultTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func object(_ run: SocloadRun) throws -> [String: Any] {
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.stdout + run.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
    }

    func testLoadSyncAndExtractPrintOneObject() throws {
        let db = directory.path("json.sqlite")
        let document = directory.path("orders.ndjson")
        try Data(#"""
            {"id": 1, "agency": "Parks — é", "items": [{"sku": "a", "n": 2}, {"sku": "b", "n": 1}]}
            {"id": 2, "agency": "Parks — é", "items": [{"sku": "c", "n": 5}]}
            {"id": 3, "agency": "Water", "items": []}

            """#.utf8).write(to: URL(fileURLWithPath: document))
        let load = try object(try SocloadProcess.run(["load", document, "--table", "orders", "--pk", "id", "--json", "--db", db]))
        XCTAssertEqual(load["status"] as? String, "loaded")
        XCTAssertEqual(load["table"] as? String, "orders")
        XCTAssertEqual(load["rows"] as? Int, 3)
        XCTAssertEqual(load["child_tables"] as? [String: Int], ["orders_items": 3])

        let extract = try object(try SocloadProcess.run(["extract", "orders", "agency", "--json", "--db", db]))
        XCTAssertEqual(extract["status"] as? String, "extracted")
        XCTAssertEqual(extract["lookup"] as? String, "agency")
        XCTAssertEqual(extract["foreign_key"] as? String, "agency_id")

        let missing = try SocloadProcess.run(["load", directory.path("none.json"), "--json", "--db", db])
        XCTAssertEqual(missing.status, 66)
        let failed = try object(missing)
        XCTAssertEqual(failed["status"] as? String, "failed")
        XCTAssertEqual(failed["exit_code"] as? Int, 66)
        XCTAssertTrue((failed["error"] as? String ?? "").contains("none.json"), "\(failed)")

        let portal = try ProjectRefreshTests.portal("sync-0001", rows: 6)
        defer { portal.stop() }
        XCTAssertEqual(try SocloadProcess.run(["fetch", "sync-0001", "--domain", portal.baseURL, "--api", "soda2", "-q", "--db", db]).status, 0)
        portal.update({ rows, _ in
            rows.append(ProjectRefreshTests.row(7))
            rows[0].updatedAt += 100
            rows[0].cells["name"] = .text("changed")
        }, rowsUpdatedAt: 1_430_000_800)
        let sync = try object(try SocloadProcess.run(["sync", "sync_0001", "--json", "--db", db]))
        XCTAssertEqual(sync["status"] as? String, "synced", "\(sync)")
        XCTAssertEqual(sync["rows"] as? Int, 7)
        XCTAssertEqual(sync["added"] as? Int, 1)
        XCTAssertEqual(sync["changed"] as? Int, 1)
        let incremental = try object(try SocloadProcess.run(["fetch", "sync-0001", "--domain", portal.baseURL, "--incremental",
                                                             "--json", "--db", db]))
        XCTAssertEqual(incremental["status"] as? String, "synced")
        XCTAssertEqual(incremental["added"] as? Int, 0)
    }
}
