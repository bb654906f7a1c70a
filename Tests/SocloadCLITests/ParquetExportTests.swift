import Foundation
import SocloadTestSupport
import XCTest

/// `socload export --format parquet` (issue 48): every real export in ../shared/datasets loaded,
/// exported, and read back by pyarrow and DuckDB with every value equal to the table's; the same
/// table from PostgreSQL equal to the one from SQLite; the data package validated by
/// frictionless; hostile tables (names valid nowhere else, 2,000 columns, empty, all NULL,
/// decimals past 38 digits) a valid file or one clear error.
final class ParquetExportTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    func run(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments, directory: URL(fileURLWithPath: directory.path("")))
    }

    static func python() throws -> String {
        try PythonEnvironment.python(named: "parquet-venv", installing: ["pyarrow", "duckdb"])
    }

    /// Compares a Parquet file with the SQLite table it came from, value by value, each value
    /// read as the file's logical type says; DuckDB counts the rows too. Prints
    /// `ROWS-IN-TABLE ROWS-IN-FILE DIFFERENT-VALUES DUCKDB-ROWS`.
    static let comparison = """
        import sys, sqlite3, decimal, datetime, math, duckdb, pyarrow as pa, pyarrow.parquet as pq
        path, database, table = sys.argv[1:4]
        t = pq.read_table(path)
        quote = lambda name: '"' + name.replace('"', '""') + '"'
        rows = sqlite3.connect(database).execute("select " + ", ".join(quote(f.name) for f in t.schema) + " from " + quote(table)).fetchall()
        def expected(value, kind):
            if value is None: return None
            if pa.types.is_boolean(kind): return bool(int(value))
            if pa.types.is_decimal(kind): return decimal.Decimal(repr(value) if isinstance(value, float) else str(value))
            if pa.types.is_timestamp(kind):
                moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
                return moment if kind.tz else moment.replace(tzinfo=None)
            if pa.types.is_date(kind): return datetime.date.fromisoformat(value)
            if pa.types.is_floating(kind): return float(value)
            if pa.types.is_integer(kind): return int(value)
            return value if isinstance(value, str) else str(value)
        different = 0
        for got, row in zip(t.to_pylist(), rows):
            for place, field in enumerate(t.schema):
                kind = field.type.storage_type if isinstance(field.type, pa.BaseExtensionType) else field.type
                a, b = got[field.name], expected(row[place], kind)
                if a != b and not (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)):
                    different += 1
                    if different <= 3: print("row", rows.index(row), field.name, repr(a), repr(b), file=sys.stderr)
        counted = duckdb.connect().execute("select count(*) from read_parquet(?)", [path]).fetchone()[0]
        print(len(rows), t.num_rows, different, counted)
        """

    func testEveryRealExportReadsBackWithEveryValueEqualToItsTable() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is not here") }
        let files = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".rows.json") }.sorted()
        XCTAssertFalse(files.isEmpty)
        let entries = files.map { #"{"file": ""# + shared.appendingPathComponent($0).path + #""}"# }.joined(separator: ", ")
        try Data((#"{"database": "real.sqlite", "datasets": ["# + entries + "]}").utf8)
            .write(to: URL(fileURLWithPath: directory.path("socload.json")))
        let refresh = try run(["refresh", "--quiet"])
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        let python = try Self.python()
        for file in files {
            let table = String(file.dropLast(".rows.json".count)).replacingOccurrences(of: "-", with: "_")
            let export = try run(["export", table, "-o", "out/\(table).parquet", "--format", "parquet"])
            XCTAssertEqual(export.status, 0, export.stderr)
            let compared = try ChildProcess.run(python, ["-c", Self.comparison, directory.path("out/\(table).parquet"),
                                                         directory.path("real.sqlite"), table])
            XCTAssertEqual(compared.status, 0, compared.stderr)
            let counts = compared.stdout.split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
            XCTAssertEqual(counts.count, 4, compared.stdout)
            XCTAssertEqual(counts.first, counts.dropFirst().first, "\(table): every row")
            XCTAssertEqual(counts.dropFirst(2).first, 0, "\(table): every value equal: \(compared.stderr)")
            XCTAssertEqual(counts.last, counts.first, "\(table): DuckDB reads every row")
        }
        // One data package for the folder, a resource per export, each valid with its rows.
        let frictionless = try PythonEnvironment.python(named: "frictionless-venv", installing: ["frictionless[parquet]", "pandas", "pyarrow"])
        let validated = try ChildProcess.run(frictionless, ["-c", """
            import sys, frictionless
            report = frictionless.validate(sys.argv[1])
            print(report.valid, len(report.tasks), [e.message for task in report.tasks for e in task.errors][:3])
            """, directory.path("out/datapackage.json")])
        XCTAssertEqual(validated.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "True \(files.count) []", validated.stderr)
        let metadata = try ChildProcess.run(python, ["-c", """
            import sys, json, pyarrow.parquet as pq
            meta = json.loads(pq.ParquetFile(sys.argv[1]).schema_arrow.metadata[b"socload"])
            print(meta["dataset"]["id"], meta["dataset"]["name"])
            print(sum(1 for c in meta["columns"] if c["description"]), len(meta["columns"]))
            """, directory.path("out/zzzz_zzzz.parquet")])
        XCTAssertTrue(metadata.stdout.hasPrefix("zzzz-zzzz "), metadata.stdout + metadata.stderr)
    }

    /// A dataset of every Socrata type through the whole way (a loopback portal, the load, the
    /// export): NULLs, Unicode, extreme numbers, dates before 1970 and far ahead, each value
    /// equal to the table's, each column of the type its plan says.
    func testEverySocrataTypeWithNullsUnicodeAndExtremes() throws {
        let columns: [FakeSocrataPortal.Column] = [
            .init("words", "text"), .init("amount", "number"), .init("price", "money"), .init("ratio", "double"),
            .init("share", "percent"), .init("flag", "checkbox"), .init("day", "calendar_date"), .init("stamp", "date"),
            .init("link", "url"), .init("place", "location"), .init("spot", "point"), .init("area", "polygon"),
        ]
        let texts = ["Ünïcode — 東京 🚲", "", "quote \" and\nnewline", String(repeating: "長", count: 400)]
        let numbers = ["-9223372036854775808", "0.000001", "123456789012.345", "1e3"]
        let days = ["1900-01-01T00:00:00", "2999-12-31T23:59:59.999", "1969-12-31T23:59:59", "2015-03-01T12:00:00"]
        let rows = (0..<8).map { index -> FakeSocrataPortal.Row in
            guard index % 4 != 3 else { return .init(id: "row-\(index)", createdAt: 1_420_070_400, updatedAt: 1_420_070_400, cells: [:]) }
            let pick = index % 4
            return .init(id: "row-\(index)", createdAt: 1_420_070_400 + index, updatedAt: 1_420_070_400 + index, cells: [
                "words": .text(texts[pick]), "amount": .number(numbers[pick]), "price": .number(["0.01", "-1234567.89", "0"][pick]),
                "ratio": .number(["1.5e300", "-2.5e-300", "0.1"][pick]), "share": .number(["12.5", "100", "-0.25"][pick]),
                "flag": .checkbox(pick == 0), "day": .calendarDate(days[pick]), "stamp": .timestamp([-2_208_988_800, 32_503_680_000, 0][pick]),
                "link": .url("https://example.org/\(index)", description: pick == 1 ? nil : "Ü \(index)"),
                "place": .location(address: "{\"address\": \"1 Main St\"}", latitude: ["41.8", "-89.999999", "0"][pick],
                                   longitude: ["-87.6", "179.999999", "0"][pick]),
                "spot": .point(longitude: ["-87.6", "2.35", "0"][pick], latitude: ["41.8", "48.85", "0"][pick]),
                "area": .shape(wkt: "POLYGON ((0 0, 1 0, 1 1, 0 0))", geoJSON: #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}"#),
            ])
        }
        let portal = try FakeSocrataPortal(datasetID: "type-0001", columns: columns, rows: rows, rowsUpdatedAt: 1_430_000_000)
        defer { portal.stop() }
        for api in ["rows", "soda2"] {
            let db = "types-\(api).sqlite"
            let fetched = try run(["fetch", "type-0001", "--domain", portal.baseURL, "--api", api, "--db", db, "--quiet"])
            XCTAssertEqual(fetched.status, 0, fetched.stderr)
            let export = try run(["export", "type_0001", "--db", db, "--format", "parquet", "-o", "\(api).parquet"])
            XCTAssertEqual(export.status, 0, export.stderr)
            let compared = try ChildProcess.run(try Self.python(), ["-c", Self.comparison, directory.path("\(api).parquet"),
                                                                    directory.path(db), "type_0001"])
            XCTAssertEqual(compared.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "8 8 0 8", "\(api): \(compared.stderr)")
            let types = try ChildProcess.run(try Self.python(), ["-c", """
                import sys, pyarrow.parquet as pq
                s = pq.read_schema(sys.argv[1])
                print(" ".join(str(s.field(n).type) for n in ["flag", "day", "stamp", "ratio"]), s.field("amount").type.scale)
                """, directory.path("\(api).parquet")])
            XCTAssertEqual(types.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                           "bool timestamp[us] timestamp[us, tz=UTC] double 6", "\(api): \(types.stderr)")
            // The default, GeoParquet: the location, the point and the polygon as WKB.
            XCTAssertEqual(try run(["export", "type_0001", "--db", db, "-o", "\(api)-geo.parquet"]).status, 0)
        }
    }

    func testATableFromPostgreSQLIsTheSameFileAsFromSQLite() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is not here") }
        let database = try TestPostgreSQL.makeDatabase()
        let file = shared.appendingPathComponent("mwda-nf2p.rows.json").path
        for db in [directory.path("lite.sqlite"), database.url] {
            XCTAssertEqual(try run(["fetch", file, "--db", db, "--quiet"]).status, 0)
        }
        XCTAssertEqual(try run(["export", "mwda_nf2p", "--db", directory.path("lite.sqlite"), "-o", "lite/t.parquet"]).status, 0)
        let fromPostgreSQL = try run(["export", "mwda_nf2p", "--db", database.url, "-o", "pg/t.parquet", "--compression", "snappy"])
        XCTAssertEqual(fromPostgreSQL.status, 0, fromPostgreSQL.stderr)
        let compared = try ChildProcess.run(try Self.python(), ["-c", """
            import sys, pyarrow.parquet as pq
            a, b = pq.read_table(sys.argv[1]), pq.read_table(sys.argv[2])
            print(a.num_rows, a.schema.remove_metadata().equals(b.schema.remove_metadata()), a.equals(b))
            """, directory.path("lite/t.parquet"), directory.path("pg/t.parquet")])
        XCTAssertEqual(compared.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(try rowCount(of: file)) True True", compared.stderr)

        // PostgreSQL keeps every digit of a numeric: past 38 of them, the column is text with
        // the exact digits, and said so; within, a DECIMAL as wide as the values need.
        for statement in ["create table wide_numbers (long numeric, short numeric)",
                          "insert into wide_numbers values (123456789012345678901234567890.123456789012, -0.000125), (1.5, 99999)"] {
            let made = try run(["query", statement, "--db", database.url, "--write"])
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        let wide = try run(["export", "wide_numbers", "--db", database.url, "-o", "wide.parquet"])
        XCTAssertEqual(wide.status, 0, wide.stderr)
        XCTAssertTrue(wide.stderr.contains("Warning: long: its values need 42 digits, more than a Parquet DECIMAL's 38, "
                                           + "so it is written as text with the exact digits"), wide.stderr)
        let read = try ChildProcess.run(try Self.python(), ["-c", """
            import sys, pyarrow.parquet as pq
            t = pq.read_table(sys.argv[1])
            print(t.schema.field("long").type, t.column("long").to_pylist(), t.schema.field("short").type, t.column("short").to_pylist())
            """, directory.path("wide.parquet")])
        XCTAssertEqual(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       "string ['123456789012345678901234567890.123456789012', '1.5'] decimal128(11, 6) "
                       + "[Decimal('-0.000125'), Decimal('99999.000000')]", read.stderr)
    }

    private func rowCount(of export: String) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as? [String: Any]
        return (object?["data"] as? [Any])?.count ?? -1
    }

    func testHostileTablesMakeValidFilesOrOneClearError() throws {
        let names = ["quote\"d", "dot.ted", String(repeating: "é", count: 150), "spa ce"]
        let quoted = { (name: String) in "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var sql = "create table \(quoted(names[0])) (\(names.map { quoted($0) + " text" }.joined(separator: ", ")), n numeric, blank integer);"
        sql += "insert into \(quoted(names[0])) values ('a', 'b', 'c', 'd', '12.25', null);"
        sql += "insert into \(quoted(names[0])) values (null, null, null, null, '-1.5', null);"
        sql += "create table wide (\((1...2_000).map { "c\($0) integer" }.joined(separator: ", ")));"
        sql += "insert into wide values (\((1...2_000).map(String.init).joined(separator: ", ")));"
        sql += "create table empty (a text, b real); create table strict (k integer not null, v text);"
        sql += "create table docs (j json); insert into docs values ('{\"a\": [1, \"é\"]}'), ('plain text'), (null);"
        sql += "insert into strict values (1, 'x'); insert into strict values ('not a number', 'y');"
        let made = try ChildProcess.run("/usr/bin/sqlite3", [directory.path("h.sqlite"), sql])
        XCTAssertEqual(made.status, 0, made.stderr)
        let odd = try run(["export", names[0], "--db", "h.sqlite", "-o", "odd.parquet"])
        XCTAssertEqual(odd.status, 0, odd.stderr)
        for (table, file) in [("wide", "wide.parquet"), ("empty", "empty.parquet")] {
            let export = try run(["export", table, "--db", "h.sqlite", "-o", file])
            XCTAssertEqual(export.status, 0, export.stderr)
        }
        let read = try ChildProcess.run(try Self.python(), ["-c", """
            import sys, pyarrow.parquet as pq
            odd, wide, empty = (pq.read_table(p) for p in sys.argv[1:4])
            print(odd.column_names[:4] == sys.argv[4:8], odd.column("n").to_pylist(), odd.column("blank").to_pylist(), odd.schema.field("blank").type)
            print(wide.num_columns, wide.column("c2000").to_pylist(), empty.num_rows, empty.num_columns)
            """, directory.path("odd.parquet"), directory.path("wide.parquet"), directory.path("empty.parquet")] + names)
        XCTAssertEqual(read.stdout, """
            True [Decimal('12.25'), Decimal('-1.50')] [None, None] int64
            2000 [2000] 0 2
            """ + "\n", read.stderr)
        // A NOT NULL column with a value that is not of its type: one line naming it, no file.
        let strict = try run(["export", "strict", "--db", "h.sqlite", "-o", "strict.parquet"])
        XCTAssertEqual(strict.status, 65, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("row 2, column k: \"not a number\" is not a whole number, and the column is NOT NULL"),
                      strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("strict.parquet")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter { $0.hasSuffix(".part") }, [],
                       "no temporary file left behind")
        // A JSON column's plain text is the JSON string it stands for: every reader takes the file.
        XCTAssertEqual(try run(["export", "docs", "--db", "h.sqlite", "-o", "docs.parquet"]).status, 0)
        let json = try ChildProcess.run(try Self.python(), ["-c", """
            import sys, duckdb
            print(duckdb.connect().execute("select j::varchar from read_parquet(?)", [sys.argv[1]]).fetchall())
            """, directory.path("docs.parquet")])
        XCTAssertEqual(json.stdout.trimmingCharacters(in: .whitespacesAndNewlines), #"[('{"a": [1, "é"]}',), ('"plain text"',), (None,)]"#, json.stderr)
        // A folder takes TABLE.parquet; a symbolic link is written through; a device is refused.
        try FileManager.default.createDirectory(atPath: directory.path("into"), withIntermediateDirectories: true)
        XCTAssertEqual(try run(["export", "empty", "--db", "h.sqlite", "-o", "into"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path("into/empty.parquet")))
        try FileManager.default.createSymbolicLink(atPath: directory.path("link.parquet"), withDestinationPath: directory.path("into/empty.parquet"))
        XCTAssertEqual(try run(["export", "empty", "--db", "h.sqlite", "-o", "link.parquet", "--no-datapackage"]).status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: directory.path("link.parquet")),
                       directory.path("into/empty.parquet"), "the link stays a link")
        let device = try run(["export", "empty", "--db", "h.sqlite", "-o", "/dev/null"])
        XCTAssertEqual(device.status, 74, device.stderr)
        XCTAssertTrue(device.stderr.contains("/dev/null: is not a regular file"), device.stderr)
        // Whole numbers with NULLs validate (pandas hands frictionless "nan" for them); a row of
        // NULLs is data here, not the blank line frictionless looks for in CSV.
        let frictionless = try PythonEnvironment.python(named: "frictionless-venv", installing: ["frictionless[parquet]", "pandas", "pyarrow"])
        let validated = try ChildProcess.run(frictionless, ["-c", """
            import sys, frictionless
            report = frictionless.validate(sys.argv[1], skip_errors=["blank-row"])
            print(report.valid, [e.message for task in report.tasks for e in task.errors][:2])
            """, directory.path("datapackage.json")])
        XCTAssertEqual(validated.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "True []", validated.stderr)
        XCTAssertEqual(try run(["export", "nosuch", "--db", "h.sqlite"]).status, 66)
        XCTAssertEqual(try run(["export", "wide", "--db", "h.sqlite", "--compression", "lzo"]).status, 64)
    }
}
