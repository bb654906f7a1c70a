import Foundation
import SocloadTestSupport
import XCTest

/// `query` and the other read commands cannot change the database; `query --write` and
/// `socload drop` can, and say so.
final class ReadOnlyCommandTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("ro.sqlite")
        let fetch = try SocloadProcess.run(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path,
                                            "--table", "t", "--db", db])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
    }

    /// The database's bytes and the directory's file names: both must stay as they were.
    private func state() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        return names + [bytes.base64EncodedString()]
    }

    private func query(_ sql: String, _ extra: [String] = []) throws -> SocloadRun {
        try SocloadProcess.run(["query", sql, "--db", db, "--format", "csv"] + extra)
    }

    /// The CSV rows `sql` prints, with lines ending in \n.
    private func rows(_ sql: String) throws -> String {
        let run = try query(sql)
        XCTAssertEqual(run.status, 0, "\(sql): \(run.stderr)")
        return run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    }

    func testStatementsThatWouldChangeTheDatabaseAreRefused() throws {
        let outside = directory.path("elsewhere.db")
        let statements = [
            "delete from t", "update t set name = 'x'", "insert into t(_id) values ('new')",
            "drop table _socload_datasets", "drop table t", "alter table t rename to u", "create table z(a)",
            "create temp table z(a)", "create index i on t(name)", "create view v as select 1",
            "create trigger tr after insert on t begin select 1; end",
            "vacuum into '\(outside)'", "vacuum", "attach '\(outside)' as other", "detach main",
            "pragma journal_mode = delete", "pragma user_version = 7", "pragma writable_schema = 1",
            "pragma wal_checkpoint(truncate)", "pragma optimize", "analyze", "reindex",
            "replace into t(_id) values ('x')", "with x as (select 1) delete from t",
        ]
        let before = try state()
        for sql in statements {
            let run = try query(sql)
            XCTAssertEqual(run.status, 77, "\(sql): \(run.stderr)")
            XCTAssertEqual(run.stderr, "Error: query is read-only and this statement would change the database "
                           + "(pass --write to allow it): \(sql)\n", sql)
        }
        XCTAssertEqual(try state(), before, "a refused statement changed the database or wrote a file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside))
        XCTAssertEqual(try rows("pragma journal_mode"), "journal_mode\nwal\n")
    }

    func testReadingStatementsRun() throws {
        let before = try state()
        XCTAssertEqual(try rows("select count(*) as n from t"), "n\n300\n")
        XCTAssertEqual(try rows("select name from pragma_table_info('t') where cid = 3"), "name\nname\n")
        XCTAssertEqual(try rows("pragma table_info(t)").split(separator: "\n").count, 14)
        XCTAssertEqual(try rows("select count(*) as n from json_each('[1,2,3]')"), "n\n3\n")
        XCTAssertEqual(try rows("with recursive c(x) as (select 1 union all select x + 1 from c where x < 3) select sum(x) as s from c"),
                       "s\n6\n")
        XCTAssertEqual(try rows("pragma user_version"), "user_version\n0\n")
        XCTAssertEqual(try rows("pragma integrity_check"), "integrity_check\nok\n")
        for command in [["tables"], ["schema", "t"], ["info", "t"], ["select", "t", "--limit", "2"]] {
            let run = try SocloadProcess.run(command + ["--db", db])
            XCTAssertEqual(run.status, 0, "\(command): \(run.stderr)")
        }
        XCTAssertEqual(try state(), before, "a read changed the database")
    }

    func testWriteAllowsChanges() throws {
        let run = try query("delete from t where rowid <= 10", ["--write"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try rows("select count(*) as n from t"), "n\n290\n")
    }

    func testDropRemovesTheTableAndItsCatalogEntryTogether() throws {
        let drop = try SocloadProcess.run(["drop", "T", "--db", db])
        XCTAssertEqual(drop.status, 0, drop.stderr)
        XCTAssertEqual(drop.stderr, "Dropped t\n")
        XCTAssertEqual(try rows("select count(*) as n from sqlite_schema where name = 't'"), "n\n0\n")
        XCTAssertEqual(try rows("select count(*) as n from _socload_datasets"), "n\n0\n")
        let again = try SocloadProcess.run(["drop", "t", "--db", db])
        XCTAssertEqual(again.status, 66, again.stderr)
        XCTAssertEqual(again.stderr, "Error: no table or dataset 't' in '\(db!)'\n")
    }

    func testDropByDatasetIDAndOfATableOutsideTheCatalog() throws {
        XCTAssertEqual(try query("create table mine(a)", ["--write"]).status, 0)
        XCTAssertEqual(try SocloadProcess.run(["drop", "mine", "--db", db]).status, 0)
        let byID = try SocloadProcess.run(["drop", "n5m4-mism", "--db", db])
        XCTAssertEqual(byID.status, 0, byID.stderr)
        XCTAssertEqual(try rows("select group_concat(name) as names from sqlite_schema where type = 'table'"),
                       "names\n\"_socload_datasets,_socload_schema_changes,_socload_refreshes,_socload_table_names,_socload_meta\"\n")
    }

    func testDropRefusesTheCatalogAndSQLitesTables() throws {
        let before = try state()
        for name in ["_socload_datasets", "_SOCLOAD_DATASETS", "sqlite_schema", "sqlite_sequence"] {
            let run = try SocloadProcess.run(["drop", name, "--db", db])
            XCTAssertEqual(run.status, 64, "\(name): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: '\(name)' is socload's catalog or one of SQLite's own tables"), run.stderr)
        }
        XCTAssertEqual(try state(), before)
    }
}
