import Foundation
import SocloadTestSupport
import XCTest

/// A child or glue table a load generates never takes a table that is another dataset's or a
/// user's, nor does a load take another dataset's child table; `drop` removes only a dataset's
/// own tables, whatever its recorded plan says. SQLite and PostgreSQL.
final class TableClaimTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func run(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db])
    }

    @discardableResult
    private func succeed(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> SocloadRun {
        let result = try run(arguments, db: db)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result
    }

    private func csv(_ sql: String, db: String) throws -> [String] {
        try succeed(["query", sql, "--format", "csv"], db: db).stdout.split(whereSeparator: \.isNewline).dropFirst().map(String.init)
    }

    private func write(_ text: String, to name: String) throws -> String {
        let path = directory.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testGeneratedTablesNeverTakeAnotherDatasetsOrAUsersTable() throws {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        let nested = try write(#"[{"id": 1, "items": [{"n": "a"}, {"n": "b"}]}, {"id": 2, "items": []}]"#, to: "x.json")
        let other = try write(#"[{"k": "other 1"}, {"k": "other 2"}, {"k": "other 3"}]"#, to: "other.json")
        for db in [directory.path("claims.sqlite"), postgreSQL.url] {
            // Another dataset's table is not a child table of x.
            try succeed(["load", other, "--table", "x_items"], db: db)
            let taken = try run(["load", nested, "--table", "x", "--pk", "id"], db: db)
            XCTAssertEqual(taken.status, 64, taken.stderr)
            XCTAssertTrue(taken.stderr.hasPrefix("Error: the load would write x_items, but it is the table of another loaded "
                                                 + "dataset (x_items): choose another --table"), taken.stderr)
            XCTAssertEqual(try csv("SELECT count(*) FROM x_items", db: db), ["3"])
            XCTAssertEqual(try csv("SELECT table_name FROM _socload_datasets ORDER BY table_name", db: db), ["x_items"])

            // A user's table is not either.
            try succeed(["query", "CREATE TABLE y_items (mine text)", "--write"], db: db)
            let mine = try run(["load", nested, "--table", "y", "--pk", "id"], db: db)
            XCTAssertEqual(mine.status, 64, mine.stderr)
            XCTAssertTrue(mine.stderr.contains("it exists and is not a child table of y (a table of yours?)"), mine.stderr)

            // A generated name in SQLite's or socload's own namespace is refused, not run into.
            let reserved = try write(#"[{"id": 1, "master": [{"a": 1}], "datasets": [{"b": 2}]}]"#, to: "reserved.json")
            for (table, child) in [("sqlite", "sqlite_master"), ("_socload", "_socload_master")] {
                let run = try run(["load", reserved, "--table", table, "--pk", "id"], db: db)
                XCTAssertEqual(run.status, 64, run.stderr)
                XCTAssertTrue(run.stderr.hasPrefix("Error: '\(child)' is reserved for socload's or SQLite's own use"), run.stderr)
            }
            // A dataset's child table is not another load's table; its own refresh is fine.
            try succeed(["load", nested, "--table", "z", "--pk", "id"], db: db)
            try succeed(["load", nested, "--table", "z", "--pk", "id"], db: db)
            let child = try run(["load", other, "--table", "z_items"], db: db)
            XCTAssertEqual(child.status, 64, child.stderr)
            XCTAssertTrue(child.stderr.contains("but it is a child table of z"), child.stderr)
            XCTAssertEqual(try csv("SELECT count(*) FROM z_items", db: db), ["2"])

            // A plan edited by hand to name the user's table as a child does not make drop take it.
            try succeed(["query", "UPDATE _socload_datasets SET plan_json = replace(plan_json, '\"z_items\"', '\"y_items\"') "
                         + "WHERE table_name = 'z'", "--write"], db: db)
            // (z's real child, no longer in its plan, holds a foreign key to z: the drop is refused for it.)
            let refused = try run(["drop", "z"], db: db)
            XCTAssertEqual(refused.status, 64, refused.stderr)
            XCTAssertTrue(refused.stderr.hasPrefix("Error: z is used by z_items"), refused.stderr)
            try succeed(["query", "DROP TABLE z_items", "--write"], db: db)
            try succeed(["drop", "z"], db: db)
            XCTAssertEqual(try csv("SELECT count(*) FROM y_items", db: db), ["0"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM x_items", db: db), ["3"], db)
        }
    }
}
