import Foundation
import SocloadParquet
import SocloadTestSupport
import XCTest

/// The Parquet writer alone, read back by the readers people use: pyarrow (schema with logical
/// types, every value, statistics) and DuckDB, on every physical and logical type, NULLs, a
/// group (GeoParquet's bbox), dictionary and PLAIN text, several row groups and pages, and each
/// compression.
final class ParquetFileWriterTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    static func python() throws -> String {
        try PythonEnvironment.python(named: "parquet-venv", installing: ["pyarrow", "duckdb"])
    }

    /// Runs `script` (with `sys.argv[1]` the file) and returns what it printed.
    static func read(_ path: String, _ script: String) throws -> String {
        let run = try ChildProcess.run(try python(), ["-c", script, path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let fields: [ParquetField] = [
        .column("text", .byteArray, .string),
        .column("whole", .int64, .int64),
        .column("real", .double),
        .column("flag", .boolean),
        .column("small decimal", .int32, .decimal(precision: 5, scale: 2)),
        .column("decimal", .int64, .decimal(precision: 18, scale: 3)),
        .column("big decimal", .fixedLenByteArray, .decimal(precision: 38, scale: 10), typeLength: 16),
        .column("day", .int32, .date),
        .column("instant", .int64, .timestampMicros(adjustedToUTC: true)),
        .column("wall clock", .int64, .timestampMicros(adjustedToUTC: false)),
        .column("json", .byteArray, .json),
        .column("id", .int64, .int64, optional: false),
        .group("bbox", [.column("xmin", .double, optional: false), .column("ymax", .double, optional: false)]),
    ]

    private static func row(_ index: Int) -> [ParquetFileWriter.Value] {
        let null = index % 7 == 3
        return [
            null ? .null : .string(index % 5 == 0 ? "Ünïcode — \(index % 3)" : "value \(index % 11)"),
            null ? .null : .int64(index % 2 == 0 ? Int64.max - Int64(index) : Int64.min + Int64(index)),
            null ? .null : .double(Double(index) / 8),
            null ? .null : .bool(index % 3 == 0),
            null ? .null : .int32(Int32(index % 1000) - 500),
            null ? .null : .int64(Int64(index) * 1_000_001),
            null ? .null : .decimal(Int128(index) * 12_345_678_901_234_567_890_123 * (index % 2 == 0 ? 1 : -1)),
            null ? .null : .int32(Int32(index) - 20_000),
            null ? .null : .int64(1_420_070_400_000_000 + Int64(index) * 1_000_001),
            null ? .null : .int64(Int64(index) * 60_000_000),
            null ? .null : .string(#"{"n": \#(index), "nested": [1, "é"]}"#),
            .int64(Int64(index)),
            null ? .null : .double(Double(index)), null ? .null : .double(Double(index) + 0.5),
        ]
    }

    func testEveryTypeReadsBackInPyarrowAndDuckDBWithEachCompression() throws {
        for compression in ParquetCompression.allCases {
            let path = directory.path("types-\(compression).parquet")
            let writer = try ParquetFileWriter(path: path, fields: Self.fields, compression: compression, rowGroupRows: 700)
            for index in 0..<2_000 { try writer.append(Self.row(index)) }
            try writer.finish(keyValues: [("socload", #"{"dataset": "ünï"}"#)])
            let schema = try Self.read(path, """
                import sys, pyarrow.parquet as pq
                f = pq.ParquetFile(sys.argv[1])
                print(f.schema_arrow)
                print(f.metadata.num_row_groups, f.metadata.num_rows, f.metadata.row_group(0).column(0).compression)
                print(f.schema_arrow.metadata[b'socload'].decode())
                """)
            XCTAssertEqual(schema.split(separator: "\n").map(String.init), [
                "text: string", "whole: int64", "real: double", "flag: bool", "small decimal: decimal128(5, 2)",
                "decimal: decimal128(18, 3)", "big decimal: decimal128(38, 10)", "day: date32[day]",
                "instant: timestamp[us, tz=UTC]", "wall clock: timestamp[us]", "json: extension<arrow.json>",
                "id: int64 not null", "bbox: struct<xmin: double not null, ymax: double not null>",
                "  child 0, xmin: double not null", "  child 1, ymax: double not null",
                "-- schema metadata --", #"socload: '{"dataset": "ünï"}'"#,
                "3 2000 \(compression == .none ? "UNCOMPRESSED" : compression.rawValue.uppercased())", #"{"dataset": "ünï"}"#,
            ], "\(compression)")
            XCTAssertEqual(try Self.read(path, Self.valueCheck), "rows 2000 bad 0 duckdb same True statistics right 36 of 36")
        }
    }

    /// Every value against the rows made again in Python; DuckDB's rows against pyarrow's; each
    /// row group's statistics against its values.
    private static let valueCheck = """
        import sys, datetime, decimal, duckdb, pyarrow as pa, pyarrow.parquet as pq, pyarrow.compute as pc
        D, utc = decimal.Decimal, datetime.timezone.utc
        table = pq.read_table(sys.argv[1])
        bad = 0
        for i, r in enumerate(table.to_pylist()):
            n = i % 7 == 3
            e = {
                "text": None if n else ("Ünïcode — %d" % (i % 3) if i % 5 == 0 else "value %d" % (i % 11)),
                "whole": None if n else ((2**63 - 1) - i if i % 2 == 0 else -(2**63) + i),
                "real": None if n else i / 8,
                "flag": None if n else i % 3 == 0,
                "small decimal": None if n else D(i % 1000 - 500).scaleb(-2),
                "decimal": None if n else D(i * 1000001).scaleb(-3),
                "big decimal": None if n else D(i * 12345678901234567890123 * (1 if i % 2 == 0 else -1)).scaleb(-10),
                "day": None if n else datetime.date(1970, 1, 1) + datetime.timedelta(days=i - 20000),
                "instant": None if n else datetime.datetime(1970, 1, 1, tzinfo=utc) + datetime.timedelta(microseconds=1420070400000000 + i * 1000001),
                "wall clock": None if n else datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=i * 60000000),
                "json": None if n else '{"n": %d, "nested": [1, "é"]}' % i,
                "id": i,
                "bbox": None if n else {"xmin": float(i), "ymax": i + 0.5},
            }
            if r != e:
                bad += 1
                if bad < 3: print(i, r, e)
        con = duckdb.connect()
        con.execute("SET TimeZone = 'UTC'")
        rows = con.execute("select * from read_parquet(?)", [sys.argv[1]]).fetchall()
        same = len(rows) == table.num_rows and all(
            tuple(v.replace(tzinfo=utc) if isinstance(v, datetime.datetime) and v.tzinfo else v for v in a)
            == tuple(b.values()) for a, b in zip(rows, table.to_pylist()))
        f = pq.ParquetFile(sys.argv[1])
        right = checked = 0
        for g in range(f.metadata.num_row_groups):
            part = f.read_row_group(g)
            for c in range(13):
                if c == 12: continue
                s = f.metadata.row_group(g).column(c).statistics
                column = part.column(c)
                if isinstance(column.type, pa.BaseExtensionType): column = pa.chunked_array([k.storage for k in column.chunks])
                if s is None or not s.has_min_max: continue
                checked += 1
                low, high = pc.min_max(column).values()
                smin, smax = (v.decode() if isinstance(v, bytes) else v for v in (s.min, s.max))
                ok = (smin == low.as_py() and smax == high.as_py() and s.null_count == column.null_count)
                right += ok
                if not ok: print(c, smin, low.as_py(), smax, high.as_py(), s.null_count, column.null_count)
        print("rows", table.num_rows, "bad", bad, "duckdb same", same, "statistics right", right, "of", checked)
        """

    func testADictionaryGivesWayToPlainPastItsLimitAndLongTextHasNoStatistics() throws {
        let path = directory.path("plain.parquet")
        let writer = try ParquetFileWriter(path: path, fields: [.column("few", .byteArray, .string), .column("unique", .byteArray, .string)])
        let long = String(repeating: "é", count: 300)
        for index in 0..<60_000 {
            try writer.append([.string(index % 3 == 0 ? "a" : "b"), .string(index == 5 ? long : "unique value number \(index)")])
        }
        try writer.finish()
        XCTAssertEqual(try Self.read(path, """
            import sys, pyarrow.parquet as pq
            f = pq.ParquetFile(sys.argv[1])
            t = f.read()
            few, unique = f.metadata.row_group(0).column(0), f.metadata.row_group(0).column(1)
            print(sorted(few.encodings), sorted(unique.encodings), unique.statistics.has_min_max, few.statistics.min, few.statistics.max)
            print(t.num_rows, t.column(1)[5].as_py() == "é" * 300, t.column(1)[59999].as_py(), t.column(0).value_counts().to_pylist())
            """), """
            ['PLAIN', 'RLE', 'RLE_DICTIONARY'] ['PLAIN', 'RLE'] False a b
            60000 True unique value number 59999 [{'values': 'a', 'counts': 20000}, {'values': 'b', 'counts': 40000}]
            """.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func testTimestampsWithManyDistinctValuesAreDeltaEncoded() throws {
        let path = directory.path("delta.parquet")
        let writer = try ParquetFileWriter(path: path, fields: [.column("at", .int64, .timestampMicros(adjustedToUTC: true))],
                                           rowGroupRows: 30_000)
        // Increasing, with NULLs, a step back, and the extremes (deltas that wrap).
        var expected: [Int64?] = []
        for index in 0..<70_000 {
            let value: Int64? = index % 10 == 9 ? nil : index == 500 ? .min : index == 501 ? .max : index == 40_000 ? -5
                : 1_420_070_400_000_000 + Int64(index) * 1_000_003
            expected.append(value)
            try writer.append([value.map { .int64($0) } ?? .null])
        }
        try writer.finish()
        let read = try Self.read(path, """
            import sys, pyarrow.parquet as pq, pyarrow as pa
            f = pq.ParquetFile(sys.argv[1])
            values = f.read().column(0).cast(pa.int64()).to_pylist()
            print(f.metadata.num_row_groups, sorted(set(e for g in range(f.metadata.num_row_groups) for e in f.metadata.row_group(g).column(0).encodings)))
            print(sum(1 for v in values if v is None), sum(v for v in values if v is not None) % 1000000007)
            """).split(separator: "\n").map(String.init)
        let nonNull = expected.compactMap { $0 }
        let sum = nonNull.reduce(Int128(0)) { $0 + Int128($1) }
        let modulus = Int128(1_000_000_007)
        XCTAssertEqual(read, ["3 ['DELTA_BINARY_PACKED', 'RLE']", "\(expected.count - nonNull.count) \(((sum % modulus) + modulus) % modulus)"])
    }

    func testAnEmptyFileHasItsSchemaAndNoRowGroup() throws {
        let path = directory.path("empty.parquet")
        try ParquetFileWriter(path: path, fields: Self.fields).finish()
        XCTAssertEqual(try Self.read(path, """
            import sys, duckdb, pyarrow.parquet as pq
            t = pq.read_table(sys.argv[1])
            print(t.num_rows, t.num_columns, duckdb.connect().execute("select count(*) from read_parquet(?)", [sys.argv[1]]).fetchone()[0])
            """), "0 13 0")
    }
}
