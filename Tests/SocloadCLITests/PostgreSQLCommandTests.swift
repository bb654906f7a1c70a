import Foundation
import SocloadPostgreSQL
import SocloadTestSupport
import XCTest

/// The commands against a PostgreSQL database (`--db postgresql://...`): the same output as on
/// SQLite for the same data, PostgreSQL's own SQL in `query`, and no password anywhere.
final class PostgreSQLCommandTests: XCTestCase {
    var database: TestPostgreSQL.TestDatabase!
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        database = try TestPostgreSQL.makeDatabase()
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        database = nil
    }

    func socload(_ arguments: [String], db: String? = nil) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db ?? database.url],
                               environment: ["SOCLOAD_DATASETS": Fixtures.datasetsDirectory.path, "SOCLOAD_RETRY_DELAY": "0.01"])
    }

    func testQueriesPrintTheSameInPostgreSQLAsInSQLite() throws {
        let sqlite = directory.path("same.sqlite")
        for id in Fixtures.bundledIDs {
            let pg = try socload(["fetch", id])
            XCTAssertEqual(pg.status, 0, pg.stderr)
            XCTAssertTrue(pg.stderr.contains("Loaded "), pg.stderr)
            XCTAssertEqual(try socload(["fetch", id, "--quiet"], db: sqlite).status, 0)
        }
        let queries = [
            "select agency, count(*) as nominations, sum(case when holdover then 1 else 0 end) as holdovers from n5m4_mism group by agency order by nominations desc, agency",
            "select _id, name, _created_at, confirmation_vote, holdover from n5m4_mism order by _id limit 20",
            "select permit_number, fee, valuation, density, approved, issued_at from ci7y_pmts order by permit_number",
            "select count(*) as n, min(fee) as smallest, max(valuation) as largest from ci7y_pmts",
        ]
        for query in queries {
            for format in ["csv", "json", "table", "ndjson"] {
                let pg = try socload(["query", query, "--format", format])
                let lite = try socload(["query", query, "--format", format], db: sqlite)
                XCTAssertEqual(pg.status, 0, pg.stderr)
                XCTAssertEqual(pg.stdout, lite.stdout, "\(format): \(query)")
            }
        }
        let tables = try socload(["tables", "--format", "csv"])
        XCTAssertEqual(tables.stdout, try socload(["tables", "--format", "csv"], db: sqlite).stdout)
    }

    func testSelectInfoVerifyAndSchemaMeanTheSameInPostgreSQLAsInSQLite() throws {
        let sqlite = directory.path("same.sqlite")
        for id in ["n5m4-mism", "ci7y-pmts"] {
            XCTAssertEqual(try socload(["fetch", id, "--quiet"]).status, 0)
            XCTAssertEqual(try socload(["fetch", id, "--quiet"], db: sqlite).status, 0)
        }
        try database.connect().execute("CREATE EXTENSION unaccent")
        let commands: [[String]] = [
            ["select", "n5m4_mism", "--contains", "name=EMILIE", "--columns", "name,agency", "--order", "_id"],
            ["select", "n5m4_mism", "--on", "nomination_date=2014-06", "--columns", "name,nomination_date", "--order", "nomination_date,_id"],
            ["select", "n5m4_mism", "--on", "nomination_date=2014", "--columns", "_id", "--order", "_id"],
            ["select", "n5m4_mism", "--from", "_created_at=2015-01-01T05:00", "--to", "_created_at=2015-01-01T06:00", "--columns", "_id,_created_at",
             "--order", "_id"],
            ["select", "n5m4_mism", "--in", "agency=State,Defense", "--eq", "holdover=1", "--limit", "5", "--order", "-_id"],
            ["select", "ci7y_pmts", "--null", "fee", "--columns", "permit_number", "--order", "permit_number"],
            ["info", "n5m4-mism"], ["info", "ci7y_pmts", "--columns"], ["verify", "n5m4_mism"], ["verify", "ci7y-pmts"],
        ]
        for command in commands {
            let pg = try socload(command + ["--format", "csv"])
            let lite = try socload(command + ["--format", "csv"], db: sqlite)
            XCTAssertEqual(pg.status, lite.status, "\(command): \(pg.stderr)")
            let ignoringTimes = { (text: String) in text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("fetched_at,") } }
            XCTAssertEqual(ignoringTimes(pg.stdout), ignoringTimes(lite.stdout), "\(command)")
            if command[0] != "verify", !command.contains("--null") {
                XCTAssertGreaterThan(pg.stdout.split(whereSeparator: \.isNewline).count, 1, "\(command)")
            }
        }
        let schema = try socload(["schema", "n5m4_mism", "--format", "table"])
        XCTAssertTrue(schema.stdout.hasPrefix("CREATE TABLE \"public\".\"n5m4_mism\" (\n  \"_id\" text NOT NULL,"), schema.stdout)
        XCTAssertTrue(schema.stdout.contains("ADD CONSTRAINT _socload_key_n5m4_mism PRIMARY KEY (_id);"), schema.stdout)
        XCTAssertTrue(schema.stdout.contains("confirmation_vote       numeric                             0            0  decimal"),
                      schema.stdout)
        let missing = try socload(["schema", "nothing"])
        XCTAssertEqual(missing.status, 66, missing.stderr)
        let unknownColumn = try socload(["select", "n5m4_mism", "--eq", "nope=1"])
        XCTAssertEqual(unknownColumn.status, 64, unknownColumn.stderr)
    }

    /// Without the unaccent extension, --contains folds case only (as its help says).
    func testContainsFoldsOnlyCaseWithoutUnaccent() throws {
        XCTAssertEqual(try socload(["fetch", "n5m4-mism", "--quiet"]).status, 0)
        let plain = try socload(["select", "n5m4_mism", "--contains", "name=emilie", "--columns", "name", "--format", "csv"])
        XCTAssertEqual(plain.stdout, "name\r\n")
        let accented = try socload(["select", "n5m4_mism", "--contains", "name=ÉMILIE ÁLVAREZ", "--columns", "name", "--format", "csv"])
        let names = accented.stdout.split(whereSeparator: \.isNewline)
        XCTAssertGreaterThan(names.count, 1)
        XCTAssertEqual(Set(names.dropFirst()), ["Émilie Álvarez"])
    }

    /// Citus is not in this machine's package sources: a stand-in create_distributed_table()
    /// records its calls, which shows that socload distributes the new table, empty, before the
    /// COPY, and by the column asked for.
    func testDistributeByCallsCreateDistributedTableOnTheNewTableBeforeItsRows() throws {
        let withoutCitus = try socload(["fetch", "n5m4-mism", "--distribute-by", "_id"])
        XCTAssertEqual(withoutCitus.status, 69, withoutCitus.stderr)
        XCTAssertTrue(withoutCitus.stderr.contains("--distribute-by _id needs Citus"), withoutCitus.stderr)
        try database.connect().execute("""
            CREATE TABLE citus_calls (table_name text, distribution_column text, rows_then bigint);
            """)
        try database.connect().execute("""
            CREATE FUNCTION create_distributed_table(table_name regclass, distribution_column text,
                                                     colocate_with text DEFAULT 'default') RETURNS void
            LANGUAGE plpgsql AS $$
            DECLARE n bigint;
            BEGIN
              EXECUTE format('SELECT count(*) FROM %s', table_name) INTO n;
              INSERT INTO citus_calls VALUES (table_name::text, distribution_column, n);
            END $$
            """)
        let wrongColumn = try socload(["fetch", "n5m4-mism", "--distribute-by", "agency"])
        XCTAssertEqual(wrongColumn.status, 64, wrongColumn.stderr)
        XCTAssertTrue(wrongColumn.stderr.contains("Error: --distribute-by agency: a distributed table's unique key must include "
                                                   + "its distribution column, and n5m4_mism has the key (_id); pass --distribute-by _id instead"),
                      wrongColumn.stderr)
        let fetched = try socload(["fetch", "n5m4-mism", "--distribute-by", "_id", "--quiet"])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        // A refresh keeps the distribution.
        XCTAssertEqual(try socload(["fetch", "n5m4-mism", "--quiet", "--force"]).status, 0)
        let calls = try database.connect().execute("SELECT table_name, distribution_column, rows_then FROM citus_calls").rows
        XCTAssertEqual(calls.count, 2)
        for call in calls {
            XCTAssertTrue(call[0]?.hasPrefix("_socload_new_") ?? false, "\(call)")
            XCTAssertEqual(call[1], "_id")
            XCTAssertEqual(call[2], "0")
        }
        XCTAssertEqual(try database.connect().value("SELECT count(*) FROM n5m4_mism"), "300")
        let sqlite = try socload(["fetch", "n5m4-mism", "--distribute-by", "_id"], db: directory.path("x.sqlite"))
        XCTAssertEqual(sqlite.status, 64, sqlite.stderr)
    }

    func testQueryTakesPostgreSQLsOwnSQLAndIsReadOnlyWithoutWrite() throws {
        XCTAssertEqual(try socload(["fetch", "n5m4-mism", "--quiet"]).status, 0)
        let parameters = try socload(["query", "select count(*)::int as n from n5m4_mism where agency = $1 and holdover = $2::boolean",
                                      "--param", "State", "--param", "true", "--format", "csv"])
        XCTAssertEqual(parameters.status, 0, parameters.stderr)
        XCTAssertEqual(parameters.stdout, "n\r\n7\r\n")
        // `?` is a jsonb operator and `::` a cast: nothing is rewritten.
        let operators = try socload(["query", #"select '{"a":1}'::jsonb ? 'a' as has_a"#, "--format", "csv"])
        XCTAssertEqual(operators.stdout, "has_a\r\n1\r\n", operators.stderr)
        for statement in ["delete from n5m4_mism", "drop table n5m4_mism", "create table x (a int)",
                          "copy n5m4_mism to stdout", "  /* c */ COPY n5m4_mism TO '/tmp/socload-x'", "select nextval('s')",
                          "insert into _socload_datasets (table_name) values ('x')"] {
            let refused = try socload(["query", statement])
            XCTAssertTrue(refused.status == 77 || (refused.status == 74 && statement.contains("nextval")), "\(statement): \(refused.stderr)")
        }
        XCTAssertEqual(try socload(["query", "select count(*) from n5m4_mism", "--format", "csv"]).stdout, "count\r\n300\r\n")
        let named = try socload(["query", "select 1", "--param", ":x=1"])
        XCTAssertEqual(named.status, 64, named.stderr)
        let write = try socload(["query", "delete from n5m4_mism where agency = $1", "--param", "State", "--write"])
        XCTAssertEqual(write.status, 0, write.stderr)
        XCTAssertEqual(try socload(["query", "select count(*) from n5m4_mism", "--format", "csv"]).stdout, "count\r\n238\r\n")
        // With --write a statement runs as sent, so one that cannot run in a transaction block works.
        let vacuum = try socload(["query", "vacuum analyze n5m4_mism", "--write"])
        XCTAssertEqual(vacuum.status, 0, vacuum.stderr)
        let twoStatements = try socload(["query", "select 1; delete from n5m4_mism", "--write"])
        XCTAssertEqual(twoStatements.status, 74, twoStatements.stderr)
        XCTAssertEqual(try socload(["query", "select count(*) from n5m4_mism", "--format", "csv"]).stdout, "count\r\n238\r\n")
    }

    func testSchemaOptionTablesAndDrop() throws {
        let fetched = try socload(["fetch", "n5m4-mism", "--schema", "open data", "--quiet"])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertEqual(try socload(["tables", "--format", "csv"]).stdout, "table,rows,in_sql\r\n")
        XCTAssertEqual(try socload(["tables", "--schema", "open data", "--format", "csv"]).stdout,
                       "table,rows,in_sql\r\nn5m4_mism,300,n5m4_mism\r\n")
        let dropped = try socload(["drop", "n5m4-mism", "--schema", "open data"])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        XCTAssertEqual(dropped.stderr, "Dropped n5m4_mism\n")
        let again = try socload(["drop", "n5m4-mism", "--schema", "open data"])
        XCTAssertEqual(again.status, 66, again.stderr)
        let sqliteSchema = try socload(["tables", "--schema", "x"], db: directory.path("a.sqlite"))
        XCTAssertEqual(sqliteSchema.status, 64, sqliteSchema.stderr)
    }

    func testAPasswordIsNeverPrintedNorStored() throws {
        var withPassword = URLComponents(string: database.url)!
        withPassword.password = "s3cret-pw"
        let url = withPassword.string!
        XCTAssertTrue(url.contains("s3cret-pw"))
        let fetched = try socload(["fetch", "n5m4-mism"], db: url)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertFalse(fetched.stderr.contains("s3cret"), fetched.stderr)
        let catalog = try socload(["query", "select * from _socload_datasets", "--format", "json"], db: url)
        XCTAssertFalse(catalog.stdout.contains("s3cret"))
        var unreachable = withPassword
        unreachable.port = 1
        let failed = try socload(["tables"], db: unreachable.string! + "?password=other-s3cret")
        XCTAssertEqual(failed.status, 69, failed.stderr)
        XCTAssertFalse(failed.stderr.contains("s3cret"), failed.stderr)
        XCTAssertTrue(failed.stderr.hasPrefix("Error: PostgreSQL error: cannot connect to postgresql://postgres@127.0.0.1:1/"), failed.stderr)
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
    }

    func testFetchThenSyncThroughTheSODAAPI() throws {
        let columns: [FakeSocrataPortal.Column] = [.init("name", "text"), .init("amount", "number")]
        func row(_ index: Int, updated: Int = 0) -> FakeSocrataPortal.Row {
            .init(id: "row-\(String(format: "%04d", index))", createdAt: 1_420_070_400 + index,
                  updatedAt: 1_420_070_400 + index + updated, cells: ["name": .text("Name \(index)"), "amount": .number("\(index).5")])
        }
        let portal = try FakeSocrataPortal(datasetID: "port-0001", columns: columns, rows: (1...12).map { row($0) },
                                           rowsUpdatedAt: 1_430_000_000)
        defer { portal.stop() }
        let fetch = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda2", "--page-size", "5"])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        portal.update({ rows, _ in
            rows[0].cells["name"] = .text("Changed")
            rows[0].updatedAt += 10_000
            rows.append(row(13, updated: 20_000))
        }, rowsUpdatedAt: 1_430_000_100)
        let sync = try socload(["sync", "port_0001", "--page-size", "5"])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertTrue(sync.stderr.hasPrefix("Synced port_0001: 2 rows received (1 new, 1 already there) since 2015-01-01T00:00:12Z, 13 rows in all, in "),
                      sync.stderr)
        let names = try socload(["query", "select name, amount from port_0001 order by _id limit 2", "--format", "csv"])
        XCTAssertEqual(names.stdout, "name,amount\r\nChanged,1.5\r\nName 2,2.5\r\n")
    }
}
