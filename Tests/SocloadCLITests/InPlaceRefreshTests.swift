import Foundation
import SocloadTestSupport
import XCTest

/// A SQLite refresh (not `--force`) of a table whose rows mostly stayed the same writes only what
/// changed into the table as it is: the same counts, change log, rows and kept fingerprints as a
/// new copy (`--force`) gives, without writing the table anew. A table edited by hand, a
/// duplicate key and a refresh where most rows changed keep what a new copy does.
final class InPlaceRefreshTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func run(_ arguments: [String], db: String, log: String? = nil) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db], environment: log.map { ["SOCLOAD_SQL_LOG": $0] } ?? [:])
    }

    private func csv(_ sql: String, db: String) throws -> String {
        let query = try run(["query", sql, "--format", "csv"], db: db)
        XCTAssertEqual(query.status, 0, query.stderr)
        return query.stdout
    }

    /// The change log without its times.
    private func changes(_ db: String) throws -> [String] {
        try run(["changes", "t", "--format", "csv"], db: db).stdout.split(whereSeparator: \.isNewline)
            .map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) ?? "" }.sorted()
    }

    func testARefreshWritesOnlyWhatChangedAndEndsAsANewCopyWould() throws {
        var export = try RowChangeCommandTests.Export(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json"))
        let text = try XCTUnwrap(export.text)
        let base = directory.path("base.json")
        try export.write(to: base)
        export.editAFew(text: text.position)
        let edited = directory.path("edited.json")
        try export.write(to: edited)

        let inPlace = directory.path("in-place.sqlite"), newCopy = directory.path("new-copy.sqlite"), fresh = directory.path("fresh.sqlite")
        for db in [inPlace, newCopy] { XCTAssertEqual(try run(["fetch", base, "--table", "t", "--quiet"], db: db).status, 0) }
        let log = directory.path("in-place.sql")
        let refreshed = try run(["fetch", edited, "--table", "t"], db: inPlace, log: log)
        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        let counts = "Refreshed t: 2 added, 3 changed, 5 removed, \(export.rows.count - 5) unchanged"
        XCTAssertTrue(refreshed.stderr.contains(counts), refreshed.stderr)
        let statements = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertFalse(statements.contains("CREATE TABLE \"t\""), "a new copy was written")
        XCTAssertTrue(statements.contains("ON CONFLICT(\"_id\") DO UPDATE"), statements)

        let forced = directory.path("forced.sql")
        let copied = try run(["fetch", edited, "--table", "t", "--force"], db: newCopy, log: forced)
        XCTAssertTrue(copied.stderr.contains(counts), copied.stderr)
        XCTAssertTrue(try String(contentsOfFile: forced, encoding: .utf8).contains("CREATE TABLE \"t\""))
        XCTAssertEqual(try run(["fetch", edited, "--table", "t", "--quiet"], db: fresh).status, 0)

        XCTAssertEqual(try changes(inPlace), try changes(newCopy))
        let everyRow = "SELECT * FROM t ORDER BY _id"
        XCTAssertEqual(try csv(everyRow, db: inPlace), try csv(everyRow, db: fresh))
        let fingerprints = "SELECT kh, h, k1 FROM _socload_fingerprints_t ORDER BY k1"
        XCTAssertEqual(try csv(fingerprints, db: inPlace), try csv(fingerprints, db: fresh))
        // The next refresh finds nothing changed, the same the new copy's does.
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: edited)
        let again = try run(["fetch", edited, "--table", "t"], db: inPlace)
        XCTAssertTrue(again.stderr.contains("Refreshed t: 0 added, 0 changed, 0 removed, \(export.rows.count) unchanged"), again.stderr)
        XCTAssertEqual(try csv("SELECT count(*) AS n FROM _socload_refreshes WHERE table_name = 't'", db: inPlace), "n\r\n3\r\n")
    }

    func testWhatARefreshInPlaceCannotTakeGetsANewCopy() throws {
        var export = try RowChangeCommandTests.Export(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json"))
        let text = try XCTUnwrap(export.text)
        let base = directory.path("base.json")
        try export.write(to: base)
        let db = directory.path("t.sqlite")
        XCTAssertEqual(try run(["fetch", base, "--table", "t", "--quiet"], db: db).status, 0)
        let before = try csv("SELECT * FROM t ORDER BY _id", db: db)

        // Rows deleted by hand come back: the table is not the one its fingerprints describe.
        XCTAssertEqual(try run(["query", "DELETE FROM t WHERE rowid IN (SELECT rowid FROM t LIMIT 2)", "--write"], db: db).status, 0)
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: base)
        let log = directory.path("restored.sql")
        XCTAssertEqual(try run(["fetch", base, "--table", "t", "--quiet"], db: db, log: log).status, 0)
        XCTAssertTrue(try String(contentsOfFile: log, encoding: .utf8).contains("CREATE TABLE \"t\""))
        XCTAssertEqual(try csv("SELECT * FROM t ORDER BY _id", db: db), before)

        // A key given twice: refused by its rows, the table as it was.
        var duplicated = export
        duplicated.rows.append(export.rows[5])
        duplicated.rows[duplicated.rows.count - 1][text.position] = "another"
        let twice = directory.path("twice.json")
        try duplicated.write(to: twice)
        let failed = try run(["fetch", twice, "--table", "t"], db: db)
        XCTAssertEqual(failed.status, 65, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("rows 6 and \(duplicated.rows.count)"), failed.stderr)
        XCTAssertEqual(try csv("SELECT * FROM t ORDER BY _id", db: db), before)

        // Every id re-issued, the content the same: said once; the next refresh finds nothing new.
        var reissued = export
        for index in reissued.rows.indices { reissued.reissue(index, salt: "again") }
        let again = directory.path("reissued.json")
        try reissued.write(to: again)
        XCTAssertTrue(try run(["fetch", again, "--table", "t"], db: db).stderr.contains("ids re-issued"))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(10)], ofItemAtPath: again)
        let next = try run(["fetch", again, "--table", "t"], db: db)
        XCTAssertTrue(next.stderr.contains("Refreshed t: 0 added, 0 changed, 0 removed, \(export.rows.count) unchanged"), next.stderr)
        XCTAssertEqual(try run(["fetch", base, "--table", "t", "--quiet"], db: db).status, 0)

        // Most rows changed: a new copy, as a refresh always wrote.
        for index in export.rows.indices where index % 2 == 0 {
            export.rows[index][text.position] = "\(export.rows[index][text.position]) (edited)"
        }
        let most = directory.path("most.json")
        try export.write(to: most)
        let mostLog = directory.path("most.sql")
        let changed = try run(["fetch", most, "--table", "t"], db: db, log: mostLog)
        XCTAssertTrue(changed.stderr.contains("Refreshed t: 0 added, \((export.rows.count + 1) / 2) changed, 0 removed"), changed.stderr)
        XCTAssertTrue(try String(contentsOfFile: mostLog, encoding: .utf8).contains("CREATE TABLE \"t\""))
    }
}
