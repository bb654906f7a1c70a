import Foundation
import SocloadTestSupport
import XCTest

/// A dataset loaded through SODA3, SODA 2.1 and rows.json gives one table — columns, types and
/// every value — on SQLite and on PostgreSQL: generated rows of every type the fake portal
/// renders each API's way, and the real SODA3 and SODA 2.1 recordings of one Chicago dataset.
final class SameTableEveryAPITests: XCTestCase {
    var directory: TemporaryDirectory!
    /// The PostgreSQL databases made for the test (dropped with them).
    var postgreSQL: [TestPostgreSQL.TestDatabase] = []

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    /// The databases a test loads into: a SQLite file, and a PostgreSQL database.
    private func databases(_ name: String) throws -> [String] {
        let database = try TestPostgreSQL.makeDatabase()
        postgreSQL.append(database)
        return [directory.path("\(name).sqlite"), database.url]
    }

    /// The table as `query` prints it, every column in the table's order, by `_id` then every column.
    private func dump(_ table: String, db: String, order: String) throws -> String {
        let run = try SocloadProcess.run(["query", "select * from \(table) order by \(order)", "--db", db, "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    private func columns(_ table: String, db: String) throws -> String {
        let run = try SocloadProcess.run(["info", table, "--columns", "--format", "csv", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    static func everyTypeRow(_ index: Int) -> FakeSocrataPortal.Row {
        var cells: [String: FakeSocrataPortal.Cell] = [
            "name": .text(index == 3 ? "O'Hare — ünïcode \"quoted\"" : "Name \(index)"),
            "amount": .number(index % 4 == 0 ? "\(index * 1000)" : "-\(index).125"),
            "ratio": .number("0.\(index)5"),
            "price": .number("\(index)99.99"),
            "share": .number("\(index % 100)"),
            "flag": .checkbox(index % 2 == 0),
            "opened": .calendarDate("2016-0\(1 + index % 9)-1\(index % 10)T12:30:00"),
            "closed": .timestamp(1_450_000_000 + index * 86_400),
        ]
        if index % 5 != 0 {
            cells["site"] = .location(address: "{\"address\": \"\(index) Main St\", \"city\": \"Chicago\"}",
                                      latitude: "41.\(800 + index)", longitude: "-87.\(600 + index)")
            cells["spot"] = .point(longitude: "-87.\(600 + index)", latitude: "41.\(800 + index)")
            cells["link"] = .url("https://example.org/\(index)", description: index % 3 == 0 ? nil : "Page \(index)")
            cells["route"] = .shape(wkt: "LINESTRING (-87.6 41.8, -87.\(600 + index) 41.\(800 + index))",
                                    geoJSON: "{\"type\":\"LineString\",\"coordinates\":[[-87.6,41.8],[-87.\(600 + index),41.\(800 + index)]]}")
            cells["area"] = .shape(wkt: "MULTIPOLYGON (((-87.6 41.8, -87.5 41.8, -87.5 41.9, -87.6 41.8)))",
                                   geoJSON: "{\"type\":\"MultiPolygon\",\"coordinates\":[[[[-87.6,41.8],[-87.5,41.8],[-87.5,41.9],[-87.6,41.8]]]]}")
        }
        return .init(id: "row-\(String(format: "%03d", index))", createdAt: 1_440_000_000 + index,
                     updatedAt: 1_440_000_000 + index * 60, cells: cells)
    }

    /// Every type the portal renders differently per API, NULLs included, through the three
    /// APIs, in pages of 7 (paged by key), into SQLite and PostgreSQL: one table each time.
    func testEveryTypeThroughEveryAPIGivesOneTableOnBothDatabases() throws {
        let portal = try FakeSocrataPortal(datasetID: "same-0001", columns: [
            .init("name", "text"), .init("amount", "number"), .init("ratio", "double"), .init("price", "money"),
            .init("share", "percent"), .init("flag", "checkbox"), .init("opened", "calendar_date"), .init("closed", "date"),
            .init("site", "location"), .init("spot", "point"), .init("link", "url"), .init("route", "line"),
            .init("area", "multipolygon"),
        ], rows: (1...30).map(Self.everyTypeRow), rowsUpdatedAt: 1_450_000_000)
        defer { portal.stop() }
        portal.requiredAppToken = "t"
        for db in try databases("every") {
            var dumps: [String: String] = [:]
            var schemas: [String: String] = [:]
            for api in ["rows", "soda2", "soda3"] {
                let table = "same_\(api)"
                let run = try SocloadProcess.run(["fetch", "same-0001", "--domain", portal.baseURL, "--api", api, "--table", table,
                                                  "--page-size", "7", "--db", db], environment: ["SOCRATA_APP_TOKEN": "t"])
                XCTAssertEqual(run.status, 0, run.stderr)
                // (A test database without PostGIS says its geometries stay text, the same for every API.)
                let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Warning") && !$0.contains("no PostGIS") }
                XCTAssertEqual(warnings, [], "\(api): \(run.stderr)")
                dumps[api] = try dump(table, db: db, order: "_id")
                schemas[api] = try columns(table, db: db).replacingOccurrences(of: table, with: "T")
            }
            XCTAssertTrue(dumps["rows"]?.contains("O'Hare — ünïcode") == true)
            // A table rows.json loaded (every table before auto read the query APIs) is up to date
            // for auto, and, refreshed by auto through SODA3, nothing in it changes.
            let auto = ["fetch", "same-0001", "--domain", portal.baseURL, "--table", "same_rows", "--db", db]
            let upToDate = try SocloadProcess.run(auto, environment: ["SOCRATA_APP_TOKEN": "t"])
            XCTAssertEqual(upToDate.status, 0, upToDate.stderr)
            XCTAssertTrue(upToDate.stderr.hasPrefix("same_rows is up to date (30 rows"), upToDate.stderr)
            let refreshed = try SocloadProcess.run(auto + ["--force"], environment: ["SOCRATA_APP_TOKEN": "t"])
            XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
            XCTAssertTrue(refreshed.stderr.contains(" through SODA3 in "), refreshed.stderr)
            XCTAssertTrue(refreshed.stderr.contains("0 added, 0 changed, 0 removed, 30 unchanged"), "\(db): \(refreshed.stderr)")
            XCTAssertEqual(try dump("same_rows", db: db, order: "_id"), dumps["rows"])
            for api in ["soda2", "soda3"] {
                XCTAssertEqual(dumps[api], dumps["rows"], "\(api) against rows.json on \(db)")
                XCTAssertEqual(schemas[api], schemas["rows"], "\(api) against rows.json on \(db)")
            }
        }
    }

    /// Chicago's Landmark Districts as its portal answered SODA3 and SODA 2.1 (the recordings in
    /// ../shared/datasets, headers included): one table, on SQLite and PostgreSQL. They answered
    /// `SELECT *` (no system fields), so the loads ask the same (`--select "*"`).
    func testTheRecordedSODA3AndSODA2AnswersGiveOneTable() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        func recorded(_ name: String) throws -> LoopbackHTTPServer.Response {
            let body = try Array(Data(contentsOf: shared.appendingPathComponent("data.cityofchicago.org__zidz-sdfj__\(name).json")))
            var headers: [(String, String)] = [("Content-Type", "application/json")]
            let headerFile = shared.appendingPathComponent("data.cityofchicago.org__zidz-sdfj__\(name).headers.json")
            if let data = try? Data(contentsOf: headerFile), let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] {
                let recordedHeaders = (object["headers"] as? [String: Any]) ?? object
                headers = recordedHeaders.compactMap { key, value in
                    guard let text = value as? String, key.lowercased().hasPrefix("x-soda2") else { return nil }
                    return (key, text)
                } + headers
            }
            return .init(headers: headers, body: body)
        }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/views/zidz-sdfj.json", try recorded("views"))
        server.route("/resource/zidz-sdfj.json", try recorded("resource-v2"))
        server.route("/api/v3/views/zidz-sdfj/query.json", try recorded("query-v3"))
        for db in try databases("recorded") {
            var dumps: [String] = []
            for api in ["soda2", "soda3"] {
                let run = try SocloadProcess.run(["fetch", "zidz-sdfj", "--domain", server.baseURL, "--api", api, "--table", "l_\(api)",
                                                  "--select", "*", "--db", db], environment: ["SOCRATA_APP_TOKEN": "t"])
                XCTAssertEqual(run.status, 0, run.stderr)
                XCTAssertTrue(run.stderr.hasPrefix("Loaded 10 rows into l_\(api) "), run.stderr)
                dumps.append(try dump("l_\(api)", db: db, order: "district_name"))
            }
            XCTAssertEqual(dumps[0], dumps[1], db)
            XCTAssertTrue(dumps[0].contains(#""designation_date":"1977-09-28T07:00:00Z""#), dumps[0])
        }
    }
}
