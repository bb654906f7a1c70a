import Foundation
import SocloadTestSupport
import XCTest

/// A project file that is not right: one line naming the file, the entry and the key, exit 78,
/// nothing loaded.
final class ProjectFileErrorTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func write(_ project: String) throws -> String {
        let path = directory.path("socload.json")
        try Data(project.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every mistake in a project file names the file, the entry and the key, exits 78, and
    /// loads nothing.
    func testABrokenProjectFileSaysWhere() throws {
        let cases: [(String, String)] = [
            (#"{"datasets": [], "databse": "x.sqlite"}"#, #"socload.json: key "databse" is not a key of a project file"#),
            (#"{"datasets": [{"id": "abcd-1234", "page-sise": 10}]}"#,
             #"socload.json: dataset 1 (abcd-1234), key "page-sise" is not an option of fetch"#),
            (#"{"datasets": [{"id": "abcd-1234"}, {"id": "abcd-5678", "force": "yes"}]}"#,
             #"socload.json: dataset 2 (abcd-5678), key "force" takes true or false"#),
            (#"{"datasets": [{"id": "abcd-1234", "extract": "agency"}]}"#,
             #"socload.json: dataset 1 (abcd-1234), key "extract" takes a list"#),
            (#"{"datasets": [{"id": "abcd-1234", "page-size": "many"}]}"#,
             #"socload.json: dataset 1 (abcd-1234), key "page-size" takes a number above 0, not 'many'"#),
            (#"{"defaults": {"limit": -1}, "datasets": [{"id": "abcd-1234"}]}"#,
             #"socload.json: defaults, key "limit" takes a whole number, not '-1'"#),
            (#"{"datasets": [{"id": "abcd-1234", "api": "soda9"}]}"#,
             #"socload.json: dataset 1 (abcd-1234), key "api" takes auto, rows, soda2 or soda3, not 'soda9'"#),
            (#"{"datasets": [{"id": "abcd-1234", "type": ["when=instant"]}]}"#,
             #"socload.json: dataset 1 (abcd-1234), key "type" takes COLUMN=TYPE"#),
            (#"{"datasets": [{"id": "abcd-1234", "extract": ["a:"]}]}"#, #"socload.json: dataset 1 (abcd-1234), key "extract" is wrong"#),
            (#"{"datasets": [{"id": "abcd-1234", "retries": "often"}]}"#,
             #"socload.json: dataset 1 (abcd-1234), key "retries" takes a whole number, not 'often'"#),
            (#"{"defaults": {"geopackage": "yes"}, "datasets": [{"id": "abcd-1234"}]}"#,
             #"socload.json: defaults, key "geopackage" takes true or false"#),
            (#"{"datasets": [{"id": "abcd-1234", "jobs": 2}]}"#,
             #"socload.json: dataset 1 (abcd-1234), key "jobs" says how socload refresh runs: give --jobs on its command line"#),
            (#"{"datasets": [{"id": "abcd-1234", "mode": "append"}]}"#,
             #"socload.json: dataset 1 (abcd-1234), key "mode" is not an option of fetch"#),
            (#"{"datasets": [{"document": "a.csv"}]}"#, #"socload.json: dataset 1, key "document" is for socload load"#),
            (#"{"datasets": [{"table": "t"}]}"#, #"socload.json: dataset 1 names no dataset"#),
            (#"{"datasets": [{"id": "abcd-1234", "db": "other.sqlite"}]}"#, #"socload.json: dataset 1 (abcd-1234), key "db" is the project's"#),
            (#"{"datasets": [{"id": "abcd-1234", "incremental": true, "extract": ["a"]}]}"#,
             #"socload.json: dataset 1 (abcd-1234) cannot be fetched as given: --extract shapes a load"#),
            (#"{"datasets": [{"id": "abcd-1234"}, {"id": "abcd-1234"}]}"#, "socload.json: dataset 2 is known as 'abcd-1234'"),
            (#"{"datasets": [{"name": "hiv", "id": "abcd-1234", "table": "t"}, {"name": "geo", "id": "abcd-5678", "table": "t"}]}"#,
             "socload.json: dataset 2 loads the table 't', as dataset 1 does (give one another \"table\")"),
            (#"{"datasets": [{"name": "hiv", "id": "abcd-1234"}, {"name": "geo", "id": "abcd-5678", "table": "hiv"}]}"#,
             "socload.json: dataset 2 is known as 'hiv' (by its name, table, id, URL or file)"),
            (#"{"defaults": {"retires": 2}, "datasets": [{"id": "abcd-1234"}]}"#,
             #"socload.json: defaults, key "retires" is not an option of fetch (did you mean "retries"?)"#),
            (#"{"datasets": [{"id": "abcd-1234", "shema": "x"}]}"#,
             #"socload.json: dataset 1 (abcd-1234), key "shema" is not an option of fetch (did you mean "schema"?)"#),
            (#"{"datasets": [{"id": "abcd-1234", "table": ""}]}"#, #"socload.json: dataset 1 (abcd-1234), key "table" is empty"#),
            (#"{"database": "x.sqlite", "defaults": {"schema": "s"}, "datasets": [{"id": "abcd-1234"}]}"#,
             #"socload.json: defaults, key "schema" is for a PostgreSQL database"#),
            (#"{"database": "x.sqlite", "datasets": [{"id": "abcd-1234", "schema": "s"}]}"#,
             #"socload.json: dataset 1, key "schema" is for a PostgreSQL database"#),
            (#"{"datasets": [{"file": "a.rows.json", "where": "x = 1"}]}"#,
             #"socload.json: dataset 1 (a.rows.json), key "where" needs a dataset on a portal"#),
            (#"{"defaults": {"api": "soda3"}, "datasets": [{"file": "a.rows.json"}]}"#,
             #"socload.json: dataset 1 (a.rows.json), key "api" needs a dataset on a portal"#),
            (#"{"datasets": [{"id": "abcd-1234"}"#, "socload.json is not JSON"),
            (#"{"database": "x.sqlite"}"#, #"socload.json: key "datasets" is missing"#),
        ]
        let folder = URL(fileURLWithPath: directory.path(""))
        for (text, expected) in cases {
            _ = try write(text)
            let run = try SocloadProcess.run(["refresh"], directory: folder)
            XCTAssertEqual(run.status, 78, "\(text): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: " + expected), "\(text):\n\(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("x.sqlite")))
        let missing = try SocloadProcess.run(["refresh", "--project", directory.path("none.json")])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.contains("none.json does not exist"), missing.stderr)
    }
}
