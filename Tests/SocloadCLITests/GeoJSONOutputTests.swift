import Foundation
import SocloadTestSupport
import XCTest

/// `--format geojson`: an RFC 7946 FeatureCollection from a table's latitude/longitude columns
/// or its WKT / GeoJSON geometries, the same on SQLite and PostgreSQL, for web maps.
final class GeoJSONOutputTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func collection(_ run: SocloadRun) throws -> [[String: Any]] {
        XCTAssertEqual(run.status, 0, run.stderr)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        XCTAssertEqual(root["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(root["features"] as? [[String: Any]])
        for feature in features { XCTAssertEqual(feature["type"] as? String, "Feature") }
        return features
    }

    private func geometry(_ feature: [String: Any]) -> String {
        guard let geometry = feature["geometry"] as? [String: Any] else { return "null" }
        let data = try? JSONSerialization.data(withJSONObject: geometry, options: [.sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    func testWKTAndGeoJSONValuesBecomeGeometries() throws {
        let cases: [(String, String)] = [
            ("POINT (-87.6 41.8)", #"{"coordinates":[-87.6,41.8],"type":"Point"}"#),
            ("POINT Z (1 2 3)", #"{"coordinates":[1,2,3],"type":"Point"}"#),
            ("POINT M (1 2 9)", #"{"coordinates":[1,2],"type":"Point"}"#),
            ("LINESTRING (0 0, 1 1, 2 0.5)", #"{"coordinates":[[0,0],[1,1],[2,0.5]],"type":"LineString"}"#),
            ("POLYGON ((0 0, 4 0, 4 4, 0 0), (1 1, 2 1, 2 2, 1 1))",
             #"{"coordinates":[[[0,0],[4,0],[4,4],[0,0]],[[1,1],[2,1],[2,2],[1,1]]],"type":"Polygon"}"#),
            ("MULTIPOINT ((1 2), (3 4))", #"{"coordinates":[[1,2],[3,4]],"type":"MultiPoint"}"#),
            ("multipoint (1 2, 3 4)", #"{"coordinates":[[1,2],[3,4]],"type":"MultiPoint"}"#),
            ("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))", #"{"coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]],"type":"MultiPolygon"}"#),
            (#"{"type": "Point", "coordinates": [-73.9, 40.7]}"#, #"{"coordinates":[-73.9,40.7],"type":"Point"}"#),
            ("POINT EMPTY", "null"),
            ("POINT (1 NaN)", "null"),
            ("POLYGON ((0 0, 1 1)", "null"),
            ("GEOMETRYCOLLECTION (POINT (1 2))", "null"),
            ("not a shape", "null"),
        ]
        let lines = cases.enumerated().map { index, item in
            #"{"id": \#(index), "name": "n\#(index) — é", "shape": \#(JSONValueText.quoted(item.0))}"#
        }
        let document = directory.path("shapes.ndjson")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: document))
        let db = directory.path("shapes.sqlite")
        XCTAssertEqual(try SocloadProcess.run(["load", document, "--table", "shapes", "--pk", "id", "--db", db, "-q"]).status, 0)
        let features = try collection(try SocloadProcess.run(["select", "shapes", "--order", "id", "--format", "geojson", "--db", db]))
        XCTAssertEqual(features.count, cases.count)
        for (feature, item) in zip(features, cases) {
            XCTAssertEqual(geometry(feature), item.1, item.0)
            let properties = try XCTUnwrap(feature["properties"] as? [String: Any])
            XCTAssertNil(properties["shape"], "the geometry's column is not a property")
            XCTAssertNotNil(properties["name"])
        }
        let empty = try collection(try SocloadProcess.run(["query", "select 1 as x where 0", "--format", "geojson", "--db", db]))
        XCTAssertEqual(empty.count, 0)
        let pair = try collection(try SocloadProcess.run(["query", "select 'a' as name, 2.5 as longitude, 48.1 as latitude, "
                                                          + "null as other_longitude, 1 as other_latitude", "--format", "geojson", "--db", db]))
        XCTAssertEqual(geometry(pair[0]), #"{"coordinates":[2.5,48.1],"type":"Point"}"#)
        XCTAssertEqual((pair[0]["properties"] as? [String: Any])?.keys.sorted(), ["name", "other_latitude", "other_longitude"])
    }

    /// The real exports: every one a valid collection; points from location and point columns,
    /// a multipolygon from WKT; the same on PostgreSQL.
    func testRealExportsMapTheSameOnBothDatabases() throws {
        let exports = RowChangeCommandTests.exports.filter { $0.lastPathComponent.hasSuffix(".rows.json") }
        guard !exports.isEmpty else { throw XCTSkip("../shared/datasets is not beside the project") }
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        for export in exports {
            let table = "t_" + export.lastPathComponent.prefix(9).replacingOccurrences(of: "-", with: "_")
            var maps: [[String]] = []
            for db in [directory.path("real.sqlite"), postgreSQL.url] {
                XCTAssertEqual(try SocloadProcess.run(["fetch", export.path, "--table", table, "--db", db, "-q"]).status, 0)
                let features = try collection(try SocloadProcess.run(["select", table, "--order", "_id", "--format", "geojson",
                                                                      "--db", db]))
                for feature in features {
                    guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "Point",
                          let point = geometry["coordinates"] as? [Double] else { continue }
                    XCTAssertTrue(abs(point[0]) <= 180 && abs(point[1]) <= 90, "\(table): \(point)")
                }
                maps.append(features.map(geometry))
            }
            XCTAssertEqual(maps[0], maps[1], "\(table): the same geometries on SQLite and PostgreSQL")
            if table.hasPrefix("t_cqsj") { XCTAssertTrue(maps[0].allSatisfy { $0.contains("\"Point\"") }, "\(maps[0].prefix(3))") }
            if table.hasPrefix("t_bkn9") { XCTAssertTrue(maps[0].allSatisfy { $0.contains("\"MultiPolygon\"") }) }
        }
    }
}

/// A JSON string literal for a test's document.
private enum JSONValueText {
    static func quoted(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return data.map { String(decoding: $0, as: UTF8.self).dropFirst().dropLast() }.map(String.init) ?? "\"\""
    }
}
