import Foundation
import SocloadTestSupport
import XCTest

/// A load's fixed cost does not grow with the datasets the database holds: it reads only the
/// plans it could clash with (by name, `_socload_table_names`), and on SQLite moves a small
/// table aside by copying it rather than by `ALTER TABLE RENAME`, whose cost is the whole
/// schema's. Checked on what the load asks the database (`SOCLOAD_SQL_LOG`); the times are
/// `make bench`'s.
final class LoadFixedCostTests: XCTestCase {
    private func succeed(_ arguments: [String], db: String, environment: [String: String] = [:],
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try SocloadProcess.run(arguments + ["--db", db], environment: environment)
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)", file: file, line: line)
    }

    /// A batch into a SQLite file whose folder is missing fails once, before any download, not
    /// once a dataset.
    func testABatchIntoAMissingFolderFailsOnceBeforeItStarts() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("a.json")
        try Data(#"[{"k": 1}]"#.utf8).write(to: URL(fileURLWithPath: file))
        let run = try SocloadProcess.run(["fetch", file, file, "--db", directory.path("missing/x.sqlite")])
        XCTAssertEqual(run.status, 74, run.stderr)
        XCTAssertEqual(run.stderr, "Error: cannot create the database '\(directory.path("missing/x.sqlite"))': its folder "
                       + "'\(directory.path("missing"))' does not exist\n")
    }

    func testALoadReadsOnlyThePlansItCanClashWithAndRenamesNoSmallTable() throws {
        let directory = try TemporaryDirectory()
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        let nested = directory.path("nested.json")
        try Data(#"[{"id": 1, "kind": "a", "items": [{"n": "x"}]}, {"id": 2, "kind": "b", "items": []}]"#.utf8)
            .write(to: URL(fileURLWithPath: nested))
        for db in [directory.path("many.sqlite"), postgreSQL.url] {
            for number in 1...12 {
                try succeed(["load", nested, "--table", "d\(number)", "--pk", "id", "--extract", "kind:kinds_\(number)", "--quiet"], db: db)
            }
            let log = directory.path("load-\(db.hasPrefix("postgresql") ? "pg" : "sqlite").log")
            try succeed(["load", nested, "--table", "d5", "--pk", "id", "--extract", "kind:kinds_5", "--quiet"], db: db,
                        environment: ["SOCLOAD_SQL_LOG": log])
            let statements = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            XCTAssertFalse(statements.contains { $0.contains("\"plan_json\" IS NOT NULL") }, "every plan was read:\n\(statements.joined(separator: "\n"))")
            XCTAssertTrue(statements.contains { $0.contains("FROM \"_socload_table_names\"") || $0.contains("\"_socload_table_names\" WHERE \"name_key\"") },
                          statements.joined(separator: "\n"))
            if !db.hasPrefix("postgresql") {
                XCTAssertFalse(statements.contains { $0.contains("RENAME TO") }, statements.filter { $0.contains("RENAME") }.joined(separator: "\n"))
            }

            // The claims still hold through the index: another dataset's child or lookup is not a table to load into.
            let other = directory.path("other.json")
            try Data(#"[{"k": 1}]"#.utf8).write(to: URL(fileURLWithPath: other))
            let child = try SocloadProcess.run(["load", other, "--table", "d7_items", "--db", db])
            XCTAssertEqual(child.status, 64, child.stderr)
            XCTAssertTrue(child.stderr.contains("but it is a child table of d7"), child.stderr)

            // A catalog from before the index is indexed on its next load, from every plan.
            try succeed(["query", "DROP TABLE _socload_table_names", "--write"], db: db)
            try succeed(["load", other, "--table", "fresh", "--quiet"], db: db)
            let again = try SocloadProcess.run(["load", other, "--table", "d9_items", "--db", db])
            XCTAssertEqual(again.status, 64, again.stderr)
            XCTAssertTrue(again.stderr.contains("but it is a child table of d9"), again.stderr)
            let claims = try SocloadProcess.run(["query", "SELECT count(*) AS n FROM _socload_table_names WHERE table_name = 'd3'",
                                                 "--format", "csv", "--db", db])
            XCTAssertEqual(claims.stdout.split(whereSeparator: \.isNewline), ["n", "3"], "d3, d3_items and kinds_3: \(claims.stderr)")

            // A release before the index (catalog version 3) wrote since: the index is not trusted, and filled again.
            try succeed(["query", "DELETE FROM _socload_table_names WHERE table_name = 'd11'", "--write"], db: db)
            try succeed(["query", "UPDATE _socload_meta SET value = '3' WHERE key = 'catalog_version'", "--write"], db: db)
            let stale = try SocloadProcess.run(["load", other, "--table", "d11_items", "--db", db])
            XCTAssertEqual(stale.status, 64, stale.stderr)
            XCTAssertTrue(stale.stderr.contains("but it is a child table of d11"), stale.stderr)
            try succeed(["load", other, "--table", "fresh", "--quiet"], db: db)
            let refilled = try SocloadProcess.run(["query", "SELECT count(*) AS n FROM _socload_table_names WHERE table_name = 'd11'",
                                                   "--format", "csv", "--db", db])
            XCTAssertEqual(refilled.stdout.split(whereSeparator: \.isNewline), ["n", "3"], refilled.stderr)
        }
    }

    /// A batch (`fetch A B C`, `refresh`) into a SQLite file that exists opens at most two
    /// connections, however many datasets it loads: one reads the whole catalog once, before any
    /// load writes (not at all with `--force`), and the loads and the lock file's records share the other (each new connection, or
    /// one whose schema another changed, reads the whole schema first). Catalog lookups of one
    /// table go through an index.
    func testABatchOpensSQLiteOnceForItsLoadsAndReadsItsCatalogOnce() throws {
        let directory = try TemporaryDirectory()
        // Six rows.json exports: the bundled one under six dataset ids.
        let export = String(decoding: try Fixtures.bundled("n5m4-mism"), as: UTF8.self)
        let files = try (1...6).map { number -> String in
            let file = directory.path("dd00-000\(number).json")
            try Data(export.replacingOccurrences(of: "\"n5m4-mism\"", with: "\"dd00-000\(number)\"").utf8).write(to: URL(fileURLWithPath: file))
            return file
        }
        let db = directory.path("batch.sqlite")
        try succeed(["fetch"] + files + ["--quiet"], db: db)
        let log = directory.path("fetch.log")
        try succeed(["fetch"] + files + ["--force", "--jobs", "3", "--quiet"], db: db, environment: ["SOCLOAD_SQL_LOG": log])
        var statements = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(statements.filter { $0 == "-- connection opened" }.count, 1, "--force looks up no last load")
        XCTAssertEqual(statements.filter { $0.hasPrefix("INSERT INTO \"_socload_refreshes\"") }.count, 6, "the loads")

        // A refresh: the catalog read once for every dataset's last load, and the lock it leaves
        // (recorded through the loads' connection) agrees with the database.
        let project = directory.path("socload.json")
        try Data(("{\"database\": \"batch.sqlite\", \"datasets\": [" + (1...6).map { "{\"file\": \"dd00-000\($0).json\"}" }
                  .joined(separator: ", ") + "]}").utf8).write(to: URL(fileURLWithPath: project))
        for force in [true, false] {
            let refreshLog = directory.path("refresh-\(force).log")
            let refresh = try SocloadProcess.run(["refresh", "--project", project, "--jobs", "3", "--quiet"] + (force ? ["--force"] : []),
                                                 environment: ["SOCLOAD_SQL_LOG": refreshLog])
            XCTAssertEqual(refresh.status, 0, refresh.stderr)
            statements = try String(contentsOfFile: refreshLog, encoding: .utf8).split(separator: "\n")
            XCTAssertEqual(statements.filter { $0 == "-- connection opened" }.count, force ? 1 : 2, statements.joined(separator: "\n"))
            XCTAssertEqual(statements.filter { $0.contains("FROM \"_socload_datasets\" ORDER BY") }.count, force ? 0 : 1)
            XCTAssertEqual(statements.filter { $0.hasPrefix("INSERT INTO \"_socload_refreshes\"") }.count, force ? 6 : 0, "the loads")
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("socload.lock-journal")))
            // The write-ahead log is checkpointed when the batch closes its connection, not after each load.
            XCTAssertFalse(statements.contains { $0.contains("wal_checkpoint") }, statements.joined(separator: "\n"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: db + "-wal"), "the log is folded in when the batch ends")
            let verify = try SocloadProcess.run(["verify", "--locked", "--project", project])
            XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        }

        let plan = try SocloadProcess.run(["query", "EXPLAIN QUERY PLAN SELECT * FROM _socload_datasets WHERE table_name = 'dd00_0001' "
                                           + "COLLATE NOCASE OR dataset_id = 'dd00-0001'", "--format", "csv", "--db", db])
        XCTAssertTrue(plan.stdout.contains("_socload_datasets_by_name") && plan.stdout.contains("_socload_datasets_by_dataset"),
                      plan.stdout + plan.stderr)
    }
}
