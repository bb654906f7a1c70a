import Foundation
import SocloadPostgreSQL
import SocloadSocrata
import XCTest

/// With PostGIS in the database, places also get geometry columns filled during the COPY, with
/// a GiST index; without it the table is as it would be anyway.
final class PostGISTests: PostgreSQLTestCase {
    func testLocationsPointsAndShapesGetGeometryColumnsOnlyWherePostGISIs() throws {
        let without = try load(file: bundled("ci7y-pmts"), id: "ci7y-pmts")
        XCTAssertEqual(try value("SELECT count(*) FROM information_schema.columns WHERE table_name = 'ci7y_pmts' AND column_name LIKE '%\\_geom'"), "0")
        // Said once, naming the places and how to get PostGIS.
        XCTAssertEqual(without.notes.filter { $0.contains("PostGIS") }, [
            "ci7y_pmts: site, point get no geometry column: this database has no PostGIS (install postgresql-15-postgis-3 "
            + "or your PostgreSQL's PostGIS package, then CREATE EXTENSION postgis and fetch it again with --force)"])

        try database.connect().execute("CREATE EXTENSION postgis")
        for id in ["ci7y-pmts", "geo5-shps", "ci7y-pmts"] {
            let summary = try load(file: bundled(id), id: id)
            XCTAssertEqual(summary.notes.filter { !$0.contains("could not be read as a geometry") }, [], id) // no PostGIS note
        }
        XCTAssertEqual(try rows("""
            SELECT column_name, udt_name FROM information_schema.columns WHERE table_name = 'ci7y_pmts' AND column_name LIKE '%\\_geom'
            ORDER BY ordinal_position
            """), [["site_geom", "geometry"], ["point_geom", "geometry"]])
        XCTAssertEqual(try value("SELECT type FROM geometry_columns WHERE f_table_name = 'ci7y_pmts' AND f_geometry_column = 'site_geom'"),
                       "POINT")
        XCTAssertEqual(try value("SELECT srid::text FROM geometry_columns WHERE f_table_name = 'ci7y_pmts' AND f_geometry_column = 'point_geom'"),
                       "4326")
        // Every location with both coordinates has its point, at those coordinates.
        XCTAssertEqual(try rows("""
            SELECT count(*) FILTER (WHERE site_latitude IS NOT NULL AND site_longitude IS NOT NULL),
                   count(site_geom) FILTER (WHERE ST_Y(site_geom) = site_latitude AND ST_X(site_geom) = site_longitude),
                   count(point) FILTER (WHERE point IS NOT NULL),
                   count(point_geom) FILTER (WHERE ST_X(point_geom) = point_longitude AND ST_Y(point_geom) = point_latitude)
            FROM ci7y_pmts
            """), [[try value("SELECT count(*) FROM ci7y_pmts WHERE site_latitude IS NOT NULL AND site_longitude IS NOT NULL"),
                    try value("SELECT count(*) FROM ci7y_pmts WHERE site_latitude IS NOT NULL AND site_longitude IS NOT NULL"),
                    try value("SELECT count(point) FROM ci7y_pmts"), try value("SELECT count(point_geom) FROM ci7y_pmts")]])
        XCTAssertGreaterThan(Int(try value("SELECT count(point_geom) FROM ci7y_pmts") ?? "0") ?? 0, 50)
        // Shapes: the geometry is what PostGIS reads from the same WKT.
        for column in ["trail", "boundary", "parcels", "paths", "benches"] {
            let name = column.quotedDatabaseIdentifierForTests
            let geom = (column + "_geom").quotedDatabaseIdentifierForTests
            XCTAssertEqual(try value("""
                SELECT count(*) FROM geo5_shps WHERE \(geom) IS NOT NULL
                AND ST_AsEWKT(\(geom)) <> ST_AsEWKT(ST_SetSRID(ST_GeomFromText(\(name)), 4326))
                """), "0", column)
            XCTAssertGreaterThan(Int(try value("SELECT count(\(geom)) FROM geo5_shps") ?? "0") ?? 0, 0, column)
        }
        XCTAssertEqual(try value("SELECT count(*) FROM pg_indexes WHERE tablename = 'geo5_shps' AND indexdef LIKE '%USING gist%'"), "6")
        XCTAssertEqual(try value("SELECT count(*) FROM pg_indexes WHERE tablename = 'ci7y_pmts' AND indexdef LIKE '%USING gist%'"), "2")
    }

    func testWKTAndGeoJSONFormsAndValuesThatAreNotGeometries() throws {
        try database.connect().execute("CREATE EXTENSION postgis")
        let values = [#""POINT (-87.6 41.8)""#, #""point(1 2)""#, #""{\"type\":\"Point\",\"coordinates\":[3.5,-4.25]}""#,
                      #""POINT EMPTY""#, #""POINT Z (1 2 3)""#, #""not a place""#, #""LINESTRING (0 0, 1 1)""#, "null"]
        let shapes = [#""MULTIPOINT ((1 2), (3 4))""#, #""MULTIPOINT (1 2, 3 4)""#,
                      #""MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))""#,
                      #""{\"type\":\"MultiLineString\",\"coordinates\":[[[0,0],[1,1]],[[2,2],[3,3]]]}""#,
                      #""POLYGON ((0 0, 1 0, 1 1, 0 0), (0.2 0.2, 0.3 0.2, 0.3 0.3, 0.2 0.2))""#, #""GEOMETRYCOLLECTION (POINT (1 2))""#,
                      #""POLYGON ((0 0, 1 0""#, "null"]
        let path = try write("places.json", Self.rowsJSON(columns: [("spot", "point"), ("area", "multipolygon")],
                                                          rows: zip(values, shapes).map { [$0, $1] }))
        let summary = try load(file: path, table: "places")
        XCTAssertEqual(try rows("SELECT ST_AsText(spot_geom) FROM places ORDER BY ctid").map { $0[0] },
                       ["POINT(-87.6 41.8)", "POINT(1 2)", "POINT(3.5 -4.25)", nil, nil, nil, nil, nil])
        XCTAssertEqual(try rows("SELECT ST_AsText(area_geom) FROM places ORDER BY ctid").map { $0[0] },
                       ["MULTIPOINT((1 2),(3 4))", "MULTIPOINT((1 2),(3 4))", "MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5)))",
                        "MULTILINESTRING((0 0,1 1),(2 2,3 3))", "POLYGON((0 0,1 0,1 1,0 0),(0.2 0.2,0.3 0.2,0.3 0.3,0.2 0.2))", nil, nil, nil])
        XCTAssertEqual(summary.notes, ["places.spot_geom: 4 values could not be read as a geometry (left NULL); first at row 4",
                                       "places.area_geom: 2 values could not be read as a geometry (left NULL); first at row 6"])
    }
}

extension String {
    var quotedDatabaseIdentifierForTests: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
