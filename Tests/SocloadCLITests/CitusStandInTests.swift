import Foundation
import SocloadTestSupport
import XCTest

/// Citus calls checked against stand-in functions on the test server (CI has no Citus; the
/// real cluster is `CitusClusterTests`): lookups made reference tables before the distributed
/// table exists, child and glue tables distributed with their parent, the order of the calls
/// inside the transaction, and counts made set-based with no trigger on a distributed table.
final class CitusStandInTests: XCTestCase {
    var database: TestPostgreSQL.TestDatabase!
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        database = try TestPostgreSQL.makeDatabase()
        directory = try TemporaryDirectory()
        let connection = try database.connect()
        try connection.execute("""
            CREATE TABLE citus_calls (n bigserial, call text, table_name text, distribution_column text, colocate_with text,
                                      rows_then bigint)
            """)
        try connection.execute("""
            CREATE FUNCTION create_distributed_table(table_name regclass, distribution_column text,
                                                     colocate_with text DEFAULT 'default') RETURNS void
            LANGUAGE plpgsql AS $$
            DECLARE rows_now bigint;
            BEGIN
              EXECUTE format('SELECT count(*) FROM %s', table_name) INTO rows_now;
              INSERT INTO citus_calls (call, table_name, distribution_column, colocate_with, rows_then)
              VALUES ('distributed', table_name::text, distribution_column, colocate_with, rows_now);
            END $$
            """)
        try connection.execute("""
            CREATE FUNCTION create_reference_table(table_name regclass) RETURNS void
            LANGUAGE plpgsql AS $$
            DECLARE rows_now bigint;
            BEGIN
              EXECUTE format('SELECT count(*) FROM %s', table_name) INTO rows_now;
              INSERT INTO citus_calls (call, table_name, rows_then) VALUES ('reference', table_name::text, rows_now);
            END $$
            """)
    }

    override func tearDown() {
        database = nil
    }

    private func socload(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", database.url], environment: ["SOCLOAD_DATASETS": Fixtures.datasetsDirectory.path])
    }

    private func calls() throws -> [[String?]] {
        try database.connect().execute("SELECT call, table_name, distribution_column, colocate_with, rows_then FROM citus_calls ORDER BY n").rows
    }

    private func value(_ sql: String) throws -> String? { try database.connect().value(sql) }

    func testLookupsOfADistributedTableAreReferenceTablesCountedWithoutTriggers() throws {
        let fetched = try socload(["fetch", "n5m4-mism", "--distribute-by", "_id", "--extract", "agency+count", "--quiet"])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        let made = try calls()
        // The lookup, the new copy, then the staging table its rows arrive in, which goes with it
        // (Citus joins no temporary table with a distributed or reference one).
        XCTAssertEqual(made.map { $0[0] }, ["reference", "distributed", "distributed"], "\(made)")
        XCTAssertEqual(made[0][1], "agency")
        XCTAssertEqual(made[0][4], "0", "the lookup is a reference table while still empty")
        XCTAssertTrue(made[1][1]?.hasPrefix("_socload_new_") ?? false, "\(made[1])")
        XCTAssertEqual(made[1][2], "_id")
        XCTAssertEqual(made[1][3], "none", "a new distributed table is a colocation group of its own")
        XCTAssertTrue(made[2][1]?.hasPrefix("_socload_rows_") ?? false, "\(made[2])")
        XCTAssertEqual(made[2][3], "\"public\".\"\(made[1][1] ?? "")\"")
        XCTAssertEqual(made.map { $0[4] }, ["0", "0", "0"], "every table made Citus's while empty")
        XCTAssertEqual(try value("SELECT to_regclass('\(made[2][1] ?? "")') IS NULL"), "t", "the staging table is dropped")
        XCTAssertEqual(try value("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'n5m4_mism'::regclass AND NOT tgisinternal"), "0",
                       "Citus keeps no trigger on a distributed table")
        XCTAssertEqual(try value("SELECT sum(n5m4_mism_count) FROM agency"), "300", "counted set-based after the load")
        XCTAssertEqual(try value("SELECT n5m4_mism_count FROM agency WHERE agency = 'State'"), "62")

        // The user's own writes do not move the counts there: verify says so, recount repairs.
        try database.connect().execute("DELETE FROM n5m4_mism WHERE agency_id = (SELECT id FROM agency WHERE agency = 'State')")
        let drifted = try socload(["verify", "n5m4_mism"])
        XCTAssertEqual(drifted.status, 65, drifted.stderr)
        XCTAssertTrue(drifted.stderr.contains("agency.n5m4_mism_count on 1 row"), drifted.stderr)
        let recount = try socload(["recount", "n5m4_mism"])
        XCTAssertEqual(recount.status, 0, recount.stderr)
        XCTAssertEqual(try value("SELECT n5m4_mism_count FROM agency WHERE agency = 'State'"), "0")

        // A refresh keeps both: the lookup is not made a reference table again (it is one).
        XCTAssertEqual(try socload(["fetch", "n5m4-mism", "--force", "--quiet"]).status, 0)
        XCTAssertEqual(try calls().map { $0[0] }, ["reference"] + Array(repeating: "distributed", count: 4))
        XCTAssertEqual(try value("SELECT sum(n5m4_mism_count) FROM agency"), "300")
    }

    func testChildAndGlueTablesAreDistributedWithTheirParent() throws {
        let document = directory.path("orders.ndjson")
        try Data(#"""
            {"id": "o1", "items": [{"sku": "a", "n": 2}, {"sku": "b", "n": 1}], "tags": [{"tag_id": 7}]}
            {"id": "o2", "items": [{"sku": "c", "n": 5}], "tags": [{"tag_id": 8}, {"tag_id": 7}]}

            """#.utf8).write(to: URL(fileURLWithPath: document))
        let loaded = try socload(["load", document, "--table", "orders", "--pk", "id", "--distribute-by", "id",
                                  "--glue", "tags:tags.tag_id", "--quiet"])
        XCTAssertEqual(loaded.status, 0, loaded.stderr)
        let made = try calls()
        XCTAssertEqual(made.count, 3, "\(made)")
        let parent = try XCTUnwrap(made.first { $0[2] == "id" })
        XCTAssertTrue(parent[1]?.hasPrefix("_socload_new_") ?? false)
        let child = try XCTUnwrap(made.first { $0[2] == "orders_id" && $0[1]?.hasPrefix("_socload_new_") == true })
        XCTAssertEqual(child[3], "\"public\".\"\(parent[1] ?? "")\"", "the child goes with the parent's new copy: \(made)")
        let glue = try XCTUnwrap(made.first { $0[1] == "orders_tags" })
        XCTAssertEqual(glue[2], "orders_id")
        XCTAssertEqual(glue[3], "\"public\".\"orders\"", "the glue table goes with the parent: \(glue)")
        XCTAssertEqual(made.map { $0[4] }, ["0", "0", "0"], "every table distributed while empty")
        XCTAssertEqual(try value("SELECT count(*) FROM orders_items"), "3")
        XCTAssertEqual(try value("SELECT count(*) FROM orders_tags"), "3")

        // A refresh that changes rows: the change log and the history through the statements a
        // distributed table gets (socload's own tables read in subqueries of their own).
        try Data(#"""
            {"id": "o1", "items": [{"sku": "a", "n": 3}], "tags": [{"tag_id": 7}]}
            {"id": "o3", "items": [], "tags": []}

            """#.utf8).write(to: URL(fileURLWithPath: document))
        let refreshed = try socload(["load", document, "--table", "orders", "--pk", "id", "--glue", "tags:tags.tag_id", "--history"])
        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        XCTAssertTrue(refreshed.stderr.contains("Refreshed orders: 1 added, 0 changed, 1 removed, 1 unchanged"), refreshed.stderr)
        let changes = try socload(["changes", "orders", "--format", "csv"])
        XCTAssertTrue(changes.stdout.contains(",added,id=o3,") && changes.stdout.contains(",removed,id=o2,"), changes.stdout)
        XCTAssertEqual(try value("SELECT count(*) FROM orders_history"), "2")
        XCTAssertEqual(try value("SELECT distribution_column FROM citus_calls ORDER BY n DESC LIMIT 1"), "orders_id",
                       "the refresh distributes the new child copy again")

        // A distribution column the table does not have is said before loading.
        let refused = try socload(["load", document, "--table", "orders2", "--pk", "id", "--distribute-by", "items",
                                   "--quiet"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        let sqlite = try SocloadProcess.run(["load", document, "--distribute-by", "id", "--pk", "id", "--db", directory.path("x.sqlite")])
        XCTAssertEqual(sqlite.status, 64, sqlite.stderr)
        XCTAssertTrue(sqlite.stderr.contains("--distribute-by needs a PostgreSQL database with Citus"), sqlite.stderr)
    }
}
