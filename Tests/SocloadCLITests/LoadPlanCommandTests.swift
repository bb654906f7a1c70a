import Foundation
import SocloadDatabase
import SocloadTestSupport
import XCTest

/// What the load plan changes for users: unparsable cells, `--strict`, `--type`, `--index`,
/// `--dry-run`, keys built after the rows, and the user's own indexes and triggers kept across a
/// re-fetch.
final class LoadPlanCommandTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("plan.sqlite")
    }

    private func document(_ columns: [(String, String)], _ rows: [String]) -> String {
        let system = [":sid", ":id", ":created_at", ":updated_at"].map { ($0, "meta_data") }
        let meta = (system + columns).map { #"{"fieldName":"\#($0.0)","dataTypeName":"\#($0.1)"}"# }.joined(separator: ",")
        return #"{"meta":{"view":{"id":"plan-0001","columns":["# + meta + #"]}},"data":["# + rows.joined(separator: ",\n") + "]}"
    }

    /// A row with a system prefix for row id `id`.
    private func row(_ id: String, _ cells: String) -> String {
        #"["\#(id)","00-\#(id)",1446120000,1446120000,"# + cells + "]"
    }

    private func fetch(_ text: String, _ options: [String] = []) throws -> SocloadRun {
        let path = directory.path("input.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try SocloadProcess.run(["fetch", path, "--table", "t", "--db", db] + options)
    }

    private func query(_ sql: String) throws -> String {
        try SocloadProcess.run(["query", sql, "--db", db, "--format", "csv"]).stdout
    }

    private var amounts: String {
        document([("name", "text"), ("amount", "number")], [
            row("row-1", #""Ann","12""#), row("row-2", #""Bob","N/A""#), row("row-3", #""Cy","""#),
            row("row-4", #""Di","$1,234.50""#), row("row-5", #""Ed","NaN""#),
        ])
    }

    func testCellsThatAreNotOfTheirTypeAreNullCountedAndSummarized() throws {
        let run = try fetch(amounts)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("Loaded 5 rows into t (5 columns)"), run.stderr)
        XCTAssertEqual(lines.dropFirst(), [#"amount: 2 cells were not numbers, stored as NULL; first at row 2: "N/A""#])
        XCTAssertEqual(try query("select name, amount, typeof(amount) as t from t order by rowid"),
                       "name,amount,t\r\nAnn,12,integer\r\nBob,,null\r\nCy,,null\r\nDi,1234.5,real\r\nEd,,null\r\n")
        let info = try SocloadProcess.run(["info", "t", "--db", db, "--format", "csv"]).stdout
        XCTAssertTrue(info.contains(#"invalid_cells,"amount: 2 cells were not numbers, stored as NULL; first at row 2: ""N/A""""#),
                      info)
        XCTAssertTrue(try query("select invalid_cells_json from _socload_datasets").contains(#""count"":2"#))
    }

    func testStrictStopsAtTheFirstSuchCellAndChangesNothing() throws {
        let good = document([("name", "text"), ("amount", "number")], [row("row-1", #""Ann","12""#)])
        XCTAssertEqual(try fetch(good).status, 0)
        let before = try query("select * from t") + query("select * from _socload_datasets")
        let run = try fetch(amounts, ["--strict"])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertEqual(run.stderr, #"Error: row 2, column amount: "N/A" is not a valid decimal (--strict); t was not changed"# + "\n")
        XCTAssertEqual(try query("select * from t") + query("select * from _socload_datasets"), before)
    }

    func testKeysAreBuiltAfterTheRowsAndNameTheRowsThatBreakThem() throws {
        let duplicate = document([("name", "text")], [row("row-1", #""a""#), row("row-2", #""b""#), row("row-1", #""c""#)])
        let run = try fetch(duplicate)
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(run.stderr, #"Error: duplicate key _id = "row-1" in t: rows 1 and 3; "# + db + " was not created\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "a failed first load leaves no database")

        let nullKey = document([("name", "text")], [row("row-1", #""a""#), #"[null,null,1,1,"b"]"#])
        let second = try fetch(nullKey)
        XCTAssertEqual(second.status, 65)
        XCTAssertEqual(second.stderr, "Error: row 2: the key _id of t is empty (NULL): the rows carry no :id; --pk COLUMN keys the table by a column of theirs; \(db!) was not created\n")

        XCTAssertEqual(try fetch(amounts).status, 0)
        XCTAssertEqual(try query("select name from sqlite_schema where type = 'index' and tbl_name = 't'"),
                       "name\r\n_socload_key_t\r\n")
        let schema = try SocloadProcess.run(["schema", "t", "--db", db, "--format", "table"]).stdout
        let fields = schema.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertTrue(fields.contains(["_id", "TEXT", "1", "1", "text"]), schema)
        XCTAssertTrue(fields.contains(["amount", "NUMERIC", "0", "0", "decimal"]), schema)
        XCTAssertTrue(schema.contains(#"CREATE UNIQUE INDEX "_socload_key_t" ON "t" ("_id");"#), schema)
    }

    func testTheUsersIndexesAndTriggersSurviveARefetch() throws {
        XCTAssertEqual(try fetch(amounts).status, 0)
        let setup = ["create index by_name on t (name)", "create unique index one_name on t (name)",
                     "create table log (what text)",
                     "create trigger t_added after insert on t begin insert into log values (new.name); end"]
        for statement in setup {
            XCTAssertEqual(try SocloadProcess.run(["query", statement, "--write", "--db", db]).status, 0, statement)
        }
        let objects = "select type, name from sqlite_schema where tbl_name = 't' order by name"
        let before = try query(objects)
        let again = try fetch(amounts)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try query(objects), before)
        XCTAssertEqual(try SocloadProcess.run(["query", "insert into t (_id, name) values ('x', 'Zed')", "--write", "--db", db]).status, 0)
        XCTAssertEqual(try query("select what from log"), "what\r\nZed\r\n", "the trigger works on the new table")

        // New rows that break the user's unique index: the index is skipped, the load succeeds...
        let twins = document([("name", "text"), ("amount", "number")], [row("row-1", #""Ann","1""#), row("row-2", #""Ann","2""#)])
        let skipped = try fetch(twins)
        XCTAssertEqual(skipped.status, 0, skipped.stderr)
        XCTAssertTrue(skipped.stderr.contains("Warning: your index one_name on t could not be rebuilt (UNIQUE constraint failed: t.name); skipped"),
                      skipped.stderr)
        XCTAssertFalse(try query(objects).contains("one_name"))
        // ...or, with --strict, fails and changes nothing.
        XCTAssertEqual(try fetch(amounts).status, 0)
        XCTAssertEqual(try SocloadProcess.run(["query", "create unique index one_name on t (name)", "--write", "--db", db]).status, 0)
        let strict = try fetch(twins, ["--strict"])
        XCTAssertEqual(strict.status, 65, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("your index one_name on t could not be rebuilt"), strict.stderr)
        XCTAssertTrue(try query(objects).contains("one_name"))

        // A column that is gone: the index on it is skipped with a warning.
        let renamed = document([("full_name", "text")], [row("row-1", #""Ann""#)])
        let gone = try fetch(renamed)
        XCTAssertEqual(gone.status, 0, gone.stderr)
        XCTAssertTrue(gone.stderr.contains("Warning: your index by_name on t could not be rebuilt (no such column: name); skipped"),
                      gone.stderr)
    }

    func testIndexOptionAndRefreshesKeepTheIndexes() throws {
        let run = try fetch(amounts, ["--index", "name", "--index", "NAME,amount"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let indexes = "select name from sqlite_schema where type = 'index' and tbl_name = 't' order by name"
        XCTAssertEqual(try query(indexes), "name\r\n_socload_key_t\r\nidx_t_name\r\nidx_t_name_amount\r\n")
        XCTAssertEqual(try fetch(amounts).status, 0)
        XCTAssertEqual(try query(indexes), "name\r\n_socload_key_t\r\nidx_t_name\r\nidx_t_name_amount\r\n", "kept on refresh")
        let bad = try fetch(amounts, ["--index", "nope"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.hasPrefix("Error: --index nope: t has no column 'nope' (its columns: _id, _created_at"), bad.stderr)
    }

    func testTypeOption() throws {
        let zips = document([("zip", "number"), ("n", "text")], [row("row-1", #""00042","7""#)])
        let run = try fetch(zips, ["--type", "zip=text", "--type", "n=integer"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try query("select zip, typeof(zip) as a, n, typeof(n) as b from t"), "zip,a,n,b\r\n00042,text,7,integer\r\n")
        for (option, message) in [("zip=varchar", "--type takes COLUMN=TYPE with a type among text, integer"),
                                  ("nope=text", "--type nope=...: the dataset has no column 'nope'")] {
            let bad = try fetch(zips, ["--type", option])
            XCTAssertEqual(bad.status, 64, bad.stderr)
            XCTAssertTrue(bad.stderr.hasPrefix("Error: " + message), bad.stderr)
        }
    }

    func testDryRunPrintsThePlanAndWritesNothing() throws {
        let run = try fetch(amounts, ["--dry-run", "--index", "name", "--type", "amount=double"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, """
            api rows.json (a file is read whole)
            table t
            key _id
            index idx_t_name (name)
            column       type       from
            _id          text       :sid or :id
            _created_at  timestamp  :created_at
            _updated_at  timestamp  :updated_at
            name         text       name
            amount       double     amount

            """)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
    }

    func testACaseOnlyDifferentTableNameIsTheSameTable() throws {
        XCTAssertEqual(try fetch(amounts).status, 0)
        let path = directory.path("input.json")
        XCTAssertEqual(try SocloadProcess.run(["fetch", path, "--table", "T", "--db", db]).status, 0)
        XCTAssertEqual(try query("select table_name from _socload_datasets"), "table_name\r\nT\r\n")
    }
}
