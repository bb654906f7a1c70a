import Foundation
import SocloadTestSupport
import XCTest

/// Keeping watch (issue 47) on loopback portals: a dataset that stops updating is `stale` by the
/// entry's `"expect"`, by what its portal states, or by the gaps its refresh log shows; one the
/// portal no longer has is `gone` (its table kept, the refresh not failing for it) or `moved`
/// (the catalog lists its name and publisher under another id); `--fail-on` exits 1.
final class WatchTests: XCTestCase {
    var directory: TemporaryDirectory!
    var catalog: LoopbackHTTPServer!
    var portals: [FakeSocrataPortal] = []
    let day = 86_400

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        catalog = try LoopbackHTTPServer()
        catalog.route("/api/catalog/v1", .init(body: Array(#"{"results": [], "resultSetSize": 0}"#.utf8)))
    }

    override func tearDown() {
        for portal in portals { portal.stop() }
        catalog.stop()
    }

    private var now: Int { Int(Date().timeIntervalSince1970) }

    private func portal(_ id: String, updatedSecondsAgo: Int, rows: Int = 3) throws -> FakeSocrataPortal {
        let portal = try FakeSocrataPortal(datasetID: id, columns: [.init("name", "text"), .init("amount", "number")],
                                           rows: (1...rows).map(ProjectRefreshTests.row), rowsUpdatedAt: now - updatedSecondsAgo)
        portals.append(portal)
        return portal
    }

    private func project(_ entries: [String], database: String = "w.sqlite") throws -> String {
        let path = directory.path("socload.json")
        let database = database.contains("://") ? database : database
        try Data((#"{"database": ""# + database + #"", "defaults": {"retries": 0}, "datasets": ["# + entries.joined(separator: ", ")
                  + "]}").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func entry(_ portal: FakeSocrataPortal, _ extra: String = "") -> String {
        #"{"id": ""# + portal.datasetID + #"", "domain": ""# + portal.baseURL + "\"" + extra + "}"
    }

    private func run(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments, environment: ["SOCLOAD_CATALOG": catalog.baseURL, "SOCLOAD_RETRY_DELAY": "0"],
                               directory: URL(fileURLWithPath: directory.path("")))
    }

    /// `status --format csv` as one dictionary a dataset, by column name.
    private func status(_ extra: [String] = [], expecting code: Int32 = 0) throws -> [String: [String: String]] {
        let run = try run(["status", "--format", "csv"] + extra)
        XCTAssertEqual(run.status, code, run.stdout + run.stderr)
        let lines = run.stdout.split(whereSeparator: \.isNewline).map { CSVLine.fields(String($0)) }
        guard let header = lines.first else { return [:] }
        XCTAssertEqual(header, ["dataset", "table", "state", "watch", "schema", "rows", "local_rows_updated_at", "portal_rows_updated_at",
                                "expect", "note"])
        return Dictionary(uniqueKeysWithValues: lines.dropFirst().map { fields in
            (fields[0], Dictionary(uniqueKeysWithValues: zip(header, fields)))
        })
    }

    private func reports(_ run: SocloadRun) throws -> [String: [String: Any]] {
        var byDataset: [String: [String: Any]] = [:]
        for line in run.stdout.split(whereSeparator: \.isNewline) {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            byDataset[object["dataset"] as? String ?? ""] = object
        }
        return byDataset
    }

    func testStaleByTheEntryTheStatedFrequencyOrNoneKnown() throws {
        let weekly = try portal("wtch-0001", updatedSecondsAgo: 30 * day)
        let hourly = try portal("wtch-0002", updatedSecondsAgo: 3_600)
        hourly.viewExtras = ["metadata": ["custom_fields": ["Refresh Frequency": ["Frequency": "hourly"], "Owner": ["Name": "IT"]]]]
        let monthly = try portal("wtch-0003", updatedSecondsAgo: 40 * day)
        monthly.viewExtras = ["description": "Permits issued by the city.\n\nUpdate Frequency: Monthly"]
        let silent = try portal("wtch-0004", updatedSecondsAgo: 400 * day)
        _ = try project([entry(weekly, #", "expect": "weekly""#), entry(hourly), entry(monthly), entry(silent)])

        let first = try run(["refresh"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("wtch-0001  wtch_0001: loaded 3 rows; stale: the portal last changed its rows "), first.stderr)
        XCTAssertTrue(first.stderr.contains("(30 days ago); expected weekly (project), stale after 11.5 days"), first.stderr)
        var rows = try status()
        XCTAssertEqual(rows["wtch-0001"]?["watch"], "stale")
        XCTAssertEqual(rows["wtch-0001"]?["state"], "unchanged", "unchanged and stale at once")
        XCTAssertEqual(rows["wtch-0001"]?["expect"], "weekly (project)")
        XCTAssertEqual(rows["wtch-0002"]?["watch"], "fresh")
        XCTAssertEqual(rows["wtch-0002"]?["expect"], "hourly (portal)")
        XCTAssertEqual(rows["wtch-0003"]?["watch"], "fresh", "40 days is within 1.5 months and a day")
        XCTAssertEqual(rows["wtch-0003"]?["expect"], "monthly (portal)")
        XCTAssertEqual(rows["wtch-0004"]?["watch"], "unknown")
        XCTAssertEqual(rows["wtch-0004"]?["expect"], "")

        // The portal stops updating: past 1.5 months and a day the monthly dataset is stale.
        monthly.update({ _, _ in }, rowsUpdatedAt: now - 50 * day)
        rows = try status()
        XCTAssertEqual(rows["wtch-0003"]?["watch"], "stale")
        XCTAssertEqual(rows["wtch-0003"]?["state"], "changed")

        // The closing table names a stale dataset even when it is up to date; --json has every watch.
        let second = try run(["refresh", "--json"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("wtch-0001  wtch_0001: up to date, 3 rows; stale: "), second.stderr)
        XCTAssertFalse(second.stderr.contains("wtch-0002  wtch_0002"), "a fresh dataset up to date is not listed")
        let objects = try reports(second)
        XCTAssertEqual(objects["wtch-0001"]?["watch"] as? String, "stale")
        XCTAssertEqual(objects["wtch-0001"]?["expect"] as? String, "weekly (project)")
        XCTAssertEqual(objects["wtch-0002"]?["watch"] as? String, "fresh")
        XCTAssertEqual(objects["wtch-0004"]?["watch"] as? String, "unknown")
        XCTAssertNotNil(objects["wtch-0003"]?["watch_note"] as? String)

        // --fail-on: a finding exits 1 (after the whole report), one not named 0; a bad word 64.
        _ = try status(["--fail-on", "gone,moved"])
        let failed = try run(["status", "--fail-on", "stale"])
        XCTAssertEqual(failed.status, 1, failed.stderr)
        XCTAssertTrue(failed.stdout.contains("wtch-0004"), "the whole table is printed first")
        XCTAssertTrue(failed.stderr.hasSuffix("Error: --fail-on found stale: wtch-0001, wtch-0003\n"), failed.stderr)
        let refreshFailed = try run(["refresh", "--fail-on", "stale,gone"])
        XCTAssertEqual(refreshFailed.status, 1, refreshFailed.stderr)
        // changed: rows or columns changed, not a table written again as it was.
        let rewritten = try run(["refresh", "--fail-on", "changed", "--force"])
        XCTAssertEqual(rewritten.status, 0, rewritten.stderr)
        hourly.update({ rows, _ in rows[0].cells["name"] = .text("Renamed") }, rowsUpdatedAt: now - 60)
        let changed = try run(["refresh", "--fail-on", "changed"])
        XCTAssertEqual(changed.status, 1, changed.stderr)
        XCTAssertTrue(changed.stderr.hasSuffix("Error: --fail-on found changed: wtch-0002\n"), changed.stderr)
        let bad = try run(["status", "--fail-on", "old"])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--fail-on takes stale, gone, moved and changed"), bad.stderr)
        XCTAssertEqual(try run(["status", "--fail-on", ""]).status, 64, "an empty list is no silent pass")

        // An "expect" that is no interval is the project file's error, named.
        _ = try project([entry(weekly, #", "expect": "sometimes""#)])
        let wrong = try run(["status"])
        XCTAssertEqual(wrong.status, 78, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("\"expect\" is 'sometimes', which is no update interval"), wrong.stderr)
        XCTAssertEqual(try run(["report"]).status, 78, "report reads the same project file")
        // A word among others is the portals' free text, not a project's interval.
        _ = try project([entry(weekly, #", "expect": "weekly, mostly""#)])
        XCTAssertEqual(try run(["status"]).status, 78)
        _ = try project([entry(weekly, #", "expect": """#)])
        XCTAssertTrue(try run(["status"]).stderr.contains("\"expect\" is empty"))
    }

    func testAGoneDatasetKeepsItsTableAndAMovedOneIsOnlySuggested() throws {
        let gone = try portal("gone-0001", updatedSecondsAgo: day)
        gone.viewExtras = ["attribution": "Department of Health", "name": "Restaurant Inspections"]
        let kept = try portal("kept-0001", updatedSecondsAgo: day)
        _ = try project([entry(gone, #", "expect": "daily""#), entry(kept)])
        XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0)

        gone.inject { _ in .init(status: 404, body: Array(#"{"code": "not_found", "message": "No such dataset"}"#.utf8)) }
        var rows = try status()
        XCTAssertEqual(rows["gone-0001"]?["watch"], "gone")
        XCTAssertEqual(rows["gone-0001"]?["table"], "gone_0001")
        XCTAssertEqual(rows["gone-0001"]?["rows"], "3")
        XCTAssertEqual(rows["gone-0001"]?["expect"], "daily (project)")
        XCTAssertEqual(rows["gone-0001"]?["note"], "the portal answers HTTP 404 Not Found; the table is kept")
        XCTAssertEqual(rows["kept-0001"]?["watch"], "unknown")

        let refresh = try run(["refresh", "--json"])
        XCTAssertEqual(refresh.status, 0, "a gone dataset does not fail the refresh: \(refresh.stderr)")
        XCTAssertTrue(refresh.stderr.contains("gone-0001  gone_0001: kept as it was, 3 rows; gone: the portal answers HTTP 404"),
                      refresh.stderr)
        let report = try XCTUnwrap(try reports(refresh)["gone-0001"])
        XCTAssertEqual(report["status"] as? String, "kept")
        XCTAssertEqual(report["watch"] as? String, "gone")
        XCTAssertEqual(report["rows"] as? Int, 3)
        let tables = try run(["tables", "--db", "w.sqlite", "--format", "csv"])
        XCTAssertTrue(tables.stdout.contains("gone_0001,3,"), tables.stdout)
        XCTAssertEqual(try run(["refresh", "--fail-on", "gone"]).status, 1)
        XCTAssertEqual(try run(["status", "--fail-on", "gone"]).status, 1)

        // 410 Gone is gone too; the catalog lists the same name and publisher under a new id
        // (and the same name from another publisher): moved, suggested, not followed.
        gone.inject { _ in .init(status: 410, body: Array(#"{"message": "Gone"}"#.utf8)) }
        let answer: [String: Any] = ["results": [
            ["resource": ["id": "gone-0001", "name": "Restaurant Inspections", "attribution": "Department of Health"]],
            ["resource": ["id": "newx-0001", "name": "Restaurant inspections ", "attribution": "Department of Health"]],
            ["resource": ["id": "othr-0001", "name": "Restaurant Inspections", "attribution": "Another Agency"]],
        ], "resultSetSize": 3]
        catalog.route("/api/catalog/v1", .init(body: Array(try JSONSerialization.data(withJSONObject: answer))))
        rows = try status()
        XCTAssertEqual(rows["gone-0001"]?["watch"], "moved")
        let note = try XCTUnwrap(rows["gone-0001"]?["note"])
        XCTAssertTrue(note.hasPrefix("the portal answers HTTP 410 Gone; the table is kept; the catalog lists the same name and publisher "
                                     + "as newx-0001 (not followed"), note)
        XCTAssertFalse(note.contains("othr-0001"), note)
        let asked = try XCTUnwrap(catalog.requests.last)
        XCTAssertEqual(asked.query["q"], "Restaurant Inspections")
        XCTAssertEqual(asked.query["domains"], "127.0.0.1")
        let moved = try run(["refresh", "--json", "--fail-on", "moved"])
        XCTAssertEqual(moved.status, 1, moved.stderr)
        let alsoGone = try run(["status", "--fail-on", "gone"])
        XCTAssertEqual(alsoGone.status, 1, "a moved dataset is gone too")
        XCTAssertTrue(alsoGone.stderr.hasSuffix("Error: --fail-on found gone: gone-0001\n"), alsoGone.stderr)
        XCTAssertEqual(try reports(moved)["gone-0001"]?["moved_to"] as? [String], ["newx-0001"])
        XCTAssertFalse(gone.server.requests.contains { $0.path.contains("newx-0001") }, "a suggestion is never followed")

        // A catalog that cannot be asked leaves it gone, saying so; an id never loaded that
        // answers 404 stays a failure (69).
        catalog.route("/api/catalog/v1", .init(status: 500, body: Array(#"{"error": "down"}"#.utf8)))
        rows = try status()
        XCTAssertEqual(rows["gone-0001"]?["watch"], "gone")
        XCTAssertTrue(rows["gone-0001"]?["note"]?.contains("the catalog could not be asked for where it went: HTTP 500") == true,
                      rows["gone-0001"]?["note"] ?? "")
        _ = try project([#"{"id": "nevr-0001", "domain": ""# + gone.baseURL + #""}"#])
        XCTAssertEqual(try run(["status"]).status, 69)
        XCTAssertEqual(try run(["refresh"]).status, 69)

        // Dropping the kept table drops the watch the refreshes recorded for it.
        XCTAssertTrue(try run(["query", "--db", "w.sqlite", "select table_name from _socload_watch"]).stdout.contains("gone_0001"))
        XCTAssertEqual(try run(["drop", "gone_0001", "--db", "w.sqlite"]).status, 0)
        XCTAssertFalse(try run(["query", "--db", "w.sqlite", "select table_name from _socload_watch"]).stdout.contains("gone_0001"))
    }

    func testTheRefreshLogTeachesTheIntervalAfterFourPortalUpdates() throws {
        let base = now - 200 * day
        let weekly = try portal("logd-0001", updatedSecondsAgo: 200 * day)
        _ = try project([entry(weekly)])
        for update in 0..<4 {
            weekly.update({ _, _ in }, rowsUpdatedAt: base + update * 7 * day)
            XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0)
            let recorded = try run(["query", "--db", "w.sqlite", "select checked_at, watch, note from _socload_watch"]).stdout
            sleep(1)
            // Refreshes that find nothing new teach nothing either, and write no watch again.
            XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0)
            XCTAssertEqual(try run(["query", "--db", "w.sqlite", "select checked_at, watch, note from _socload_watch"]).stdout, recorded,
                           "a watch judged as recorded keeps its row, and its time")
            let row = try XCTUnwrap(try status()["logd-0001"])
            if update < 3 {
                XCTAssertEqual(row["watch"], "unknown", "\(update + 1) portal updates are too few")
            } else {
                XCTAssertEqual(row["expect"], "about 7 days (log)")
                XCTAssertEqual(row["watch"], "stale", "the last update is 179 days old")
            }
        }
    }

    /// The same watch on PostgreSQL: gone keeps the table, stale by the entry.
    func testWatchOnPostgreSQL() throws {
        let database = try TestPostgreSQL.makeDatabase()
        let stale = try portal("pgwt-0001", updatedSecondsAgo: 10 * day)
        let gone = try portal("pgwt-0002", updatedSecondsAgo: day)
        _ = try project([entry(stale, #", "expect": "P2D""#), entry(gone)], database: database.url)
        let first = try run(["refresh", "--quiet"])
        XCTAssertEqual(first.status, 0, first.stderr)
        gone.inject { _ in .init(status: 404, body: Array(#"{"message": "No such dataset"}"#.utf8)) }
        let rows = try status()
        XCTAssertEqual(rows["pgwt-0001"]?["watch"], "stale")
        XCTAssertEqual(rows["pgwt-0001"]?["expect"], "P2D (project)")
        XCTAssertEqual(rows["pgwt-0002"]?["watch"], "gone")
        let refresh = try run(["refresh", "--json"])
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertEqual(try reports(refresh)["pgwt-0002"]?["status"] as? String, "kept")
        XCTAssertEqual(try database.connect().execute("SELECT count(*) FROM pgwt_0002").rows.first?.first ?? nil, "3")
        XCTAssertEqual(try database.connect().execute("SELECT count(*) FROM _socload_watch").rows.first?.first ?? nil, "2")
        XCTAssertEqual(try run(["drop", "pgwt_0002", "--db", database.url]).status, 0)
        XCTAssertEqual(try database.connect().execute("SELECT count(*) FROM _socload_watch").rows.first?.first ?? nil, "1",
                       "the dropped table's watch goes with it")
    }
}
