import Foundation
import SocloadTestSupport
import XCTest

/// Hostile names and values at the edges of the types: quoted, refused or counted, never a crash.
extension HostileInputTests {
    func testHostileTableNameLoads() throws {
        let path = directory.path("simple.json")
        try Data(Self.simple.utf8).write(to: URL(fileURLWithPath: path))
        let run = try SocloadProcess.run(["fetch", path, "--table", "select \"x\"; --", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try SocloadProcess.run(["query", "select a from \"select \"\"x\"\"; --\"", "--db", db, "--format", "csv"])
        XCTAssertEqual(rows.stdout, "a\r\nx\r\ny\r\n")
    }

    func testSocloadsOwnTableNamesAreRefused() throws {
        let path = directory.path("simple.json")
        try Data(Self.simple.utf8).write(to: URL(fileURLWithPath: path))
        for name in ["_socload_datasets", "sqlite_master"] {
            let before = try snapshot()
            let run = try SocloadProcess.run(["fetch", path, "--table", name, "--db", db])
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertEqual(run.stderr, "Error: '\(name)' is reserved for socload's or SQLite's own use; choose another --table\n")
            XCTAssertEqual(try snapshot(), before)
        }
    }

    func testMetadataNumbersOutOfRangeAreIgnored() throws {
        for number in ["10000000000000000", "9223372036854775807", "-9223372036854775808", "1e300"] {
            let text = Self.simple.replacingOccurrences(of: #"{"view":{"#, with: #"{"view":{"rowsUpdatedAt":\#(number),"#)
            XCTAssertEqual(try loaded(bytes(text), "select count(*) as n from t"), "n\r\n2\r\n", number)
            XCTAssertEqual(try SocloadProcess.run(["query", "select rows_updated_at from _socload_datasets", "--db", db,
                                                   "--format", "csv"]).stdout, "rows_updated_at\r\n\r\n", number)
        }
    }

    func testTimestampsOutOfRangeAreNotTimestamps() throws {
        let rows = [#"["-9223372036854775808"]"#, #"[9223372036854775807]"#, #"["99999999999999"]"#, #"[1446120000]"#]
        let output = try loaded(doc([("d", "date")], rows), "select d from t order by rowid")
        XCTAssertEqual(output, "d\r\n\r\n\r\n\r\n2015-10-29T12:00:00Z\r\n")
    }

    func testMissingDataIsBadData() throws {
        try assertRejected(bytes(#"{"meta":{"view":{"id":"host-0001","columns":[{"fieldName":"a","dataTypeName":"text"}]}}}"#),
                           "the document has no 'data' member")
    }

    func testTwoDataMembersAreBadData() throws {
        let twice = Self.simple.dropLast() + #","data":[["z","3"]]}"#
        try assertRejected(bytes(String(twice)), "the member 'data' appears twice")
        let twoMetas = Self.simple.dropLast() + #","meta":{"view":{"columns":[]}}}"#
        try assertRejected(bytes(String(twoMetas)), "the member 'meta' appears twice")
    }

    /// The metadata follows RFC 8259 strictly, and a name given twice in `meta`, `view` or a column
    /// (which of the two counts is undefined) is bad data naming where.
    func testLenientMetadataIsBadData() throws {
        let column = #"{"fieldName":"a","dataTypeName":"text"}"#
        func meta(_ view: String) -> [UInt8] { bytes(#"{"meta":"# + view + #","data":[["x"]]}"#) }
        try assertRejected(meta(#"{"view":{"id":"host-0001","columns":["# + column + ",]}}"), "malformed JSON: unexpected ']' at byte")
        try assertRejected(meta(#"{"view":{"id":"host-0001","columns":["# + column + "],}}"), "malformed JSON: unexpected '}' at byte")
        try assertRejected(meta(#"{"view":{"id":"host-0001","columns":["# + column + "]},}"), "malformed JSON: unexpected '}' at byte")
        try assertRejected(meta(#"{"view":{"id":"host-0001","columns":[{"fieldName":"a","dataTypeName":"text","position":01}]}}"#),
                           "malformed JSON: unexpected '1' at byte 96")
        try assertRejected(meta(#"{"view":{"id":"host-0001","columns":["# + column + #"]},"view":{}}"#),
                           #"the name "view" appears twice in meta (second at byte 87)"#)
        try assertRejected(meta(#"{"view":{"id":"host-0001","id":"host-0002","columns":["# + column + "]}}"),
                           #"the name "id" appears twice in meta.view (second at byte 34)"#)
        try assertRejected(meta(#"{"view":{"id":"host-0001","columns":["# + column + #",{"fieldName":"b","fieldName":"c"}]}}"#),
                           #"the name "fieldName" appears twice in meta.view.columns[1]"#)
        // Duplicates where they change nothing socload reads are not refused.
        XCTAssertEqual(try loaded(meta(#"{"view":{"id":"host-0001","metadata":{"k":1,"k":2},"columns":[{"fieldName":"a","dataTypeName":"text","format":{"f":1,"f":1}}]}}"#),
                                  "select a from t"), "a\r\nx\r\n")
    }

    /// A table named after a 4x4 id that starts with a digit keeps its name; `tables` shows how
    /// to write it, and the SQL error says so.
    func testANameThatStartsWithADigit() throws {
        let path = directory.path("5mtp-qs2h.json")
        try Data(Self.simple.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try SocloadProcess.run(["fetch", path, "--db", db]).status, 0)
        XCTAssertTrue(try SocloadProcess.run(["tables", "--db", db, "--format", "csv"]).stdout.contains("5mtp_qs2h,2,\"\"\"5mtp_qs2h\"\"\"\r\n"))
        let bare = try SocloadProcess.run(["query", "select count(*) from 5mtp_qs2h", "--db", db])
        XCTAssertEqual(bare.status, 74)
        XCTAssertTrue(bare.stderr.hasSuffix(#"; a name that starts with a digit is written in double quotes: "5mtp_qs2h""# + "\n"), bare.stderr)
        XCTAssertEqual(try SocloadProcess.run(["query", #"select count(*) as n from "5mtp_qs2h""#, "--db", db, "--format", "csv"]).stdout,
                       "n\r\n2\r\n")
    }

    func testNoColumnsIsBadData() throws {
        try assertRejected(doc([], []), "the dataset's metadata describes no column")
    }

    func testANulInANameIsBadData() throws {
        let nul = #"{"meta":{"view":{"id":"host-0001","columns":[{"fieldName":"a\u0000b","dataTypeName":"text"}]}},"data":[["x"]]}"#
        try assertRejected(bytes(nul), #"the column name "a\u0000b" has a NUL character"#)
    }

    /// `--db` is a plain path: no URI, and nothing that would load into a database never saved.
    func testDatabaseNamesThatSaveNothingAreUsageErrors() throws {
        let path = directory.path("simple.json")
        try Data(Self.simple.utf8).write(to: URL(fileURLWithPath: path))
        for name in ["", ":memory:", "file:x.sqlite?mode=memory", "FILE:y.sqlite?vfs=unix-none"] {
            let run = try SocloadProcess.run(["fetch", path, "--table", "t", "--db", name])
            XCTAssertEqual(run.status, 64, name)
            XCTAssertTrue(run.stderr.hasPrefix("Error: --db "), run.stderr)
            XCTAssertFalse(run.stderr.contains("Loaded"), run.stderr)
        }
        for name in ["file:x.sqlite?mode=memory"] {
            XCTAssertEqual(try SocloadProcess.run(["query", "select 1", "--db", name]).status, 64)
            XCTAssertEqual(try SocloadProcess.run(["sync", "t", "--db", name]).status, 64)
        }
        XCTAssertEqual(try SocloadProcess.run(["sync", "t", "--db", ""]).status, 64)
        // A file whose name starts with file: is written as ./file:...
        let plain = directory.path("file:plain.sqlite")
        let run = try SocloadProcess.run(["fetch", path, "--table", "t", "--db", "./file:plain.sqlite"],
                                         directory: directory.url)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: plain))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("x.sqlite")))
    }

    func testEmptyDataLoadsAnEmptyTable() throws {
        XCTAssertEqual(try loaded(doc([("a", "text")], []), "select count(*) as n from t"), "n\r\n0\r\n")
    }

    // MARK: - Valid but odd: loads correctly

    func testByteOrderMarkLoads() throws {
        XCTAssertEqual(try loaded([0xEF, 0xBB, 0xBF] + bytes(Self.simple), "select a, n from t"), "a,n\r\nx,1\r\ny,2\r\n")
    }

    func testOddFieldNamesLoad() throws {
        let long = String(repeating: "x", count: 10_000)
        let columns = [("a", "text"), ("a", "text"), ("", "text"), (long, "text"), ("q\"uote", "text"),
                       ("\"); DROP TABLE t; --", "text"), ("select", "text"), ("order", "number"),
                       ("_socload_datasets", "text"), ("A", "text")]
        let row = "[" + (0..<columns.count).map { "\"v\($0)\"" }.joined(separator: ",") + "]"
        let output = try loaded(bytes(Self.document(columns: columns, rows: [row])),
                                "select name from pragma_table_info('t')")
        let names = output.split(separator: "\r\n").dropFirst().map(String.init)
        XCTAssertEqual(names, ["a", "a_2", "column_3", long, "\"q\"\"uote\"", "\"\"\"); DROP TABLE t; --\"", "select", "order",
                               "_socload_datasets", "A_3"])
        XCTAssertEqual(try SocloadProcess.run(["query", "select \"order\", \"select\" from t", "--db", db, "--format", "csv"]).stdout,
                       "order,select\r\n,v6\r\n") // "v7" is no number: NULL
        let tables = try SocloadProcess.run(["tables", "--db", db, "--format", "csv"]).stdout
        XCTAssertEqual(tables, "table,rows,in_sql\r\nt,1,t\r\n")
    }

    func testUnknownTypesAndOddNumbersLoad() throws {
        let columns = [("mystery", "hologram"), ("n", "number"), ("d", "double")]
        let rows = [#"[{"x":[1,2]},"NaN","NaN"]"#, #"["plain","1e999","1e999"]"#, #"[null,"-0","-0"]"#,
                    #"[null,"123456789012345678901234567890","2.5"]"#, #"[null,"1,234.5","Infinity"]"#, #"[null,"$-3","x"]"#]
        let output = try loaded(bytes(Self.document(columns: columns, rows: rows)),
                                "select mystery, n, typeof(n), d, typeof(d) from t order by rowid")
        XCTAssertEqual(output, """
            mystery,n,typeof(n),d,typeof(d)\r
            "{""x"":[1,2]}",,null,,null\r
            plain,,null,,null\r
            ,0,integer,0.0,real\r
            ,1.2345678901234568e+29,real,2.5,real\r
            ,1234.5,real,,null\r
            ,-3,integer,,null\r

            """)
    }

    func testAFiftyMegabyteCellLoads() throws {
        let big = String(repeating: "é", count: 25_000_000) // 50 MB of UTF-8
        let output = try loaded(bytes(Self.document(columns: [("a", "text")], rows: ["[\"" + big + "\"]", #"["small"]"#])),
                                "select length(a), substr(a, 1, 3) from t order by rowid")
        XCTAssertEqual(output, "length(a),\"substr(a, 1, 3)\"\r\n25000000,ééé\r\n5,sma\r\n")
    }
}

/// Stored values, checked through the command a user runs: a checkbox's false is 0, not NULL or 1.
final class StoredValueTests: XCTestCase {
    func testCheckboxCellsAreStoredAsZeroOneOrNull() throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("values.sqlite")
        let cells = [#"true"#, #"false"#, #"null"#, #""true""#, #""false""#, #""1""#, #""0""#, #"1"#, #"0"#, #"0.0"#, #"-0.0"#, #"2"#]
        let document = HostileInputTests.document(columns: [("i", "number"), ("flag", "checkbox")],
                                                  rows: cells.enumerated().map { "[\($0.offset),\($0.element)]" })
        let path = directory.path("flags.json")
        try Data(document.utf8).write(to: URL(fileURLWithPath: path))
        let fetch = try SocloadProcess.run(["fetch", path, "--table", "t", "--db", db])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        let stored = try SocloadProcess.run(["query", "select group_concat(coalesce(flag, 'NULL') || ':' || typeof(flag), ' ') from (select flag from t order by i)",
                                             "--db", db, "--format", "csv"]).stdout
        XCTAssertEqual(stored.split(separator: "\r\n").last.map(String.init),
                       "1:integer 0:integer NULL:null 1:integer 0:integer 1:integer 0:integer 1:integer 0:integer 0:integer 0:integer 1:integer")
    }
}
