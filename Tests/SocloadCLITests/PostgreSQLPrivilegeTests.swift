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
}
