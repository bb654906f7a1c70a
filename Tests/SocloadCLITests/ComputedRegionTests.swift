import Foundation
import SocloadTestSupport
import XCTest

/// Computed regions (`:@computed_region_*`, the region a row's point falls in) are data: every
/// path loads them as ordinary columns named without the `:@`, typed from the description, in
/// SQLite and PostgreSQL alike; only the real system fields (`:id`, `:created_at`, ...) are not.
final class ComputedRegionTests: XCTestCase {
    static let region = ":@computed_region_k83t_ady5"
    var directory: TemporaryDirectory!
    var portal: FakeSocrataPortal!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let rows = (1...9).map { index -> FakeSocrataPortal.Row in
            var cells: [String: FakeSocrataPortal.Cell] = ["name": .text("quake \(index)"), "depth": .number("\(600 + index).5")]
            if index % 3 != 0 { cells[Self.region] = .number("\(20_000 + index)") } // absent: null, as SODA leaves it out
            return .init(id: "row-\(index)", createdAt: 1_420_070_400, updatedAt: 1_420_070_400, cells: cells)
        }
        portal = try FakeSocrataPortal(datasetID: "quak-0001", columns: [.init("name", "text"), .init("depth", "number"),
                                                                         .init(Self.region, "number")],
                                       rows: rows, rowsUpdatedAt: 1_430_000_000)
        portal.requiredAppToken = "token-1"
    }

    override func tearDown() {
        portal.stop()
    }

    private func succeed(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> SocloadRun {
        let result = try SocloadProcess.run(arguments, environment: ["SOCLOAD_RETRY_DELAY": "0.01", "SOCRATA_APP_TOKEN": "token-1"])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result
    }

    private func csv(_ sql: String, db: String) throws -> [String] {
        try succeed(["query", sql, "--format", "csv", "--db", db]).stdout.split(whereSeparator: \.isNewline).map(String.init)
    }

    static let expected = ["name,depth,computed_region_k83t_ady5"] + (1...9).map { index in
        "quake \(index),\(600 + index).5," + (index % 3 == 0 ? "" : "\(20_000 + index)")
    }

    func testEveryAPIAndASavedPageLoadTheRegionAsAColumn() throws {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        let page = directory.path("page.json")
        try Data(portal.soda2PageBody(offset: 0, limit: 100)).write(to: URL(fileURLWithPath: page))
        let view = "\(portal.baseURL)/api/views/quak-0001.json"
        for db in [directory.path("regions.sqlite"), postgreSQL.url] {
            for api in ["rows", "soda2", "soda3"] {
                let table = "via_" + api
                let load = try succeed(["fetch", "quak-0001", "--domain", portal.baseURL, "--api", api, "--table", table, "--db", db])
                XCTAssertTrue(load.stderr.contains("Loaded 9 rows into \(table) (6 columns)"), "\(api) \(db): \(load.stderr)")
                XCTAssertEqual(try csv("SELECT name, depth, computed_region_k83t_ady5 FROM \(table) ORDER BY name", db: db),
                               Self.expected, "\(api) into \(db)")
            }
            let saved = try succeed(["load", page, "--metadata", view, "--table", "saved", "--db", db])
            XCTAssertTrue(saved.stderr.hasPrefix("Loaded 9 rows into saved (6 columns)"), saved.stderr)
            XCTAssertEqual(try csv("SELECT name, depth, computed_region_k83t_ady5 FROM saved ORDER BY name", db: db), Self.expected)
            // Typed from the description (a number), in every table alike.
            for table in ["via_rows", "via_soda2", "via_soda3", "saved"] {
                let schema = try succeed(["schema", table, "--format", "csv", "--db", db]).stdout
                XCTAssertTrue(schema.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("computed_region_k83t_ady5,")
                    && $0.hasSuffix(",decimal") }, "\(table) in \(db): \(schema)")
            }
        }
        // --dry-run lists it with its source field.
        let plan = try succeed(["fetch", "quak-0001", "--domain", portal.baseURL, "--dry-run", "--db", directory.path("dry.sqlite")])
        XCTAssertTrue(plan.stdout.contains("computed_region_k83t_ady5"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains(Self.region), plan.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("dry.sqlite")))
    }

    func testTheRealDescriptionsRegionIsAColumnOfTheRealPage() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        let page = shared.appendingPathComponent("soda.demo.socrata.com__4tka-6guv__resource-v2.json").path
        let view = shared.appendingPathComponent("soda.demo.socrata.com__4tka-6guv__views.json").path
        let db = directory.path("quakes.sqlite")
        let load = try succeed(["load", page, "--metadata", view, "--table", "quakes", "--db", db])
        // 8 columns the description lists, a location being 3, and the region: 11.
        XCTAssertTrue(load.stderr.hasPrefix("Loaded 1 row into quakes (11 columns)"), load.stderr)
        XCTAssertEqual(try csv("SELECT earthquake_id, depth, computed_region_k83t_ady5 FROM quakes", db: db),
                       ["earthquake_id,depth,computed_region_k83t_ady5", "usb000qd0j,635.78,"])
        let dictionary = try succeed(["info", "quakes", "--dictionary", "--format", "csv", "--db", db]).stdout
        XCTAssertTrue(dictionary.contains("computed_region_k83t_ady5,decimal,\(Self.region),Zip Codes,number"), dictionary)
        // The load knows the dataset it holds, and that one row of it is not the dataset.
        let info = try succeed(["info", "quakes", "--format", "json", "--db", db]).stdout
        XCTAssertTrue(info.contains("\"dataset_id\":\"4tka-6guv\""), info)
        let verify = try SocloadProcess.run(["verify", "quakes", "--db", db])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stderr.hasPrefix("Not comparable: quakes is not comparable with the portal's statistics: the document holds 1 row, the description counts"),
                      verify.stderr)
    }

    /// Without a description the region is named the same way (its type inferred from the values).
    func testAPageWithoutItsDescriptionNamesTheRegionTheSame() throws {
        let page = directory.path("page.json")
        try Data(#"[{"name": "a", ":@computed_region_k83t_ady5": "12345"}]"#.utf8).write(to: URL(fileURLWithPath: page))
        let db = directory.path("plain.sqlite")
        _ = try succeed(["load", page, "--table", "p", "--db", db])
        XCTAssertEqual(try csv("SELECT computed_region_k83t_ady5 FROM p", db: db), ["computed_region_k83t_ady5", "12345"])
    }
}
