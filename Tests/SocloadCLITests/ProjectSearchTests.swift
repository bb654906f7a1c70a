import Foundation
import SocloadTestSupport
import XCTest

/// Project entries that name a catalog search: every dataset the loopback catalog lists is
/// refreshed (tables named by id), one that leaves the catalog is reported and kept, a catalog
/// that fails fails that entry alone, and `--locked` loads what the lock recorded for it.
final class ProjectSearchTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portals: [FakeSocrataPortal] = []
    var catalog: LoopbackHTTPServer!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        portals = try ["srch-0001", "srch-0002", "srch-0003"].enumerated().map { index, id in
            try ProjectRefreshTests.portal(id, rows: 5 + index)
        }
        catalog = try LoopbackHTTPServer()
    }

    override func tearDown() {
        for portal in portals { portal.stop() }
        catalog.stop()
    }

    /// A Discovery API answer listing `portals[indexes]`, each on its own loopback portal, and a map
    /// (not a dataset: skipped).
    private func list(_ indexes: [Int]) throws {
        var results: [[String: Any]] = indexes.map { index in
            ["resource": ["id": "srch-000\(index + 1)", "name": "Dataset \(index + 1)", "type": "dataset",
                          "columns_field_name": ["name", "amount"]],
             "metadata": ["domain": portals[index].baseURL]]
        }
        results.append(["resource": ["id": "mapp-0001", "name": "A map", "type": "map"], "metadata": ["domain": "example.org"]])
        let body = try JSONSerialization.data(withJSONObject: ["results": results, "resultSetSize": results.count])
        catalog.route("/api/catalog/v1", .init(body: Array(body)))
    }

    private func run(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments, environment: ["SOCLOAD_CATALOG": catalog.baseURL, "SOCLOAD_RETRY_DELAY": "0"],
                               directory: URL(fileURLWithPath: directory.path("")))
    }

    private func writeProject() throws {
        let project = #"""
            {"database": "search.sqlite", "defaults": {"retries": 0},
             "datasets": [{"search": {"domain": "data.example.org", "category": "Transportation", "q": "bus"},
                           "options": {"index": ["amount"]}, "name": "transport"}]}
            """#
        try Data(project.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
    }

    func testASearchEntryKeepsEveryListedDatasetFreshAndReportsTheOnesThatLeft() throws {
        try writeProject()
        try list([0, 1, 2])
        let first = try run(["refresh"])
        XCTAssertEqual(first.status, 0, first.stderr)
        for (index, rows) in [5, 6, 7].enumerated() {
            XCTAssertTrue(first.stderr.contains("srch-000\(index + 1)  srch_000\(index + 1): loaded \(rows) rows"), first.stderr)
        }
        XCTAssertFalse(first.stderr.contains("mapp-0001"), "only datasets are loaded:\n\(first.stderr)")
        let asked = try XCTUnwrap(catalog.requests.first)
        XCTAssertEqual(asked.query["domains"], "data.example.org")
        XCTAssertEqual(asked.query["domain_category"], "Transportation")
        XCTAssertEqual(asked.query["q"], "bus")
        let indexes = try run(["query", "select name from sqlite_master where type = 'index' and tbl_name = 'srch_0002'",
                               "--db", directory.path("search.sqlite"), "--format", "csv"])
        XCTAssertTrue(indexes.stdout.contains("amount"), "the entry's options apply: \(indexes.stdout)")
        let lock = try String(contentsOfFile: directory.path("socload.lock"), encoding: .utf8)
        XCTAssertEqual(lock.components(separatedBy: "\"search\" : \"transport\"").count, 4, lock)

        // One leaves the catalog: reported, kept, still locked.
        try list([0, 2])
        let second = try run(["refresh", "--json"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("srch-0002  srch_0002: no longer listed by search 'transport': kept as it was "
                                             + "(socload drop srch_0002 removes it)"), second.stderr)
        XCTAssertTrue(second.stdout.contains(#""status":"left_catalog""#), second.stdout)
        XCTAssertTrue(try run(["tables", "--db", directory.path("search.sqlite")]).stdout.contains("srch_0002"))
        XCTAssertTrue(try String(contentsOfFile: directory.path("socload.lock"), encoding: .utf8).contains("\"srch-0002\""))
        let status = try run(["status", "--format", "csv"])
        XCTAssertTrue(status.stdout.contains("srch-0002,srch_0002,left_catalog"), status.stdout)

        // By name: the search's datasets, or one of them by its id.
        let one = try run(["refresh", "srch-0003", "--verbose"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stderr.contains("srch_0003: up to date"), one.stderr)
        XCTAssertFalse(one.stderr.contains("srch_0001"), one.stderr)

        // The catalog fails: that entry fails, nothing else changes.
        catalog.route("/api/catalog/v1", .init(status: 500, body: Array(#"{"error": "down"}"#.utf8)))
        let down = try run(["refresh", "transport"])
        XCTAssertEqual(down.status, 69, down.stderr)
        XCTAssertTrue(down.stderr.contains("  transport  failed (exit 69): "), down.stderr)
        // --locked asks no catalog: the lock says which datasets the build has.
        let locked = try run(["refresh", "--locked", "--verbose"])
        XCTAssertEqual(locked.status, 0, locked.stderr)
        XCTAssertTrue(locked.stderr.contains("srch_0002: at the locked version, 6 rows"), locked.stderr)
    }

    func testABrokenSearchEntrySaysWhere() throws {
        for (entry, message) in [
            (#"{"search": {"domian": "x"}}"#, #"dataset 1, key "search.domian" is not a key of a search"#),
            (#"{"search": {}, "name": "s"}"#, "says nothing to look for"),
            (#"{"search": {"q": "bus"}, "options": {"table": "t"}}"#, #"key "options.table" names one dataset"#),
            (#"{"search": {"q": "bus"}, "options": {"page-sise": 5}}"#, #"key "page-sise" is not an option of fetch"#),
            (#"{"search": {"q": "bus"}, "limit": 5}"#, #"key "limit" is not a key of a search entry"#),
        ] {
            try Data(#"{"database": "s.sqlite", "datasets": [\#(entry)]}"#.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
            let broken = try run(["refresh"])
            XCTAssertEqual(broken.status, 78, broken.stderr)
            XCTAssertTrue(broken.stderr.contains(message), "\(entry): \(broken.stderr)")
        }
    }
}
