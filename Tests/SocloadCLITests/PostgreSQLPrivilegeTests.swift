import Foundation
import SocloadPostgreSQL
import SocloadTestSupport
import XCTest

/// What `query` without `--write` protects in PostgreSQL (a READ ONLY transaction: no table
/// changes), and what only a role with SELECT privileges protects (functions with side effects).
/// The README recommends such a role for shared use; these tests hold it to that.
final class PostgreSQLPrivilegeTests: XCTestCase {
    func testASelectOnlyRoleIsRefusedEveryFunctionWithSideEffects() throws {
        let database = try TestPostgreSQL.makeDatabase()
        let environment = ["SOCLOAD_DATASETS": Fixtures.datasetsDirectory.path]
        XCTAssertEqual(try SocloadProcess.run(["fetch", "n5m4-mism", "--quiet", "--db", database.url], environment: environment).status, 0)
        let admin = try database.connect()
        let role = "socload_reader_\(getpid())"
        _ = try admin.execute("DROP ROLE IF EXISTS \(role)")
        _ = try admin.execute("CREATE ROLE \(role) LOGIN")
        defer {
            _ = try? admin.execute("DROP OWNED BY \(role)")
            _ = try? admin.execute("DROP ROLE IF EXISTS \(role)")
        }
        for statement in ["GRANT CONNECT ON DATABASE \(database.name) TO \(role)", "GRANT USAGE ON SCHEMA public TO \(role)",
                          "GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)", "CREATE EXTENSION IF NOT EXISTS dblink"] {
            _ = try admin.execute(statement)
        }
        var components = URLComponents(string: database.url)!
        components.user = role
        let reader = components.string!
        let adminPID = try XCTUnwrap(admin.value("SELECT pg_backend_pid()"))

        let read = try SocloadProcess.run(["query", "select count(*) as n from n5m4_mism", "--format", "csv", "--db", reader])
        XCTAssertEqual(read.stdout, "n\r\n300\r\n", read.stderr)
        let sideEffects = [
            "select pg_terminate_backend(\(adminPID))", "select lo_import('/etc/hostname')",
            "select lo_export(1, '/tmp/socload-lo-export-\(getpid())')", "select pg_switch_wal()", "checkpoint",
            "select dblink_exec('dbname=\(database.name)', 'create table planted (x int)')",
        ]
        for sql in sideEffects {
            for write in [[], ["--write"]] {
                let run = try SocloadProcess.run(["query", sql, "--db", reader] + write)
                XCTAssertNotEqual(run.status, 0, "\(sql) \(write): \(run.stdout)")
                XCTAssertTrue(run.status == 77 || sql.contains("dblink"), "\(sql) \(write): \(run.status) \(run.stderr)")
                XCTAssertTrue(run.stderr.hasPrefix("Error: PostgreSQL error"), run.stderr)
            }
        }
        // Nothing happened: the admin's session lives, no table was planted, no file written.
        XCTAssertEqual(try admin.value("SELECT 1"), "1")
        XCTAssertEqual(try admin.value("SELECT count(*) FROM pg_class WHERE relname = 'planted'"), "0")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/socload-lo-export-\(getpid())"))
        // A SELECT-only role cannot change a table even with --write.
        let delete = try SocloadProcess.run(["query", "delete from n5m4_mism", "--write", "--db", reader])
        XCTAssertEqual(delete.status, 77, delete.stderr)
    }

    /// A refresh by a role that can drop another role's view (it owns the schema) but cannot give
    /// it back to its owner is refused: exit 77 naming the view, nothing changed; once the loader
    /// is a member of the owner's role, the same refresh rebuilds the view as the owner's.
    func testARefreshThatCannotRebuildAnotherRolesViewChangesNothing() throws {
        let database = try TestPostgreSQL.makeDatabase()
        let admin = try database.connect()
        let (loader, analyst) = ("socload_loader_\(getpid())", "socload_analyst_\(getpid())")
        for role in [loader, analyst] { _ = try? admin.execute("DROP OWNED BY \(role)") }
        _ = try? admin.execute("DROP ROLE IF EXISTS \(loader)")
        _ = try? admin.execute("DROP ROLE IF EXISTS \(analyst)")
        defer {
            _ = try? admin.execute("DROP SCHEMA IF EXISTS opendata CASCADE")
            for role in [loader, analyst] {
                _ = try? admin.execute("DROP OWNED BY \(role)")
                _ = try? admin.execute("DROP ROLE IF EXISTS \(role)")
            }
        }
        for statement in ["CREATE ROLE \(loader) LOGIN", "CREATE ROLE \(analyst) LOGIN", "CREATE SCHEMA opendata AUTHORIZATION \(loader)",
                          "GRANT CONNECT ON DATABASE \(database.name) TO \(loader), \(analyst)"] {
            _ = try admin.execute(statement)
        }
        var components = URLComponents(string: database.url)!
        components.user = loader
        let asLoader = ["--db", components.string!, "--schema", "opendata"]
        let environment = ["SOCLOAD_DATASETS": Fixtures.datasetsDirectory.path]
        let first = try SocloadProcess.run(["fetch", "n5m4-mism", "--quiet"] + asLoader, environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        for statement in ["GRANT USAGE, CREATE ON SCHEMA opendata TO \(analyst)", "GRANT SELECT ON opendata.n5m4_mism TO \(analyst)",
                          "SET ROLE \(analyst)",
                          "CREATE VIEW opendata.dba_report AS SELECT agency, count(*) AS n FROM opendata.n5m4_mism GROUP BY agency",
                          "RESET ROLE"] {
            _ = try admin.execute(statement)
        }
        let owner = "SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'opendata.dba_report'::regclass"
        let refused = try SocloadProcess.run(["fetch", "n5m4-mism", "--force", "--quiet"] + asLoader, environment: environment)
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("this role cannot rebuild view opendata.dba_report"), refused.stderr)
        XCTAssertTrue(refused.stderr.hasSuffix("n5m4_mism was not changed\n"), refused.stderr)
        XCTAssertEqual(try admin.value(owner), analyst, "the view is still there, still the analyst's")
        XCTAssertEqual(try admin.value("SELECT sum(n)::text FROM opendata.dba_report"), "300")

        _ = try admin.execute("GRANT \(analyst) TO \(loader)")
        let rebuilt = try SocloadProcess.run(["fetch", "n5m4-mism", "--force", "--quiet"] + asLoader, environment: environment)
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertEqual(try admin.value(owner), analyst)
        XCTAssertEqual(try admin.value("SELECT sum(n)::text FROM opendata.dba_report"), "300")
    }
}
