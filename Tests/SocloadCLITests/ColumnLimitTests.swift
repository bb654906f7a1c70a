import Foundation
import SocloadTestSupport
import XCTest

/// A dataset wider than the destination's tables hold is refused before anything is allocated
/// per column (exit 65, nothing changed): SQLite's `SQLITE_LIMIT_COLUMN` (2,000 in Debian's
/// build), PostgreSQL's 1,600 (counting the columns a location or a geometry becomes), a
/// description beyond any database's limit, and PostgreSQL's "row is too big".
final class ColumnLimitTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    /// A rows.json export of `count` user columns of `type`, with one row.
    private func wideExport(_ count: Int, type: String, value: String = "null", id: String = "wide-0001") throws -> String {
        var columns = [#"{"id": -1, "name": "sid", "dataTypeName": "meta_data", "fieldName": ":sid"}"#]
        columns += (0..<count).map { #"{"id": \#($0), "name": "c\#($0)", "dataTypeName": "\#(type)", "fieldName": "c\#($0)"}"# }
        let row = "[\"row-1\", " + Array(repeating: value, count: count).joined(separator: ", ") + "]"
        let text = #"{"meta": {"view": {"id": "\#(id)", "name": "w", "columns": ["# + columns.joined(separator: ",\n")
            + #"]}}, "data": ["# + row + "]}"
        let path = directory.path("\(id)-\(count)-\(type).rows.json")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func assertRefused(_ path: String, db: String, message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try SocloadProcess.run(["fetch", path, "--table", "t", "--db", db])
        XCTAssertEqual(run.status, 65, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("Error: \(message)"), run.stderr, file: file, line: line)
        XCTAssertLessThanOrEqual(run.stderr.count, 302, file: file, line: line)
    }

    func testAPlanWiderThanTheDestinationIsRefusedBeforeLoading() throws {
        let sqlite = directory.path("wide.sqlite")
        XCTAssertEqual(try SocloadProcess.run(["fetch", try wideExport(1_999, type: "text"), "--table", "t", "--db", sqlite]).status, 0)
        XCTAssertEqual(try SocloadProcess.run(["query", "select count(*) as n from pragma_table_info('t')", "--db", sqlite,
                                               "--format", "csv"]).stdout, "n\r\n2000\r\n")
        try assertRefused(try wideExport(2_000, type: "text"), db: sqlite,
                          message: "t would have 2001 columns (a location is three, a url or phone two), more than the 2000 a SQLite table holds")
        try assertRefused(try wideExport(700, type: "location"), db: sqlite, message: "t would have 2101 columns")
        XCTAssertEqual(try SocloadProcess.run(["query", "select count(*) as n from t", "--db", sqlite, "--format", "csv"]).stdout,
                       "n\r\n1\r\n")
        // More columns than any database holds: refused while the description is read.
        let beyond = try wideExport(40_000, type: "text")
        let run = try SocloadProcess.run(["fetch", beyond, "--table", "t", "--db", sqlite])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("the metadata describes 40001 columns, more than the 32767"), run.stderr)

        let postgreSQL = try TestPostgreSQL.makeDatabase()
        XCTAssertEqual(try SocloadProcess.run(["fetch", try wideExport(1_599, type: "text"), "--table", "t", "--db", postgreSQL.url]).status, 0)
        try assertRefused(try wideExport(1_600, type: "text"), db: postgreSQL.url,
                          message: "t would have 1601 columns (a location is three, a url or phone two), more than the 1600 a PostgreSQL table holds")
        try assertRefused(try wideExport(400, type: "location"), db: postgreSQL.url, message: "t would have 1601 columns")
        // Within the column limit but beyond what one row may hold: bad data too.
        let heavy = try wideExport(1_100, type: "double", value: "1.5")
        let tooBig = try SocloadProcess.run(["fetch", heavy, "--table", "t", "--db", postgreSQL.url])
        XCTAssertEqual(tooBig.status, 65, tooBig.stderr)
        XCTAssertTrue(tooBig.stderr.contains("54000"), tooBig.stderr)
        XCTAssertEqual(try SocloadProcess.run(["query", "select count(*) as n from t", "--db", postgreSQL.url, "--format", "csv"]).stdout,
                       "n\r\n1\r\n")
    }
}
