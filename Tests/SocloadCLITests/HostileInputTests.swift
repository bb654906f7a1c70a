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

    func snapshot() throws -> String {
        let rows = try SocloadProcess.run(["query", "select * from t", "--db", db, "--format", "csv"]).stdout
        let catalog = try SocloadProcess.run(["query", "select * from _socload_datasets where table_name = 't'",
                                              "--db", db, "--format", "csv"]).stdout
        let tables = try SocloadProcess.run(["tables", "--db", db, "--format", "csv"]).stdout
        return rows + catalog + tables
    }

    func fetch(_ bytes: [UInt8], name: String = "input.json") throws -> SocloadRun {
        let path = directory.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try SocloadProcess.run(["fetch", path, "--table", "t", "--db", db])
    }

    /// The document must fail: exit 65, one line containing `message`, nothing changed.
    func assertRejected(_ bytes: [UInt8], _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
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
    func loaded(_ bytes: [UInt8], _ sql: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try fetch(bytes)
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        return try SocloadProcess.run(["query", sql, "--db", db, "--format", "csv"]).stdout
    }

    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    // MARK: - Broken documents: one test each

    func doc(_ columns: [(String, String)], _ rows: [String]) -> [UInt8] {
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
        try assertRejected(bytes("[]"), "the document is a JSON array (a SODA page or records), not a rows.json export: socload load FILE --metadata VIEWS.json")
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
                           "is an HTML page, not JSON or CSV")
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
}
