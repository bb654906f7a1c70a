import Foundation
import SocloadTestSupport
import XCTest

/// A GeoPackage stays one through what a nightly mirror does to it: a sync that moves, adds and
/// drops points, a refresh, a lookup, another `--geometry`, a drop; its spatial index and extent
/// follow every change, and values that are no geometry stay NULL and are counted.
final class GeoPackageLifecycleTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portal: FakeSocrataPortal!

    override func setUpWithError() throws {
        try GISClient.requireClients()
        directory = try TemporaryDirectory()
        let rows = (0..<40).map { index -> FakeSocrataPortal.Row in
            var cells: [String: FakeSocrataPortal.Cell] = [
                "name": .text("Site \(index) — é"),
                "agency": .text("Agency \(index % 3)"),
                "office": .location(address: "\(index) Main St", latitude: String(40 + Double(index) / 100),
                                    longitude: String(-74 - Double(index) / 100)),
            ]
            cells["site"] = index == 39 ? .text("not a point") : .point(longitude: String(-87.6 + Double(index) / 100),
                                                                         latitude: String(41.8 + Double(index) / 100))
            return .init(id: "row-\(index)", createdAt: 1_430_000_000, updatedAt: 1_430_000_000, cells: cells)
        }
        portal = try FakeSocrataPortal(datasetID: "geo5-0001", columns: [.init("name", "text"), .init("site", "point"),
                                                                         .init("office", "location"), .init("agency", "text")],
                                       rows: rows, rowsUpdatedAt: 1_430_000_000)
    }

    override func tearDown() {
        portal?.stop()
    }

    private func socload(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db], environment: ["SOCLOAD_RETRY_DELAY": "0.01"])
    }

    private func succeed(_ arguments: [String], db: String, line: UInt = #line) throws -> SocloadRun {
        let run = try socload(arguments, db: db)
        XCTAssertEqual(run.status, 0, run.stderr, line: line)
        return run
    }

    private func csv(_ sql: String, db: String, line: UInt = #line) throws -> [String] {
        try succeed(["query", sql, "--format", "csv"], db: db, line: line).stdout.split(whereSeparator: \.isNewline).dropFirst()
            .map { $0.hasPrefix("\"") ? String($0.dropFirst().dropLast()) : String($0) }
    }

    private func assertValid(_ file: String, _ when: String, line: UInt = #line) throws {
        if let failure = try GISClient.validationFailure(file) { XCTFail("\(when): \(failure)", line: line) }
        _ = try GISClient.layers(of: file)
    }

    /// The spatial index holds one entry per row with a geometry, each the row's own bounds.
    private func assertIndexMatchesRows(_ db: String, _ when: String, line: UInt = #line) throws {
        XCTAssertEqual(try csv("SELECT count(*) FROM rtree_geo5_0001_site_geom", db: db, line: line),
                       try csv("SELECT count(*) FROM geo5_0001 WHERE site_geom IS NOT NULL", db: db, line: line), when, line: line)
        XCTAssertEqual(try csv("""
            SELECT count(*) FROM geo5_0001 AS t JOIN rtree_geo5_0001_site_geom AS r ON r.id = t.fid
            WHERE abs(r.minx - t.site_longitude) > 1e-4 OR abs(r.maxy - t.site_latitude) > 1e-4
            """, db: db, line: line), ["0"], when, line: line)
    }

    func testSyncRefreshLookupsAndDropKeepAValidGeoPackage() throws {
        let db = directory.path("mirror.gpkg")
        let fetch = try succeed(["fetch", "geo5-0001", "--domain", portal.baseURL, "--pk", "_id", "--extract", "agency+count"], db: db)
        // Row 34 of the SODA pages, in :id order (row-39 sorts after row-38, before row-4).
        XCTAssertTrue(fetch.stderr.contains("geo5_0001.site_geom: 1 value could not be read as a geometry (left NULL); first at row 34"),
                      fetch.stderr)
        try assertValid(db, "after the fetch")
        XCTAssertEqual(try csv("SELECT table_name, column_name, geometry_type_name, srs_id FROM gpkg_geometry_columns", db: db),
                       ["geo5_0001,site_geom,POINT,4326"])
        XCTAssertEqual(try csv("SELECT table_name, data_type FROM gpkg_contents ORDER BY table_name", db: db),
                       ["agency,attributes", "geo5_0001,features"])
        XCTAssertEqual(try csv("SELECT count(*), count(site_geom), count(site) FROM geo5_0001", db: db), ["40,39,40"],
                       "the text that is no point stays in its column, NULL in the geometry")
        try assertIndexMatchesRows(db, "after the fetch")

        // A sync: one point moves far west, one row comes with a point further north, one
        // changes agency, one loses its point.
        portal.update({ rows, _ in
            rows[0].cells["site"] = .point(longitude: "-100.5", latitude: "30.25"); rows[0].updatedAt = 1_430_000_010
            rows[1].cells["agency"] = .text("Agency 9"); rows[1].updatedAt = 1_430_000_011
            rows[2].cells["site"] = nil; rows[2].updatedAt = 1_430_000_012
            rows.append(.init(id: "row-new", createdAt: 1_430_000_020, updatedAt: 1_430_000_020,
                              cells: ["name": .text("Nouveau"), "site": .point(longitude: "-88", latitude: "55.5"),
                                      "agency": .text("Agency 1")]))
        }, rowsUpdatedAt: 1_430_000_100)
        let sync = try succeed(["sync", "geo5_0001"], db: db)
        XCTAssertTrue(sync.stderr.contains("4 rows received (1 new, 3 already there)"), sync.stderr)
        try assertValid(db, "after the sync")
        try assertIndexMatchesRows(db, "after the sync")
        XCTAssertEqual(try csv("SELECT min_x, max_y FROM gpkg_contents WHERE table_name = 'geo5_0001'", db: db), ["-100.5,55.5"],
                       "the extent follows the sync")
        let moved = try GISClient.sql("SELECT site_geom FROM geo5_0001 WHERE _id = 'row-0'", file: db)
        XCTAssertTrue(moved.contains("POINT (-100.5 30.25)"), "\(moved)")
        XCTAssertEqual(try csv("SELECT count(*) FROM gpkg_contents WHERE table_name = 'agency'", db: db), ["1"])

        // Writes of yours through socload keep the index; a refresh rebuilds it.
        _ = try succeed(["query", "--write", "DELETE FROM geo5_0001 WHERE _id = 'row-5'"], db: db)
        try assertIndexMatchesRows(db, "after a delete of yours")
        let refresh = try succeed(["fetch", "geo5-0001", "--domain", portal.baseURL, "--force"], db: db)
        XCTAssertTrue(refresh.stderr.contains("Refreshed geo5_0001"), refresh.stderr)
        try assertValid(db, "after the refresh")
        try assertIndexMatchesRows(db, "after the refresh")

        // Another place as the geometry: the old registration and index go.
        let office = try succeed(["fetch", "geo5-0001", "--domain", portal.baseURL, "--force", "--geometry", "office"], db: db)
        XCTAssertFalse(office.stderr.contains("could not be read"), office.stderr)
        XCTAssertEqual(try csv("SELECT column_name FROM gpkg_geometry_columns", db: db), ["office_geom"])
        XCTAssertEqual(try csv("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'rtree_geo5_0001_site_geom%'", db: db), ["0"])
        XCTAssertEqual(try csv("SELECT count(*) FROM rtree_geo5_0001_office_geom", db: db),
                       try csv("SELECT count(*) FROM geo5_0001 WHERE office_latitude IS NOT NULL", db: db))
        try assertValid(db, "after --geometry office")
        // ...kept by the next refresh.
        _ = try succeed(["fetch", "geo5-0001", "--domain", portal.baseURL, "--force"], db: db)
        XCTAssertEqual(try csv("SELECT column_name FROM gpkg_geometry_columns", db: db), ["office_geom"])

        // A drop forgets the layer and its index.
        _ = try succeed(["drop", "geo5_0001"], db: db)
        XCTAssertEqual(try csv("SELECT count(*) FROM gpkg_geometry_columns", db: db), ["0"])
        XCTAssertEqual(try csv("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'rtree%'", db: db), ["0"])
        try assertValid(db, "after the drop")
    }

    func testGeometryOptionIsCheckedAndThePlainSQLiteFileStaysPlain() throws {
        let db = directory.path("mirror.gpkg")
        let wrong = try socload(["fetch", "geo5-0001", "--domain", portal.baseURL, "--geometry", "nope"], db: db)
        XCTAssertEqual(wrong.status, 64, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("--geometry nope: geo5_0001 has no place 'nope' (its places: site, office)"), wrong.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "nothing was created")

        // --geopackage on a file of another name, which GIS programs warn about (so does socload);
        // a plain SQLite file has no GeoPackage tables.
        let named = directory.path("mirror.sqlite")
        let flagged = try succeed(["fetch", "geo5-0001", "--domain", portal.baseURL, "--geopackage", "-q"], db: named)
        XCTAssertTrue(flagged.stderr.contains("becomes a GeoPackage; GIS programs expect its name to end in .gpkg"), flagged.stderr)
        XCTAssertEqual(try csv("PRAGMA application_id", db: named), ["\(0x4750_4B47)"])
        let plain = directory.path("plain.sqlite")
        _ = try succeed(["fetch", "geo5-0001", "--domain", portal.baseURL, "-q"], db: plain)
        XCTAssertEqual(try csv("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'gpkg%' OR name LIKE 'rtree%'", db: plain), ["0"])
        XCTAssertEqual(try csv("PRAGMA application_id", db: plain), ["0"])
        // A later load into the GeoPackage keeps it one, without the flag.
        _ = try succeed(["fetch", "geo5-0001", "--domain", portal.baseURL, "--table", "again", "-q"], db: named)
        XCTAssertEqual(try csv("SELECT table_name FROM gpkg_geometry_columns ORDER BY 1", db: named), ["again", "geo5_0001"])
        let renamed = directory.path("renamed.gpkg")
        try FileManager.default.moveItem(atPath: named, toPath: renamed)
        try assertValid(renamed, "a second load, the file renamed")
    }
}
