import Foundation
import SocloadTestSupport
import XCTest

/// A whole portal mirrored through a catalog-search entry, at a size CI affords (300 datasets,
/// sizes drawn as real portals have them, scaled down): every row count right on the first
/// mirror; a no-op nightly refresh settled from the catalog's `data_updated_at` without one
/// request to a dataset (or from the descriptions, one each, when the catalog does not give
/// it); a refresh after 5% changed loads exactly those, their counts right, through faulty
/// pages. SQLite and PostgreSQL. The times are `make bench`'s.
final class PortalMirrorTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func writeProject(portal: SimulatedPortal, database: String) throws {
        let project = #"""
            {"database": "\#(database)", "datasets": [
              {"search": {"domain": "\#(portal.baseURL)", "catalog": "\#(portal.baseURL)"}, "name": "portal",
               "options": {"retries": 4, "page-size": 1000}}]}
            """#
        try Data(project.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
    }

    private func refresh(_ extra: [String] = []) throws -> SocloadRun {
        try SocloadProcess.run(["refresh", "--jobs", "4"] + extra, environment: ["SOCLOAD_RETRY_DELAY": "0"],
                               directory: URL(fileURLWithPath: directory.path("")))
    }

    /// table → rows, as `socload tables` lists them.
    private func tables(_ db: String) throws -> [String: Int] {
        let run = try SocloadProcess.run(["tables", "--db", db, "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        var counts: [String: Int] = [:]
        for line in run.stdout.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",")
            counts[String(fields[0])] = Int(fields[1])
        }
        return counts
    }

    private func expectedTables(_ portal: SimulatedPortal) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: portal.datasets.map { ($0.id.replacingOccurrences(of: "-", with: "_"), $0.rowCount) })
    }

    func testAWholePortalMirroredThenRefreshedNightly() throws {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        for database in [directory.path("portal.sqlite"), postgreSQL.url] {
            let portal = try SimulatedPortal(count: 300, scale: 0.02)
            defer { portal.stop() }
            try writeProject(portal: portal, database: database)
            let first = try refresh(["--quiet"])
            XCTAssertEqual(first.status, 0, String(first.stderr.suffix(2_000)))
            XCTAssertEqual(try tables(database), expectedTables(portal), "every dataset, every row")

            // Nothing changed: settled from the catalog, not one request to a dataset.
            let before = portal.stats()
            let quiet = try refresh()
            XCTAssertEqual(quiet.status, 0, quiet.stderr)
            XCTAssertEqual(quiet.stderr, "  all 300 datasets are up to date (--verbose lists them)\n", "one line, not one a dataset")
            let after = portal.stats()
            XCTAssertEqual(after["views"], before["views"], "no description was asked for")
            XCTAssertEqual(after["pages"], before["pages"])
            XCTAssertEqual(after["catalog"].map { $0 - (before["catalog"] ?? 0) }, 3, "one catalog request per 100 datasets")

            // 5% changed, and the pages of those fail first (500, 429, cut, slow), twice each:
            // exactly the changed ones load, each one row added and one changed.
            let changedIDs = portal.change(fraction: 0.05, seed: 7)
            let changed = Set(changedIDs)
            portal.slowSeconds = 0.2
            portal.arm(changedIDs)
            let faultsBefore = portal.stats()["faults"] ?? 0
            let nightly = try refresh(["--json"])
            // (A slow page is slow once, and arrives.)
            let slow = changedIDs.indices.filter { SimulatedPortal.Fault.allCases[$0 % 4] == .slow }.count
            XCTAssertEqual((portal.stats()["faults"] ?? 0) - faultsBefore, 2 * changed.count - slow, "every fault was met and retried")
            XCTAssertEqual(nightly.status, 0, String(nightly.stderr.suffix(2_000)))
            let reports = try nightly.stdout.split(separator: "\n").map { line in
                try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            let loaded = reports.filter { $0["status"] as? String == "loaded" }
            XCTAssertEqual(Set(loaded.compactMap { $0["dataset"] as? String }), changed)
            for report in loaded {
                XCTAssertEqual(report["added"] as? Int, 1, "\(report)")
                XCTAssertEqual(report["changed"] as? Int, 1, "\(report)")
                XCTAssertEqual(report["removed"] as? Int, 0, "\(report)")
            }
            XCTAssertEqual(try tables(database), expectedTables(portal))
            let verified = try SocloadProcess.run(["verify", "--locked"], directory: URL(fileURLWithPath: directory.path("")))
            XCTAssertEqual(verified.status, 0, String(verified.stdout.suffix(1_000)))
        }
    }

    func testWithoutTheCatalogsDateEachDatasetCostsItsDescriptionOnly() throws {
        let portal = try SimulatedPortal(count: 120, scale: 0.01, catalogGivesDataUpdatedAt: false)
        defer { portal.stop() }
        let db = directory.path("described.sqlite")
        try writeProject(portal: portal, database: db)
        XCTAssertEqual(try refresh(["--quiet"]).status, 0)
        let before = portal.stats()
        let again = try refresh(["--quiet"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let after = portal.stats()
        XCTAssertEqual((after["views"] ?? 0) - (before["views"] ?? 0), 120, "one description a dataset")
        XCTAssertEqual(after["pages"], before["pages"], "no page of an unchanged dataset")
    }
}
