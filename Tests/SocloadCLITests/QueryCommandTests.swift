import Foundation
import SocloadDatabase
import SocloadTestSupport
import XCTest

/// A small table with NULLs, unicode, commas, quotes, newlines and an ANSI escape in the values.
enum SampleDatabase {
    static func create(in directory: TemporaryDirectory, name: String = "sample.sqlite") throws -> String {
        let path = directory.path(name)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "create table people(id integer, name text, score real, note text, photo blob)")
            let rows: [StatementArguments] = [
                [1, "Ann", 2.5, "plain", nil],
                [2, "Zoë 中文", nil, "a,b \"q\"\nx", Data([0, 255])],
                [3, nil, -0.00001, "\u{1B}[31mred\u{1B}[0m", nil],
                [10, "", 3.0, "e\u{301}", nil],
            ]
            for row in rows {
                try db.execute(sql: "insert into people values (?, ?, ?, ?, ?)", arguments: row)
            }
            try db.execute(sql: "create table \"odd \"\"name\"\"\"(x); insert into \"odd \"\"name\"\"\" values (1), (2)")
        }
        return path
    }
}

final class QueryCommandTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = try SampleDatabase.create(in: directory)
    }

    private func query(_ format: String, _ sql: String = "select * from people order by id") throws -> SocloadRun {
        let run = try SocloadProcess.run(["query", sql, "--db", db, "--format", format])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        return run
    }

    func testTableFormat() throws {
        XCTAssertEqual(try query("table").stdout, """
            id  name      score   note                photo
            --  --------  ------  ------------------  -------
             1  Ann          2.5  plain
             2  Zoë 中文          a,b "q"\\nx          X'00FF'
             3            -1e-05  \\x1b[31mred\\x1b[0m
            10               3.0  e\u{301}

            """)
    }

    func testTableFormatNeverEmitsRawControlCharacters() throws {
        let run = try query("table", "select char(27) || '[2J' || char(7) || char(8238) as \"head\u{1B}er\"")
        XCTAssertFalse(run.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 7 || $0.value == 0x202E })
        XCTAssertEqual(run.stdout, "head\\x1ber\n-------------------\n\\x1b[2J\\x07\\u{202e}\n")
    }

    func testCSVFormat() throws {
        XCTAssertEqual(try query("csv").stdout,
                       "id,name,score,note,photo\r\n"
                       + "1,Ann,2.5,plain,\r\n"
                       + "2,Zoë 中文,,\"a,b \"\"q\"\"\nx\",AP8=\r\n"
                       + "3,,-1e-05,\u{1B}[31mred\u{1B}[0m,\r\n"
                       + "10,\"\",3.0,e\u{301},\r\n")
    }

    func testJSONFormat() throws {
        XCTAssertEqual(try query("json").stdout, """
            [
            {"id":1,"name":"Ann","score":2.5,"note":"plain","photo":null},
            {"id":2,"name":"Zoë 中文","score":null,"note":"a,b \\"q\\"\\nx","photo":"AP8="},
            {"id":3,"name":null,"score":-1e-05,"note":"\\u001b[31mred\\u001b[0m","photo":null},
            {"id":10,"name":"","score":3.0,"note":"e\u{301}","photo":null}
            ]

            """)
        let decoded = try JSONSerialization.jsonObject(with: Data(try query("json").stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(decoded?.count, 4)
        XCTAssertEqual(try query("json", "select 1 where 0").stdout, "[]\n")
    }

    func testNDJSONFormat() throws {
        XCTAssertEqual(try query("ndjson").stdout, """
            {"id":1,"name":"Ann","score":2.5,"note":"plain","photo":null}
            {"id":2,"name":"Zoë 中文","score":null,"note":"a,b \\"q\\"\\nx","photo":"AP8="}
            {"id":3,"name":null,"score":-1e-05,"note":"\\u001b[31mred\\u001b[0m","photo":null}
            {"id":10,"name":"","score":3.0,"note":"e\u{301}","photo":null}

            """)
    }

    func testDuplicateColumnNamesGetASuffix() throws {
        XCTAssertEqual(try query("ndjson", "select 1 as id, 2 as id, 3 as id_2").stdout,
                       "{\"id\":1,\"id_2\":2,\"id_2_2\":3}\n")
    }

    func testDefaultFormatForAPipeIsCSV() throws {
        let run = try SocloadProcess.run(["query", "select id from people order by id limit 2", "--db", db])
        XCTAssertEqual(run.stdout, "id\r\n1\r\n2\r\n")
    }

    func testParametersPositionalAndNamed() throws {
        let run = try SocloadProcess.run(["query", "select name from people where id = ? or id = :other order by id",
                                          "--db=\(db!)", "--format=csv", "--param", "1", "--param", ":other=10"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "name\r\nAnn\r\n\"\"\r\n")
    }

    /// Too few, too many or misnamed --param values are the caller's mistake: exit 64, one line.
    func testAWrongNumberOfParametersIsAUsageError() throws {
        for (sql, params) in [("select ?", [String]()), ("select ?, ?", ["1"]), ("select 1", ["1"]), ("select :a", [":b=1"])] {
            let run = try SocloadProcess.run(["query", sql, "--db", db] + params.flatMap { ["--param", $0] })
            XCTAssertEqual(run.status, 64, "\(sql): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: --param: "), run.stderr)
        }
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        for (sql, params) in [("select $1::int", [String]()), ("select $1::int, $2::int", ["1"]), ("select 1", ["1"])] {
            let run = try SocloadProcess.run(["query", sql, "--db", postgreSQL.url] + params.flatMap { ["--param", $0] })
            XCTAssertEqual(run.status, 64, "\(sql): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: --param: "), run.stderr)
        }
    }

    func testDoubleDashEndsOptions() throws {
        let run = try SocloadProcess.run(["query", "--db", db, "--format", "csv", "--", "-- a comment\nselect 7 as n"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "n\r\n7\r\n")
    }

    func testDatabaseFromEnvironment() throws {
        let run = try SocloadProcess.run(["query", "select count(*) as n from people", "--format", "csv"],
                                         environment: ["SOCLOAD_DB": db])
        XCTAssertEqual(run.stdout, "n\r\n4\r\n")
    }

    func testMissingDatabaseIsNotCreated() throws {
        let missing = directory.path("absent.sqlite")
        let run = try SocloadProcess.run(["query", "select 1", "--db", missing])
        XCTAssertEqual(run.status, 66)
        XCTAssertEqual(run.stderr, "Error: no database at '\(missing)' (fetch a dataset first, or pass --db PATH)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
        let inWorkingDirectory = try SocloadProcess.run(["query", "select 1"], directory: directory.url)
        XCTAssertEqual(inWorkingDirectory.status, 66)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("socload.sqlite")))
    }

    func testSQLErrorIsOneLineAndExit74() throws {
        let run = try SocloadProcess.run(["query", "select *\n  from nowhere", "--db", db])
        XCTAssertEqual(run.status, 74)
        XCTAssertEqual(run.stderr,
                       "Error: SQLite error 1 (SQL logic error): no such table: nowhere - while executing `select * from nowhere`\n")
    }

    func testOnlyOneStatement() throws {
        let run = try SocloadProcess.run(["query", "select 1; drop table people", "--db", db])
        XCTAssertEqual(run.status, 74)
        XCTAssertTrue(run.stderr.contains("only one SQL statement"), run.stderr)
        XCTAssertEqual(try query("csv", "select count(*) as n from people").stdout, "n\r\n4\r\n")
    }
}

final class TablesAndSchemaTests: XCTestCase {
    func testTablesWithRowCounts() throws {
        let directory = try TemporaryDirectory()
        let db = try SampleDatabase.create(in: directory)
        let run = try SocloadProcess.run(["tables", "--db", db, "--format", "table"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "table       rows  in_sql\n"
                       + "----------  ----  --------------\n"
                       + #"odd "name"     2  "odd ""name""""# + "\n"
                       + "people         4  people\n")
        XCTAssertEqual(try SocloadProcess.run(["tables", "--db", db, "--format", "csv"]).stdout,
                       #"table,rows,in_sql"# + "\r\n" + #""odd ""name""",2,"""odd """"name""""""""# + "\r\n"
                       + "people,4,people\r\n")
    }

    func testSchema() throws {
        let directory = try TemporaryDirectory()
        let db = try SampleDatabase.create(in: directory)
        let run = try SocloadProcess.run(["schema", "people", "--db", db, "--format", "table"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, """
            CREATE TABLE people(id integer, name text, score real, note text, photo blob);

            column  type     not_null  primary_key  logical_type
            ------  -------  --------  -----------  ------------
            id      INTEGER         0            0
            name    TEXT            0            0
            score   REAL            0            0
            note    TEXT            0            0
            photo   BLOB            0            0

            """)
        // Other formats (and a pipe, by default) hold the columns only.
        XCTAssertEqual(try SocloadProcess.run(["schema", "people", "--db", db]).stdout,
                       "column,type,not_null,primary_key,logical_type\r\nid,INTEGER,0,0,\r\nname,TEXT,0,0,\r\n"
                       + "score,REAL,0,0,\r\nnote,TEXT,0,0,\r\nphoto,BLOB,0,0,\r\n")
        XCTAssertEqual(try SocloadProcess.run(["schema", "people", "--db", db, "--format", "ndjson"]).stdout.split(separator: "\n").first,
                       #"{"column":"id","type":"INTEGER","not_null":0,"primary_key":0,"logical_type":null}"#)
        let missing = try SocloadProcess.run(["schema", "nope", "--db", db])
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr, "Error: no table 'nope' in '\(db)'\n")
    }
}
