import Foundation
import SocloadTestSupport
import XCTest

/// Hostile and broken documents: each either fails with one line naming the problem and where,
/// exit 65, the previous table untouched — or, when valid but odd, loads correctly.
final class HostileInputTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("hostile.sqlite")
        let first = try SocloadProcess.run(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path,
                                            "--table", "t", "--db", db])
        XCTAssertEqual(first.status, 0, first.stderr)
    }

    static func document(columns: [(String, String)], rows: [String]) -> String {
        let meta = columns.map { #"{"fieldName":"# + quote($0.0) + #","dataTypeName":"# + quote($0.1) + "}" }.joined(separator: ",")
        return #"{"meta":{"view":{"id":"host-0001","columns":["# + meta + #"]}},"data":["# + rows.joined(separator: ",") + "]}"
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static let simple = document(columns: [("a", "text"), ("n", "number")], rows: [#"["x","1"]"#, #"["y","2"]"#])

    private func snapshot() throws -> String {
        let rows = try SocloadProcess.run(["query", "select * from t", "--db", db, "--format", "csv"]).stdout
        let catalog = try SocloadProcess.run(["query", "select * from _socload_datasets where table_name = 't'",
                                              "--db", db, "--format", "csv"]).stdout
        let tables = try SocloadProcess.run(["tables", "--db", db, "--format", "csv"]).stdout
        return rows + catalog + tables
    }

    private func fetch(_ bytes: [UInt8], name: String = "input.json") throws -> SocloadRun {
        let path = directory.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try SocloadProcess.run(["fetch", path, "--table", "t", "--db", db])
    }

    /// The document must fail: exit 65, one line containing `message`, nothing changed.
    private func assertRejected(_ bytes: [UInt8], _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try snapshot()
        let run = try fetch(bytes)
        XCTAssertEqual(run.status, 65, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("Error: "), run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains(message), "expected “\(message)” in: \(run.stderr)", file: file, line: line)
        XCTAssertTrue(run.stderr.hasSuffix("; t was not changed\n"), run.stderr, file: file, line: line)
        XCTAssertEqual(try snapshot(), before, "the previous table or catalog changed", file: file, line: line)
    }

    /// The document must load; returns `sql`'s CSV output on the new table.
    private func loaded(_ bytes: [UInt8], _ sql: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try fetch(bytes)
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        return try SocloadProcess.run(["query", sql, "--db", db, "--format", "csv"]).stdout
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    // MARK: - Broken documents: one test each

    private func doc(_ columns: [(String, String)], _ rows: [String]) -> [UInt8] {
        bytes(Self.document(columns: columns, rows: rows))
    }

    func testTruncatedInTheMetadata() throws {
        try assertRejected(Array(bytes(Self.simple).prefix(30)), "the document ends early, at byte 30")
    }

    func testTruncatedInARow() throws {
        let full = bytes(Self.simple)
        try assertRejected(Array(full.prefix(full.count - 8)), "the document ends early, at byte \(full.count - 8)")
    }

    func testTruncatedAtManyPoints() throws {
        let full = bytes(Self.simple)
        for length in [1, 9, 60, full.count - 20, full.count - 3, full.count - 1] {
            try assertRejected(Array(full.prefix(length)), "the document ends early, at byte \(length)")
        }
    }

    func testEmptyFile() throws {
        try assertRejected([], "the document ends early, at byte 0")
    }

    func testInvalidUTF8() throws {
        var document = doc([("a", "text")], [#"["ok"]"#, #"["bad "#])
        document += [0xC3, 0x28] + bytes(#""]]}"#)
        try assertRejected(document, "row 2 (byte ")
        try assertRejected(document, "invalid UTF-8 in a string at byte")
    }

    func testDataBeforeMeta() throws {
        try assertRejected(bytes(#"{"data":[["x"]],"meta":{"view":{"columns":[]}}}"#), "'data' comes before 'meta' (byte 8)")
    }

    func testNoMeta() throws {
        try assertRejected(bytes(#"{"other":1}"#), "no meta.view.columns in the document")
    }

    func testUnreadableColumns() throws {
        try assertRejected(bytes(#"{"meta":{"view":{"columns":{"a":1}}},"data":[]}"#), "unreadable meta.view")
    }

    func testNullDocument() throws {
        try assertRejected(bytes("null"), "malformed JSON at byte 0")
    }

    func testTopLevelArray() throws {
        try assertRejected(bytes("[]"), "expected '{', found '['")
    }

    func testRowWithFewerCells() throws {
        try assertRejected(doc([("a", "text"), ("b", "text")], [#"["x","y"]"#, #"["short"]"#]),
                           "row 2: 1 cell where the metadata has 2 columns")
    }

    func testRowWithMoreCells() throws {
        try assertRejected(doc([("a", "text")], [#"["x","y","z"]"#]), "row 1: 3 cells where the metadata has 1 columns")
    }

    func testRowThatIsAnObject() throws {
        try assertRejected(doc([("a", "text")], [#"{"a":1}"#]), "expected a row array, found '{'")
    }

    func testRowThatIsAString() throws {
        try assertRejected(doc([("a", "text")], [#""a string""#]), "expected a row array")
    }

    func testRawControlCharacterInAString() throws {
        try assertRejected(doc([("a", "text")], ["[\"raw\nnewline\"]"]), "row 1 (byte ")
    }

    func testTrailingCommaInARow() throws {
        try assertRejected(doc([("a", "text")], [#"["x",]"#]), "unexpected ']'")
    }

    func testInvalidEscape() throws {
        try assertRejected(doc([("a", "text")], [#"["\q"]"#]), "invalid escape sequence")
    }

    func testDeepNestingFailsWithoutCrashing() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try assertRejected(doc([("a", "json")], ["[" + deep + "]"]), "values nested more than 512 levels deep")
    }

    func testHTMLPageServedAsData() throws {
        try assertRejected(bytes("<!DOCTYPE html><html><body>Maintenance</body></html>"),
                           "received an HTML page where a JSON dataset was expected")
    }

    func testSocrataErrorEnvelopeServedAsData() throws {
        try assertRejected(bytes(#"{"code":"dataset.missing","error":true,"message":"Not found"}"#),
                           "received a Socrata error instead of a dataset: dataset.missing: Not found")
    }

    func testSocrataErrorCodeEnvelopeServedAsData() throws {
        try assertRejected(bytes(#"{"errorCode":"query.soql.no-such-column","message":"No such column"}"#),
                           "query.soql.no-such-column: No such column")
    }

    func testDuplicateRowIDs() throws {
        try assertRejected(doc([(":sid", "meta_data"), ("a", "text")], [#"["row-1","x"]"#, #"["row-1","y"]"#]),
                           "duplicate key _id = \"row-1\" in t: rows 1 and 2")
    }

    func testTrailingGarbage() throws {
        try assertRejected(bytes(Self.simple + " extra"), "expected the end of the document, found 'e'")
    }

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
