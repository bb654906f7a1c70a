import Foundation
import SocloadTestSupport
import XCTest

/// Document shapes whose names must be decided for the whole document: flattened paths that
/// collide with a record's own keys or with each other, and a `--root` member given twice.
final class DocumentShapeTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func write(_ text: String, to name: String) throws -> String {
        let path = directory.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func csv(_ sql: String, db: String) throws -> [String] {
        let run = try SocloadProcess.run(["query", sql, "--db", db, "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.split(whereSeparator: \.isNewline).map(String.init)
    }

    func testAFlattenedColumnStandsForOneFieldPathInTheWholeDocument() throws {
        let db = directory.path("flat.sqlite")
        let document = try write("""
            {"a": {"b": 11}}
            {"a": {"b": 12}, "a_b": 22}
            {"x_y": {"z": 1}, "x": {"y_z": 2}}
            {"x": {"y_z": 3}}
            """, to: "flat.ndjson")
        let run = try SocloadProcess.run(["load", document, "--flatten", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        // a.b is one column in every record; the record's own a_b keeps its name.
        XCTAssertEqual(try csv("SELECT a_b_2, a_b FROM flat ORDER BY rowid", db: db), ["a_b_2,a_b", "11,", "12,22", ",", ","])
        // Two paths with the same joined name: the later one takes _2, in every record alike.
        XCTAssertEqual(try csv("SELECT x_y_z, x_y_z_2 FROM flat ORDER BY rowid", db: db), ["x_y_z,x_y_z_2", ",", ",", "1,2", ",3"])
        // The same document in another record order names the columns the same way.
        let reordered = try write("""
            {"x": {"y_z": 3}}
            {"a": {"b": 12}, "a_b": 22}
            {"a": {"b": 11}}
            """, to: "flat2.ndjson")
        XCTAssertEqual(try SocloadProcess.run(["load", reordered, "--flatten", "--db", db]).status, 0)
        XCTAssertEqual(try csv("SELECT a_b_2, a_b FROM flat2 ORDER BY rowid", db: db), ["a_b_2,a_b", ",", "12,22", "11,"])
    }

    func testARootMemberGivenTwiceIsRefused() throws {
        let db = directory.path("root.sqlite")
        let twice = try write(#"{"results": [{"a": 1}], "next": null, "results": [{"a": 2}]}"#, to: "twice.json")
        let run = try SocloadProcess.run(["load", twice, "--root", "results", "--db", db])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertEqual(run.stderr, "Error: \(twice): --root results: the document has the member \"results\" more than once; \(db) was not created\n")
        // Another member twice is not the records' concern.
        let other = try write(#"{"next": 1, "results": [{"a": 1}], "next": 2}"#, to: "other.json")
        XCTAssertEqual(try SocloadProcess.run(["load", other, "--root", "results", "--db", db]).status, 0)
    }
}
