import Foundation
import SocloadTestSupport
import XCTest

/// `--geopackage` / a `.gpkg` path: a GeoPackage 1.3 that GDAL reads as layers (each with its
/// geometry type, EPSG:4326, feature count and extent, and no warning) and that GDAL's
/// validator passes, after a load, a sync, a refresh, a lookup and a drop.
final class GeoPackageTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        try GISClient.requireClients()
        directory = try TemporaryDirectory()
    }

    private func succeed(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> SocloadRun {
        let run = try SocloadProcess.run(arguments, environment: ["SOCLOAD_RETRY_DELAY": "0.01"])
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        return run
    }

    private func csv(_ sql: String, db: String) throws -> [String] {
        try succeed(["query", sql, "--db", db, "--format", "csv"]).stdout.split(whereSeparator: \.isNewline).dropFirst()
            .map { $0.hasPrefix("\"") ? String($0.dropFirst().dropLast()) : String($0) }
    }

    private func assertValid(_ file: String, _ when: String, line: UInt = #line) throws {
        if let failure = try GISClient.validationFailure(file) { XCTFail("\(when): \(failure)", line: line) }
    }

    /// GDAL's name of the layer geometry a Socrata column type gives.
    private static func ogrGeometryName(_ socrataType: String) -> String? {
        switch socrataType {
        case "point", "location": return "Point"
        case "multipoint": return "Multi Point"
        case "line", "linestring": return "Line String"
        case "multiline", "multilinestring": return "Multi Line String"
        case "polygon": return "Polygon"
        case "multipolygon": return "Multi Polygon"
        default: return nil
        }
    }

    func testEveryRealExportIsALayerGDALReadsBack() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        let exports = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".rows.json") }.sorted()
        XCTAssertFalse(exports.isEmpty)
        let db = directory.path("real.gpkg")
        var expected: [String: String?] = [:]
        for export in exports {
            let path = shared.appendingPathComponent(export).path
            _ = try succeed(["fetch", path, "--db", db, "-q"])
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
            let view = (document["meta"] as! [String: Any])["view"] as! [String: Any]
            let types = (view["columns"] as! [[String: Any]]).compactMap { $0["dataTypeName"] as? String }
            let table = String(export.dropLast(".rows.json".count)).replacingOccurrences(of: "-", with: "_")
            expected[table] = types.lazy.compactMap(Self.ogrGeometryName).first
        }
        try assertValid(db, "after loading every real export")
        let layers = try GISClient.layers(of: db)
        XCTAssertEqual(Set(layers.keys), Set(expected.keys), "every table is a layer, and nothing else is")
        for (table, geometry) in expected {
            let summary = try XCTUnwrap(layers[table])
            let count = try csv("SELECT count(*) FROM \"\(table)\"", db: db).first ?? "?"
            XCTAssertTrue(summary.contains("Feature Count: \(count)\n"), summary)
            XCTAssertTrue(summary.contains("Geometry: \(geometry ?? "None")\n"), "\(table): \(summary.prefix(300))")
            guard geometry != nil else { continue }
            XCTAssertTrue(summary.contains("ID[\"EPSG\",4326]"), summary)
            XCTAssertTrue(summary.contains("FID Column = fid"), summary)
            let column = try XCTUnwrap(try csv("SELECT column_name FROM gpkg_geometry_columns WHERE table_name = '\(table)'", db: db).first)
            let extent = try csv("SELECT printf('(%f, %f) - (%f, %f)', min_x, min_y, max_x, max_y) FROM gpkg_contents "
                                 + "WHERE table_name = '\(table)'", db: db)
            XCTAssertTrue(summary.contains("Extent: \(extent.first ?? "?")"), "\(table): \(extent) vs \(summary.prefix(400))")
            // Geometries read back by GDAL: as many as the rows with a place, each where its row's
            // coordinates say (points: its longitude/latitude columns).
            let withPlace = try csv("SELECT count(*) FROM \"\(table)\" WHERE \"\(column)\" IS NOT NULL", db: db).first ?? "?"
            let read = try GISClient.sql("SELECT count(*) AS n FROM \"\(table)\" WHERE \"\(column)\" IS NOT NULL", file: db)
            XCTAssertTrue(read.contains("n (Integer) = \(withPlace)"), "\(read)")
            XCTAssertNotEqual(withPlace, "0", table)
            guard geometry == "Point" else { continue }
            let base = String(column.dropLast("_geom".count))
            let pair = try csv("SELECT name FROM pragma_table_info('\(table)') WHERE name IN ('\(base)_longitude', '\(base)_latitude') "
                               + "ORDER BY name DESC", db: db)
            guard pair.count == 2 else { return XCTFail("\(table): \(pair)") }
            // The layer's extent is that of the rows' own coordinates.
            let measured = try csv("SELECT printf('(%f, %f) - (%f, %f)', min(\"\(pair[0])\"), min(\"\(pair[1])\"), max(\"\(pair[0])\"), "
                                   + "max(\"\(pair[1])\")) FROM \"\(table)\" WHERE \"\(column)\" IS NOT NULL", db: db)
            XCTAssertTrue(summary.contains("Extent: \(measured.first ?? "?")\n"), "\(table): \(measured) vs \(summary.prefix(300))")
            let row = try csv("SELECT fid, \"\(pair[0])\", \"\(pair[1])\" FROM \"\(table)\" WHERE \"\(column)\" IS NOT NULL "
                              + "ORDER BY fid DESC LIMIT 1", db: db).first?.split(separator: ",") ?? []
            guard row.count == 3 else { return XCTFail("\(table): \(row)") }
            let points = try GISClient.sql("SELECT \"\(column)\" FROM \"\(table)\" WHERE fid = \(row[0])", file: db)
                .filter { $0.hasPrefix("POINT") }
            let coordinates = try XCTUnwrap(points.first).dropFirst("POINT (".count).dropLast().split(separator: " ").compactMap { Double($0) }
            guard coordinates.count == 2 else { return XCTFail("\(table): \(points)") }
            XCTAssertEqual(coordinates[0], Double(row[1])!, accuracy: 1e-9, table)
            XCTAssertEqual(coordinates[1], Double(row[2])!, accuracy: 1e-9, table)
        }
        // The header fields GIS programs look for.
        XCTAssertEqual(try csv("PRAGMA application_id", db: db), ["\(0x4750_4B47)"])
        XCTAssertEqual(try csv("PRAGMA user_version", db: db), ["10300"])
        XCTAssertEqual(try csv("SELECT srs_id FROM gpkg_spatial_ref_sys ORDER BY srs_id", db: db), ["-1", "0", "4326"])
    }

    func testDocumentsWithChildTablesAndHostileNamesMakeValidLayers() throws {
        let document = directory.path("places.json")
        try Data(#"""
            [{"fid": "mine", "name": "A \"quoted\" é", "where": {"type": "Point", "coordinates": [-87.6, 41.8]},
              "visits": [{"day": "2024-01-01", "n": 2}, {"day": "2024-01-02", "n": 3}]},
             {"fid": "also", "name": "B", "where": "LINESTRING (-87.5 41.9, -87.4 42)", "visits": [{"day": "2024-02-01", "n": 1}]},
             {"fid": "none", "name": "C", "where": "nowhere", "visits": []}]
            """#.utf8).write(to: URL(fileURLWithPath: document))
        let db = directory.path("places.gpkg")
        let table = #"we"ird; places"#
        let load = try succeed(["load", document, "--table", table, "--pk", "fid", "--type", "where=geometry", "--db", db])
        XCTAssertTrue(load.stderr.contains("where_geom: 1 value could not be read as a geometry (left NULL); first at row 3"), load.stderr)
        try assertValid(db, "after loading a document with a child table")
        let layers = try GISClient.layers(of: db)
        XCTAssertEqual(Set(layers.keys), [table, table + "_visits"])
        let features = try XCTUnwrap(layers[table])
        XCTAssertTrue(features.contains("Geometry: Unknown (any)\n"), features)
        XCTAssertTrue(features.contains("Feature Count: 3\n"), features)
        XCTAssertTrue(features.contains("FID Column = fid2\n"), "the dataset's own fid stays a column: \(features)")
        XCTAssertTrue(features.contains("Extent: (-87.600000, 41.800000) - (-87.400000, 42.000000)"), features)
        XCTAssertTrue(try XCTUnwrap(layers[table + "_visits"]).contains("Feature Count: 3\n"))
        let read = try GISClient.sql(#"SELECT where_geom FROM "we""ird; places" ORDER BY fid2"#, file: db)
        XCTAssertEqual(read.filter { $0.hasPrefix("POINT") || $0.hasPrefix("LINESTRING") },
                       ["POINT (-87.6 41.8)", "LINESTRING (-87.5 41.9,-87.4 42.0)"])
        // A refresh of the document keeps it valid.
        _ = try succeed(["load", document, "--table", table, "--pk", "fid", "--type", "where=geometry", "--db", db, "-q"])
        try assertValid(db, "after loading it again")
    }
}
