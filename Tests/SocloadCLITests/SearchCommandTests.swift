import Foundation
import SocloadTestSupport
import XCTest

/// `socload search` against the real recorded Discovery API answers in ../shared/datasets,
/// served by a loopback catalog: the query it asks, what it prints, and a catalog that fails.
final class SearchCommandTests: XCTestCase {
    private func recorded(_ name: String) throws -> [UInt8] {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is not beside the project") }
        let url = shared.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("\(name) is not in ../shared/datasets") }
        return Array(try Data(contentsOf: url))
    }

    func testAPageOfTheCatalogIsPrintedWithTheQueryAsked() throws {
        let body = try recorded("catalog.api.us.socrata.com__v1-086e69.json")
        let catalog = try LoopbackHTTPServer()
        defer { catalog.stop() }
        catalog.route("/api/catalog/v1", .init(body: body))
        let run = try SocloadProcess.run(["search", "bus", "delays", "--domain", "data.cityofnewyork.us", "--category", "Transportation",
                                          "--limit", "10", "--format", "csv"], environment: ["SOCLOAD_CATALOG": catalog.baseURL])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(whereSeparator: \.isNewline).map { CSVLine.fields(String($0)) }
        XCTAssertEqual(lines.first, ["id", "name", "type", "data_updated_at", "columns", "domain", "page"])
        XCTAssertEqual(lines.count, 11)
        XCTAssertEqual(lines[1], ["ez4e-fazm", "Bus Breakdown and Delays", "dataset", "2025-08-25T10:35:42.000Z", lines[1][4],
                                  "data.cityofnewyork.us", "https://data.cityofnewyork.us/d/ez4e-fazm"])
        let request = try XCTUnwrap(catalog.requests.first)
        XCTAssertEqual(request.route, "/api/catalog/v1")
        XCTAssertEqual(request.query["q"], "bus delays")
        XCTAssertEqual(request.query["domains"], "data.cityofnewyork.us")
        XCTAssertEqual(request.query["domain_category"], "Transportation")
        XCTAssertNil(request.query["categories"])
        XCTAssertEqual(request.query["limit"], "10")

        // The column count is the columns a load makes: computed regions count, system fields do not.
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let first = try XCTUnwrap((root["results"] as? [[String: Any]])?.first?["resource"] as? [String: Any])
        let fields = try XCTUnwrap(first["columns_field_name"] as? [String])
        XCTAssertEqual(lines[1][4], String(fields.filter { !$0.hasPrefix(":") || $0.hasPrefix(":@") }.count))
    }

    func testEveryPortalIsSearchedWithoutADomainAndEveryFormatWorks() throws {
        let body = try recorded("catalog.api.us.socrata.com__v1-b7b6cd.json")
        let catalog = try LoopbackHTTPServer()
        defer { catalog.stop() }
        catalog.route("/api/catalog/v1", .init(body: body))
        let run = try SocloadProcess.run(["search", "salaries", "--category", "Finance", "--catalog", catalog.baseURL, "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(Set(rows.compactMap { $0["domain"] as? String }).count, 2, "results from two portals")
        XCTAssertEqual(catalog.requests.first?.query["categories"], "Finance")
        XCTAssertNil(catalog.requests.first?.query["domains"])
    }

    func testACatalogThatFailsIsOneLine() throws {
        let catalog = try LoopbackHTTPServer()
        defer { catalog.stop() }
        catalog.route("/api/catalog/v1", .init(status: 200, body: Array("<html>maintenance</html>".utf8)))
        let bad = try SocloadProcess.run(["search", "x", "--catalog", catalog.baseURL])
        XCTAssertEqual(bad.status, 69)
        XCTAssertTrue(bad.stderr.hasPrefix("Error: The catalog's answer to "), bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
        catalog.route("/api/catalog/v1", .init(status: 400, body: Array(#"{"error":"bad query"}"#.utf8)))
        let refused = try SocloadProcess.run(["search", "x", "--catalog", catalog.baseURL, "--retries", "0"])
        XCTAssertEqual(refused.status, 69, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("400"), refused.stderr)
        let nothing = try SocloadProcess.run(["search"])
        XCTAssertEqual(nothing.status, 64)
    }

    /// `--rows`: each result's count from its portal's description (the recorded views of
    /// ../shared/datasets, served as the portal of the recorded catalog's first results).
    func testRowsComeFromEachPortalsDescription() throws {
        // Read first: a skip thrown inside XCTUnwrap's autoclosure would count as a failure.
        let recordedCatalog = try recorded("catalog.api.us.socrata.com__v1-086e69.json")
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(recordedCatalog)) as? [String: Any])
        let portal = try LoopbackHTTPServer()
        defer { portal.stop() }
        var results = try XCTUnwrap(root["results"] as? [[String: Any]])
        let views = [("cnaz-c5je", try recorded("cnaz-c5je.views.json"), 6), ("gza6-uqxz", try recorded("koop-schools-view.json"), 80)]
        for (index, (id, body, _)) in views.enumerated() {
            var resource = try XCTUnwrap(results[index]["resource"] as? [String: Any])
            resource["id"] = id
            results[index]["resource"] = resource
            results[index]["metadata"] = ["domain": portal.baseURL]
            portal.route("/api/views/\(id).json", .init(body: body))
        }
        // The third result's portal does not describe it: no count, the others still print.
        results[2]["metadata"] = ["domain": portal.baseURL]
        root["results"] = Array(results.prefix(3))
        let catalog = try LoopbackHTTPServer()
        defer { catalog.stop() }
        catalog.route("/api/catalog/v1", .init(body: Array(try JSONSerialization.data(withJSONObject: root))))
        let run = try SocloadProcess.run(["search", "bus", "--rows", "--retries", "0", "--format", "csv", "--catalog", catalog.baseURL])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(whereSeparator: \.isNewline).map { CSVLine.fields(String($0)) }
        XCTAssertEqual(lines.first, ["id", "name", "type", "data_updated_at", "columns", "rows", "domain", "page"])
        XCTAssertEqual(lines.count, 4)
        XCTAssertEqual(lines[1][0], "cnaz-c5je")
        XCTAssertEqual(lines[1][5], "6")
        XCTAssertEqual(lines[2][5], "80")
        XCTAssertEqual(lines[3][5], "")
        XCTAssertEqual(portal.requests.count, 3, "one description request a result")
    }
}
