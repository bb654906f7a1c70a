import Foundation
import SocloadDatabase
@testable import SocloadPostgreSQL
import SocloadSocrata
import XCTest

/// Values the converter gives, sent in binary, read back by the server as it reads the same
/// text: decimals keep their digits and scale, timestamps their instant; what PostgreSQL cannot
/// store is counted as not storable instead of failing the load.
final class PostgreSQLValueTests: PostgreSQLTestCase {
    func testDecimalsAndTimestampsArriveAsTheServerReadsTheirText() throws {
        let decimals = ["0", "-0", "1", "-1", "12.50", "0.005", "-0.0001", "1.5e3", "1.50e1", "2E-3", "123456789012345678901234567890.123",
                        "10000", "99990000", "0.00010000", "+7", "5.", ".5", "1e20", "-9.999e-7", "100.000",
                        "9223372036854775807.5", "-922337203685477580.8", "0.000000000000000000001", "-0.00", "1e18", "1e19"]
        let timestamps = ["2015-01-01T00:00:00Z", "1969-12-31T23:59:59.999Z", "0001-01-01T00:00:00Z", "2000-02-29T12:34:56.789Z",
                          "9999-12-31T23:59:59Z", "1899-06-15T08:00:00.5Z"]
        let floating = ["2013-10-28T00:00:00", "2013-10-28T13:45", "2013-10-28 13:45:10.123456", "2013-10-28T13:45:10.1234567",
                        "2013-10-28", "2016-02-29T23:59:59+02:00"]
        let rows = (0..<max(decimals.count, timestamps.count, floating.count)).map { index in
            [index < decimals.count ? JSONValue.quoted(decimals[index]) : "null",
             index < timestamps.count ? JSONValue.quoted(timestamps[index]) : "null",
             index < floating.count ? JSONValue.quoted(floating[index]) : "null"]
        }
        let path = try write("values.json", Self.rowsJSON(columns: [("amount", "number"), ("at", "date"), ("local", "calendar_date")],
                                                          rows: rows))
        let summary = try load(file: path, table: "vals")
        XCTAssertEqual(summary.invalidCells, [])
        let stored = try self.rows("SELECT amount::text, at::text, local::text FROM vals ORDER BY ctid")
        XCTAssertEqual(stored.count, rows.count)
        for (index, row) in stored.enumerated() {
            if index < decimals.count {
                XCTAssertEqual(row[0], try value("SELECT $1::numeric::text", [decimals[index]]), decimals[index])
            }
            if index < timestamps.count {
                XCTAssertEqual(row[1], try value("SELECT $1::timestamptz::text", [timestamps[index]]), timestamps[index])
            }
            if index < floating.count {
                XCTAssertEqual(row[2], try value("SELECT $1::timestamp::text", [floating[index]]), floating[index])
            }
        }
    }

    func testValuesPostgreSQLCannotStoreAreCountedAsInvalidWithANote() throws {
        let path = try write("nul.json", Self.rowsJSON(columns: [("label", "text"), ("at", "date"), ("doc", "text"), ("amount", "number")],
                                                       rows: [[#""a\u0000b""#, "\"2015-01-01T00:00:00Z\"", #"{"k":"x\u0000"}"#, "\"1e-20000\""],
                                                              [#""fine""#, "9300000000000", "null", "\"2\""],
                                                              [#""ok""#, "\"2015-01-02T00:00:00Z\"", #"[1,2]"#, "\"3.25\""],
                                                              [#""far""#, "9000000000000", "null", "null"]]))
        let summary = try load(file: path, table: "nul")
        let byColumn = Dictionary(uniqueKeysWithValues: summary.invalidCells.map { ($0.column, $0) })
        XCTAssertEqual(byColumn["label"]?.count, 1)
        XCTAssertEqual(byColumn["label"]?.destinationNote, "PostgreSQL cannot store them")
        XCTAssertEqual(byColumn["at"]?.count, 1, "epoch seconds past year 294276")
        XCTAssertEqual(byColumn["amount"]?.count, 1, "20000 digits after the point")
        XCTAssertTrue(byColumn["label"]?.summary.contains("(PostgreSQL cannot store them)") ?? false)
        let stored = try rows("SELECT label, at::text, amount::text FROM nul ORDER BY ctid")
        XCTAssertEqual(stored[0][0], nil)
        XCTAssertEqual(stored[1][0], "fine")
        XCTAssertEqual(stored[1][1], nil)
        XCTAssertEqual(stored[0][2], nil)
        XCTAssertEqual(stored[2], ["ok", "2015-01-02 00:00:00+00", "3.25"])
        // Year 287168 is within timestamptz's range: stored, as SQLite stores it.
        XCTAssertEqual(stored[3], ["far", "287168-08-24 16:00:00+00", nil])
    }

    func testJSONColumnsHoldJSONAndPlainStringsAsJSONStrings() throws {
        let path = try write("json.json", Self.rowsJSON(columns: [("doc", "text")],
                                                        rows: [[#"{"a":[1,2]}"#], [#""plain text""#], [#""[3]""#], [#"{"k":"\u0000"}"#]]))
        var request = LoadRequest(reference: DatasetReference(location: .file(path), datasetID: "test-0001", domain: nil), tableName: "docs")
        request.typeOverrides = ["doc": .json]
        let summary = try loader().load(request)
        XCTAssertEqual(summary.invalidCells.first?.count, 1, "the \\u0000 escape, which jsonb refuses")
        XCTAssertEqual(try rows("SELECT doc::text, jsonb_typeof(doc) FROM docs ORDER BY ctid"),
                       [[#"{"a": [1, 2]}"#, "object"], [#""plain text""#, "string"], ["[3]", "array"], [nil, nil]])
    }

    func testNamesLongerThan63BytesAreShortenedTheSameWayEveryTime() throws {
        let long = "a_column_name_that_goes_on_and_on_well_past_what_postgresql_allows_in_one_identifier"
        let other = long + "_too"
        let path = try write("long.json", Self.rowsJSON(columns: [(long, "text"), (other, "text")], rows: [[#""x""#, #""y""#]]))
        let tableName = String(repeating: "t", count: 70)
        let first = try load(file: path, table: tableName)
        let second = try load(file: path, table: tableName)
        let shortTable = LoadPlan.shortenedName(tableName, toBytes: 63)
        XCTAssertEqual(first.tableName, shortTable)
        XCTAssertEqual(second.tableName, shortTable)
        XCTAssertEqual(shortTable.utf8.count, 63)
        let columns = try rows("SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position",
                               [shortTable]).map { $0[0] ?? "" }
        XCTAssertEqual(columns, ["_id", LoadPlan.shortenedName(long, toBytes: 63), LoadPlan.shortenedName(other, toBytes: 63)])
        XCTAssertNotEqual(columns[1], columns[2])
        // The catalog maps each field to the column it became.
        let mapping = try XCTUnwrap(second.catalogEntry.columnMappingJSON)
        XCTAssertTrue(mapping.contains(LoadPlan.shortenedName(long, toBytes: 63)), mapping)
        XCTAssertEqual(try value("SELECT count(*) FROM _socload_datasets"), "1")
    }

    func testAKeyThatIsDuplicatedOrEmptyNamesItsRows() throws {
        let duplicate = #"{"meta":{"view":{"id":"test-0001","name":"T","columns":[{"id":-1,"name":"id","dataTypeName":"meta_data","fieldName":"id","position":0},{"id":1,"name":"n","dataTypeName":"text","fieldName":"n","position":1}]}},"data":[["A","x"],["B","y"],["A","z"]]}"#
        let path = try write("dup.json", duplicate)
        XCTAssertThrowsError(try load(file: path, table: "dup")) { error in
            XCTAssertEqual(error as? LoadError, .duplicateKey(table: "dup", key: "_id", value: "\"A\"", rows: [1, 3]))
        }
        let empty = duplicate.replacingOccurrences(of: #"["B","y"]"#, with: #"[null,"y"]"#)
        XCTAssertThrowsError(try load(file: try write("null.json", empty), table: "dup")) { error in
            XCTAssertEqual(error as? LoadError, .nullKey(table: "dup", column: "_id", row: 2))
        }
        XCTAssertEqual(try value("SELECT to_regclass('dup') IS NULL"), "t")
        XCTAssertEqual(try value("SELECT count(*) FROM pg_class WHERE relname LIKE '\\_socload\\_new%'"), "0")
    }
}

/// Names from data that are hostile or odd, in a schema and a table named oddly too: quoted in
/// every statement of the load, the swap, sync's upsert and the read commands.
final class PostgreSQLHostileNameTests: PostgreSQLTestCase {
    func testHostileAndLongNamesAreQuotedEverywhere() throws {
        let long = String(repeating: "x", count: 10_000)
        let accented = String(repeating: "é", count: 40)   // 80 bytes: cut at a character boundary
        let columns = [("a", "text"), (long, "text"), ("q\"uote", "text"), ("\"); DROP TABLE t; --", "text"), ("select", "text"),
                       ("order", "number"), ("_socload_datasets", "text"), ("A", "text"), (accented, "text"), ("naïve \\ col", "text")]
        let row = columns.indices.map { "\"v\($0)'\\\"; --\"" }
        let path = try write("hostile.json", Self.rowsJSON(columns: columns, rows: [row, row.map { _ in "null" }]))
        let schema = "sch\"ema; DROP"
        let table = "t\"able'; DROP TABLE x; --"
        try database.connect().execute("CREATE TABLE x (a int)")
        var request = LoadRequest(reference: DatasetReference(location: .file(path), datasetID: nil, domain: nil), tableName: table)
        request.indexes = [["select", "order"]]
        let first = try loader(schema: schema).load(request)
        let second = try loader(schema: schema).load(request)   // the swap, with the index rebuilt
        XCTAssertEqual(first.tableName, table)
        XCTAssertEqual(second.rowCount, 2)
        let stored = try rows("""
            SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position
            """, [schema, table]).map { $0[0] ?? "" }
        XCTAssertEqual(stored.count, columns.count + 1)
        XCTAssertTrue(stored.allSatisfy { $0.utf8.count <= 63 }, "\(stored)")
        XCTAssertTrue(stored.contains("\"); DROP TABLE t; --"))
        XCTAssertTrue(stored.contains(LoadPlan.shortenedName(accented, toBytes: 63)))
        XCTAssertEqual(String(decoding: LoadPlan.shortenedName(accented, toBytes: 63).utf8, as: UTF8.self).unicodeScalars.first, "é")
        XCTAssertEqual(try value("SELECT to_regclass('x') IS NOT NULL"), "t")
        XCTAssertEqual(try value("SELECT count(*) FROM pg_indexes WHERE schemaname = $1 AND tablename = $2", [schema, table]), "2")

        let reader = PostgreSQLDatabase(connection: try database.connect(), schema: schema)
        XCTAssertEqual(try reader.tables().map(\.name), [table])
        let query = try reader.selectQuery(from: table, columns: ["\"); DROP TABLE t; --", "select"],
                                           where: RowFilter.equals("q\"uote", "v2'\"; --") && .isNull("order"))
        var found: [[DatabaseValue]] = []
        try reader.read(query, columns: { _ in }) { found.append($0) }
        XCTAssertEqual(found, [[.text("v3'\"; --"), .text("v4'\"; --")]])
        XCTAssertTrue(try reader.definition(of: table)[0].hasPrefix("CREATE TABLE \"sch\"\"ema; DROP\".\"t\"\"able'; DROP TABLE x; --\" ("))
        XCTAssertEqual(try reader.drop(table), table)
        XCTAssertEqual(try value("SELECT count(*) FROM pg_class WHERE relname = $1", [table]), "0")
        XCTAssertEqual(try value("SELECT to_regclass('x') IS NOT NULL"), "t")
    }
}
