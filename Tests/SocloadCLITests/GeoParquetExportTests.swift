import Foundation
import SocloadTestSupport
import XCTest

/// `socload export` of tables with geometries (issue 48): GeoParquet read by geopandas with every
/// geometry equal to its source (a WKT column, a location's latitude and longitude), the `geo`
/// metadata checked against GeoParquet 1.1 (written out here, from the specification), the
/// bbox covering equal to each row's bounds and the file's bbox to all of them; from PostgreSQL
/// with PostGIS the same file as from SQLite.
final class GeoParquetExportTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    func run(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments, directory: URL(fileURLWithPath: directory.path("")))
    }

    /// Checks a GeoParquet file (argv 1) whose geometry columns come from the sources in argv 2
    /// (JSON: geometry column → a text column, or [latitude, longitude] columns). Prints
    /// `PROBLEMS ROWS GEOMETRIES` and the problems, a line each.
    static let check = """
        import sys, json, re, math, geopandas, shapely, pyarrow.parquet as pq
        path, sources = sys.argv[1], json.loads(sys.argv[2])
        f = pq.ParquetFile(path)
        t = f.read()
        geo = json.loads(f.schema_arrow.metadata[b"geo"])
        problems = []
        say = problems.append
        if geo.get("version") != "1.1.0": say("version %r" % geo.get("version"))
        if set(geo) - {"version", "primary_column", "columns"}: say("keys %r" % sorted(geo))
        columns = geo.get("columns", {})
        if not columns or geo.get("primary_column") not in columns: say("primary column")
        kinds = re.compile(r"(GeometryCollection|(Multi)?(Point|LineString|Polygon))( Z)?")
        counted = 0
        for name, column in columns.items():
            if column.get("encoding") != "WKB": say(name + " encoding")
            types = column.get("geometry_types")
            if not isinstance(types, list) or len(set(types)) != len(types) or not all(kinds.fullmatch(k) for k in types): say(name + " types")
            if "crs" in column and column["crs"] is not None and not isinstance(column["crs"], dict): say(name + " crs")
            if "edges" in column and column["edges"] not in ("planar", "spherical"): say(name + " edges")
            box = column.get("bbox")
            if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, (int, float)) for v in box) and box[0] <= box[2] and box[1] <= box[3]):
                say(name + " bbox %r" % box)
            cover = column.get("covering", {}).get("bbox", {})
            struct = cover.get("xmin", [None])[0]
            for key in ("xmin", "ymin", "xmax", "ymax"):
                if cover.get(key) != [struct, key]: say(name + " covering " + key)
            field = t.schema.field(struct)
            if [c.name for c in field.type] != ["xmin", "ymin", "xmax", "ymax"] or any(str(c.type) != "double" for c in field.type):
                say(name + " covering column " + str(field.type))
            shapes = geopandas.GeoSeries.from_wkb(t.column(name).to_pylist())
            if sorted(set(shapes.dropna().geom_type)) != sorted(types): say(name + " types %r %r" % (sorted(set(shapes.dropna().geom_type)), types))
            if not all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(shapes.total_bounds, box)): say(name + " file bbox")
            for shape, row_box, row in zip(shapes, t.column(struct).to_pylist(), t.to_pylist()):
                source = sources[name]
                if isinstance(source, list):
                    lat, lon = row[source[0]], row[source[1]]
                    expected = None if lat is None or lon is None else shapely.Point(lon, lat)
                else:
                    expected = None if row[source] is None else shapely.from_wkt(row[source])
                if (shape is None) != (expected is None) or (shape is not None and not shape.equals(expected)):
                    say(name + " geometry %r against %r" % (shape, expected))
                    continue
                if shape is None:
                    if row_box is not None: say(name + " a box without a geometry")
                    continue
                counted += 1
                if [row_box[k] for k in ("xmin", "ymin", "xmax", "ymax")] != list(shape.bounds): say(name + " row box")
        frame = geopandas.read_parquet(path)
        if frame.geometry.name != geo["primary_column"] or len(frame) != t.num_rows: say("geopandas")
        print(len(problems), t.num_rows, counted)
        for problem in problems[:5]: print(problem)
        """

    private func assertGeoParquet(_ file: String, sources: [String: Any], rows: Int, geometries: Int,
                                  file line: UInt = #line) throws {
        let python = try PythonEnvironment.python(named: "geoparquet-venv", installing: ["geopandas", "pyarrow"])
        let text = String(decoding: try JSONSerialization.data(withJSONObject: sources), as: UTF8.self)
        let checked = try ChildProcess.run(python, ["-c", Self.check, directory.path(file), text])
        XCTAssertEqual(checked.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0 \(rows) \(geometries)", checked.stderr, line: line)
    }

    func testRealExportsWithPointsLocationsAndPolygonsAreGeoParquet() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is not here") }
        for id in ["5mtp-qs2h", "cqsj-cfgu", "bkn9-ng6b"] {
            let fetched = try run(["fetch", shared.appendingPathComponent(id + ".rows.json").path, "--db", "g.sqlite", "--quiet"])
            XCTAssertEqual(fetched.status, 0, fetched.stderr)
            let table = id.replacingOccurrences(of: "-", with: "_")
            let export = try run(["export", table, "--db", "g.sqlite", "-o", "\(table).parquet"])
            XCTAssertEqual(export.status, 0, export.stderr)
        }
        try assertGeoParquet("5mtp_qs2h.parquet", sources: [
            "location1_epromis_geom": ["location1_epromis_latitude", "location1_epromis_longitude"],
            "location2_secondary_geom": ["location2_secondary_latitude", "location2_secondary_longitude"],
        ], rows: 2_191, geometries: 1_873) // the rows with both a latitude and a longitude, in either column
        try assertGeoParquet("cqsj_cfgu.parquet", sources: ["the_geom_geom": "the_geom"], rows: 114, geometries: 114)
        try assertGeoParquet("bkn9_ng6b.parquet", sources: ["the_geom_geom": "the_geom"], rows: 1, geometries: 1)

        // --format parquet: the table as it is, no WKB, no geo metadata; geoparquet of a table without a geometry: refused.
        XCTAssertEqual(try run(["export", "cqsj_cfgu", "--db", "g.sqlite", "--format", "parquet", "-o", "plain.parquet"]).status, 0)
        let plain = try ChildProcess.run(try PythonEnvironment.python(named: "geoparquet-venv", installing: ["geopandas", "pyarrow"]), ["-c", """
            import sys, pyarrow.parquet as pq
            f = pq.ParquetFile(sys.argv[1])
            print(b"geo" in f.schema_arrow.metadata, "the_geom_geom" in f.schema_arrow.names, str(f.schema_arrow.field("the_geom").type))
            """, directory.path("plain.parquet")])
        XCTAssertEqual(plain.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "False False string", plain.stderr)
        try Data(#"[{"a": 1}]"#.utf8).write(to: URL(fileURLWithPath: directory.path("plain.json")))
        XCTAssertEqual(try run(["load", "plain.json", "--db", "g.sqlite", "--quiet"]).status, 0)
        let refused = try run(["export", "plain", "--db", "g.sqlite", "--format", "geoparquet"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("plain has no geometry"), refused.stderr)
    }

    func testFromPostgreSQLWithPostGISTheSameFileAsFromSQLite() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is not here") }
        let database = try TestPostgreSQL.makeDatabase()
        let file = shared.appendingPathComponent("cqsj-cfgu.rows.json").path
        for db in [directory.path("g.sqlite"), database.url] {
            XCTAssertEqual(try run(["fetch", file, "--db", db, "--quiet"]).status, 0)
        }
        XCTAssertEqual(try run(["export", "cqsj_cfgu", "--db", directory.path("g.sqlite"), "-o", "lite.parquet"]).status, 0)
        let exported = try run(["export", "cqsj_cfgu", "--db", database.url, "-o", "pg.parquet"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        try assertGeoParquet("pg.parquet", sources: ["the_geom_geom": "the_geom"], rows: 114, geometries: 114)
        let python = try PythonEnvironment.python(named: "geoparquet-venv", installing: ["geopandas", "pyarrow"])
        let same = try ChildProcess.run(python, ["-c", """
            import sys, pyarrow.parquet as pq
            a, b = pq.read_table(sys.argv[1]), pq.read_table(sys.argv[2])
            print(a.drop_columns([]).equals(b), a.schema.metadata[b"geo"] == b.schema.metadata[b"geo"])
            """, directory.path("lite.parquet"), directory.path("pg.parquet")])
        XCTAssertEqual(same.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "True True", same.stderr)
    }
}
