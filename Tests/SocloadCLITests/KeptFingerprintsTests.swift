import Foundation
import SocloadTestSupport
import XCTest

/// The fingerprints a refresh keeps for the next one are brought to the new rows in place (only
/// the changed rows' written), on SQLite and PostgreSQL: after a run of refreshes that change,
/// remove, add back and change back rows, the table and its fingerprints are exactly what a first
/// load of the same rows writes, and every count of the next refresh is right.
final class KeptFingerprintsTests: XCTestCase {
    var directory: TemporaryDirectory!
    private var postgreSQL: TestPostgreSQL.TestDatabase?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func run(_ arguments: [String], _ place: (db: String, schema: String?)) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", place.db] + (place.schema.map { ["--schema", $0] } ?? []))
    }

    /// The kept fingerprints of `table` without their insertion numbers, in key order.
    private func fingerprints(_ table: String, _ place: (db: String, schema: String?)) throws -> String {
        let query = try run(["query", "select kh, h, k1 from _socload_fingerprints_\(table) order by k1", "--format", "csv"], place)
        XCTAssertEqual(query.status, 0, query.stderr)
        return query.stdout
    }

    func testARunOfRefreshesKeepsTheFingerprintsAFirstLoadWrites() throws {
        postgreSQL = try TestPostgreSQL.makeDatabase()
        let places: [(refreshed: (db: String, schema: String?), fresh: (db: String, schema: String?))] = [
            ((directory.path("refreshed.sqlite"), nil), (directory.path("fresh.sqlite"), nil)),
            ((postgreSQL!.url, "refreshed"), (postgreSQL!.url, "fresh")),
        ]
        var export = try RowChangeCommandTests.Export(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json"))
        let text = try XCTUnwrap(export.text)
        let base = export
        let versions: [(name: String, counts: String)] = [
            ("base", ""), ("edited", "2 added, 3 changed, 5 removed"), ("again", "2 added, 2 changed, 1 removed"),
        ]
        try export.write(to: directory.path("base.json"))
        export.editAFew(text: text.position)
        try export.write(to: directory.path("edited.json"))
        // The first row changed back, the second changed again, two removed rows back, an added one gone.
        export.rows[0] = base.rows[0]
        export.rows[1][text.position] = "\(export.rows[1][text.position]) (twice)"
        export.rows.removeLast()
        export.rows += base.rows[4..<6]
        try export.write(to: directory.path("again.json"))

        for place in places {
            for version in versions {
                let refresh = try run(["fetch", directory.path("\(version.name).json"), "--table", "kept"], place.refreshed)
                XCTAssertEqual(refresh.status, 0, refresh.stderr)
                if !version.counts.isEmpty {
                    XCTAssertTrue(refresh.stderr.contains("Refreshed kept: \(version.counts)"), "\(place.refreshed): \(refresh.stderr)")
                }
            }
            let same = try run(["fetch", directory.path("again.json"), "--table", "kept", "--force"], place.refreshed)
            XCTAssertTrue(same.stderr.contains("Refreshed kept: 0 added, 0 changed, 0 removed, \(export.rows.count) unchanged"),
                          "\(place.refreshed): \(same.stderr)")
            let first = try run(["fetch", directory.path("again.json"), "--table", "kept"], place.fresh)
            XCTAssertEqual(first.status, 0, first.stderr)
            let kept = try fingerprints("kept", place.refreshed)
            XCTAssertEqual(kept.split(whereSeparator: \.isNewline).count, export.rows.count + 1, kept)
            XCTAssertEqual(kept, try fingerprints("kept", place.fresh), "\(place.refreshed)")
            XCTAssertEqual(try rows("kept", place.refreshed), try rows("kept", place.fresh), "\(place.refreshed)")
        }
    }

    /// The table's rows in key order, as CSV.
    private func rows(_ table: String, _ place: (db: String, schema: String?)) throws -> String {
        let query = try run(["query", "select * from \(table) order by _id", "--format", "csv"], place)
        XCTAssertEqual(query.status, 0, query.stderr)
        return query.stdout
    }

    /// What a refresh must keep around the rows: the user's index is there and used, a
    /// duplicate key in the new rows fails the load (the table as it was), rows deleted by hand
    /// come back, and a user's trigger is made again without the load firing it.
    func testARefreshKeepsTheUsersObjectsAndTheTableWhole() throws {
        let db = (db: directory.path("in-place.sqlite"), schema: String?.none)
        var export = try RowChangeCommandTests.Export(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json"))
        let text = try XCTUnwrap(export.text)
        try export.write(to: directory.path("base.json"))
        XCTAssertEqual(try run(["fetch", directory.path("base.json"), "--table", "t", "--quiet"], db).status, 0)
        XCTAssertEqual(try run(["query", "create index mine on t (\(text.field))", "--write"], db).status, 0)
        export.rows[0][text.position] = "changed"
        try export.write(to: directory.path("changed.json"))
        let changed = try run(["fetch", directory.path("changed.json"), "--table", "t"], db)
        XCTAssertTrue(changed.stderr.contains("Refreshed t: 0 added, 1 changed, 0 removed"), changed.stderr)
        let plan = try run(["query", "explain query plan select * from t where \(text.field) = 'changed'", "--format", "csv"], db)
        XCTAssertTrue(plan.stdout.contains("USING INDEX mine"), plan.stdout)
        XCTAssertEqual(try run(["query", "select count(*) from t where \(text.field) = 'changed'", "--format", "csv"], db).stdout,
                       "count(*)\r\n1\r\n")

        // Two rows of one key: the load fails and the table stays as it was.
        let before = try rows("t", db)
        var duplicated = export
        duplicated.rows.append(export.rows[5])
        duplicated.rows[duplicated.rows.count - 1][text.position] = "another"
        try duplicated.write(to: directory.path("duplicated.json"))
        let failed = try run(["fetch", directory.path("duplicated.json"), "--table", "t"], db)
        XCTAssertEqual(failed.status, 65, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("rows 6 and \(duplicated.rows.count)"), failed.stderr)
        XCTAssertEqual(try rows("t", db), before)

        // Rows deleted by hand: the next refresh makes the table whole again.
        XCTAssertEqual(try run(["query", "delete from t where rowid in (select rowid from t limit 3)", "--write"], db).status, 0)
        let restored = try run(["fetch", directory.path("changed.json"), "--table", "t", "--force"], db)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try rows("t", db), before)

        // A trigger of the user's: made again, not fired by the load.
        XCTAssertEqual(try run(["query", "create table seen (id text)", "--write"], db).status, 0)
        XCTAssertEqual(try run(["query", "create trigger mark after insert on t begin insert into seen values (new._id); end", "--write"], db).status, 0)
        export.rows[1][text.position] = "changed too"
        try export.write(to: directory.path("changed2.json"))
        let triggered = try run(["fetch", directory.path("changed2.json"), "--table", "t"], db)
        XCTAssertTrue(triggered.stderr.contains("Refreshed t: 0 added, 1 changed, 0 removed"), triggered.stderr)
        XCTAssertEqual(try run(["query", "select count(*) from seen", "--format", "csv"], db).stdout, "count(*)\r\n0\r\n")
        XCTAssertEqual(try run(["query", "select count(*) from sqlite_schema where name = 'mark'", "--format", "csv"], db).stdout,
                       "count(*)\r\n1\r\n")
    }
}
