import Foundation
import SocloadTestSupport
import XCTest

/// A refresh says what it changed, counted by key against the copy it replaces, on SQLite and
/// PostgreSQL alike; the user's view, index and trigger on the table survive the comparison.
final class RefreshCountTests: XCTestCase {
    var directory: TemporaryDirectory!
    private var postgreSQL: TestPostgreSQL.TestDatabase?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func socload(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db])
    }

    /// The bundled export with two names changed, three rows removed and one added.
    private func edited() throws -> String {
        let source = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        let meta = try XCTUnwrap(document["meta"] as? [String: Any])
        let columns = try XCTUnwrap((meta["view"] as? [String: Any])?["columns"] as? [[String: Any]])
        let name = try XCTUnwrap(columns.firstIndex { $0["fieldName"] as? String == "name" && ($0["id"] as? Int ?? -1) >= 0 })
        var rows = try XCTUnwrap(document["data"] as? [[Any]])
        rows[0][name] = "Changed — ünïcode"
        rows[1][name] = NSNull()
        rows.removeSubrange(5..<8)
        var added = rows[10]
        added[0] = "row-added"
        added[1] = "00000000-ADDED"
        rows.append(added)
        let text = "{\"meta\":" + String(decoding: try JSONSerialization.data(withJSONObject: meta), as: UTF8.self)
            + ",\"data\":" + String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self) + "}"
        let path = directory.path("refresh.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testARefreshCountsTheRowsAddedChangedAndRemoved() throws {
        let source = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        let path = try edited()
        postgreSQL = try TestPostgreSQL.makeDatabase()
        for db in [directory.path("counts.sqlite"), postgreSQL!.url] {
            let first = try socload(["fetch", source, "--table", "t", "--extract", "agency+count"], db: db)
            XCTAssertEqual(first.status, 0, first.stderr)
            XCTAssertFalse(first.stderr.contains("Refreshed"), "a first load has nothing to compare: \(first.stderr)")
            XCTAssertEqual(try socload(["query", "create view holdovers as select _id, name from t where holdover", "--write"], db: db).status, 0)
            XCTAssertEqual(try socload(["query", "create index my_names on t (name)", "--write"], db: db).status, 0)
            let refreshed = try socload(["fetch", path, "--table", "t"], db: db)
            XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
            XCTAssertTrue(refreshed.stderr.contains("Refreshed t: 1 added, 2 changed, 3 removed, 295 unchanged\n"), refreshed.stderr)
            let again = try socload(["fetch", path, "--table", "t", "--force"], db: db)
            XCTAssertTrue(again.stderr.contains("Refreshed t: 0 added, 0 changed, 0 removed, 298 unchanged\n"), again.stderr)
            let view = try socload(["query", "select count(*) as n from holdovers", "--format", "csv"], db: db)
            XCTAssertEqual(view.status, 0, "the user's view still reads the table: \(view.stderr)")
            let schema = try socload(["schema", "t", "--format", "table"], db: db).stdout
            XCTAssertTrue(schema.contains("my_names"), schema)
            let tables = try socload(["tables", "--format", "csv"], db: db).stdout
            XCTAssertFalse(tables.contains("_socload_previous"), tables)
            // A refresh that fails leaves the previous copy and counts nothing.
            try Data("{\"meta\":".utf8).write(to: URL(fileURLWithPath: directory.path("broken.json")))
            XCTAssertNotEqual(try socload(["fetch", directory.path("broken.json"), "--table", "t"], db: db).status, 0)
            XCTAssertEqual(try socload(["query", "select count(*) as n from t", "--format", "csv"], db: db).stdout, "n\r\n298\r\n")
        }
    }
}
