import Foundation
import SocloadTestSupport
import XCTest

final class SelectCommandTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("select.sqlite")
        let fetch = try SocloadProcess.run(["fetch", "n5m4-mism", "--datasets", Fixtures.datasetsDirectory.path, "--db", db])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
    }

    private func select(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(["select", "n5m4_mism"] + arguments + ["--db", db])
    }

    /// On a timestamp column `--eq` with a date is the whole day (as `--on`), in SQLite and PostgreSQL;
    /// PostgreSQL without unaccent says once that `--contains` keeps accents.
    func testEqWithADateOnATimestampColumnIsThatPeriod() throws {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        let fetch = try SocloadProcess.run(["fetch", "n5m4-mism", "--datasets", Fixtures.datasetsDirectory.path, "--db", postgreSQL.url])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        for database in [db!, postgreSQL.url] {
            func count(_ arguments: [String]) throws -> String {
                let run = try SocloadProcess.run(["select", "n5m4_mism", "--columns", "name", "--format", "csv", "--db", database] + arguments)
                XCTAssertEqual(run.status, 0, run.stderr)
                return String(run.stdout.split(whereSeparator: \.isNewline).count - 1)
            }
            XCTAssertEqual(try count(["--eq", "nomination_date=2013-08-14"]), "4", database)
            XCTAssertEqual(try count(["--eq", "nomination_date=2013-08-14"]), try count(["--on", "nomination_date=2013-08-14"]))
            XCTAssertEqual(try count(["--eq", "nomination_date=2013-08"]), try count(["--on", "nomination_date=2013-08"]))
            XCTAssertEqual(try count(["--eq", "agency=State"]), "62")
        }
        let contains = try SocloadProcess.run(["select", "n5m4_mism", "--contains", "name=zoe", "--db", postgreSQL.url, "--format", "csv"])
        XCTAssertEqual(contains.status, 0, contains.stderr)
        XCTAssertEqual(contains.stderr.split(separator: "\n").filter { $0.hasPrefix("Note: this database has no unaccent") }.count, 1,
                       contains.stderr)
    }

    func testSQLIsPrintedWithItsValues() throws {
        let run = try select(["--columns", "name,agency", "--in", "agency=State,Defense", "--contains", "name=zoe",
                              "--from", "nomination_date=2013-01-01", "--to", "nomination_date=2014-06-30",
                              "--null", "confirmation_date", "--eq", "holdover=1", "--order", "agency,-nomination_date",
                              "--limit", "5", "--sql"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, """
            SELECT "name", "agency" FROM "n5m4_mism" WHERE "holdover" = ? AND "agency" IN (?, ?) AND instr(fold("name", 3), ?) > 0 \
            AND "nomination_date" >= ? AND "nomination_date" < ? AND "confirmation_date" IS NULL ORDER BY "agency" NULLS LAST, "nomination_date" DESC NULLS LAST LIMIT ?
            -- arguments: ["1", "State", "Defense", "zoe", "2013-01-01", "2014-07-01", 5]

            """)
    }

    func testResultsMatchTheSameConditionsInSQL() throws {
        let run = try select(["--in", "agency=State,Defense", "--contains", "name=ZOE", "--to", "nomination_date=2014-06-30",
                              "--columns", "name,agency,nomination_date", "--order", "nomination_date", "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let sql = try SocloadProcess.run(["query", """
            select name, agency, nomination_date from n5m4_mism where agency in ('State', 'Defense')
            and name like 'zo%' and nomination_date < '2014-07-01' order by nomination_date
            """, "--db", db, "--format", "csv"])
        XCTAssertEqual(run.stdout, sql.stdout)
        XCTAssertGreaterThan(run.stdout.split(separator: "\r\n").count, 1)
        XCTAssertTrue(run.stdout.contains("Zoë"), run.stdout)
    }

    func testInListsFromFilesAndRepeatedOptions() throws {
        let file = directory.path("agencies.txt")
        try "State\r\n\nJustice\n".write(toFile: file, atomically: true, encoding: .utf8)
        let fromFile = try select(["--in", "agency=@\(file)", "--sql"])
        XCTAssertTrue(fromFile.stdout.contains("-- arguments: [\"State\", \"Justice\"]"), fromFile.stdout)
        let repeated = try select(["--in", "name=Smith, John", "--in", "name=Doe, Jane", "--sql"])
        XCTAssertTrue(repeated.stdout.contains("\"name\" IN (?, ?)"), repeated.stdout)
        XCTAssertTrue(repeated.stdout.contains("-- arguments: [\"Smith, John\", \"Doe, Jane\"]"), repeated.stdout)
        let empty = try select(["--in", "agency=", "--sql"])
        XCTAssertEqual(empty.stdout, "SELECT * FROM \"n5m4_mism\"\n-- arguments: []\n")
        let missing = try select(["--in", "agency=@\(directory.path("nope.txt"))"])
        XCTAssertEqual(missing.status, 66)
    }

    func testErrors() throws {
        let unknown = try select(["--eq", "agencyy=State"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.hasPrefix("Error: no column 'agencyy' in n5m4_mism; its columns are: _id, _created_at,"), unknown.stderr)
        let badPair = try select(["--eq", "State"])
        XCTAssertEqual(badPair.status, 64)
        let noTable = try SocloadProcess.run(["select", "nothing", "--db", db])
        XCTAssertEqual(noTable.status, 66)
        XCTAssertEqual(noTable.stderr, "Error: no table 'nothing'\n")
        // A column `extract` moved away is said to be in its lookup, with the way to reach it.
        XCTAssertEqual(try SocloadProcess.run(["extract", "n5m4_mism", "agency", "--db", db, "--quiet"]).status, 0)
        let moved = try select(["--columns", "name,agency"])
        XCTAssertEqual(moved.status, 64)
        XCTAssertTrue(moved.stderr.contains("(agency was extracted into the lookup agency, which n5m4_mism.agency_id references: "
                                            + "--eq agency.agency=VALUE filters by it"), moved.stderr)
        let followed = try select(["--eq", "agency.agency=Agriculture", "--columns", "name", "--format", "csv"])
        XCTAssertEqual(followed.status, 0, followed.stderr)
        XCTAssertGreaterThan(followed.stdout.split(whereSeparator: \.isNewline).count, 1, followed.stdout)
    }

    func testHostileValuesAndNamesAreBound() throws {
        let run = try select(["--eq", "name='; DROP TABLE n5m4_mism; --", "--contains", "status=%", "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.split(separator: "\r\n").count, 1, "header only")
        let count = try SocloadProcess.run(["query", "select count(*) as n from n5m4_mism", "--db", db, "--format", "csv"])
        XCTAssertEqual(count.stdout, "n\r\n300\r\n")
    }
}

/// `--from`, `--to` and `--on` read a date as the period it names, and refuse what is not a date.
final class SelectDatePeriodTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("periods.sqlite")
        let fetch = try SocloadProcess.run(["fetch", "n5m4-mism", "--datasets", Fixtures.datasetsDirectory.path, "--db", db, "-q"])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
    }

    private func count(_ options: [String]) throws -> Int {
        let run = try SocloadProcess.run(["select", "n5m4_mism", "--format", "csv", "--db", db] + options)
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.split(separator: "\r\n").count - 1
    }

    /// The rows whose text starts with `prefix`, counted by SQL: what a period must find.
    private func expected(_ column: String, startingWith prefix: String) throws -> Int {
        let run = try SocloadProcess.run(["query", "select count(*) from n5m4_mism where substr(\"\(column)\", 1, ?) = ?",
                                          "--param", "\(prefix.count)", "--param", prefix, "--db", db, "--format", "csv"])
        return Int(run.stdout.split(separator: "\r\n").last ?? "") ?? -1
    }

    func testPartialDatesAreTheirWholePeriod() throws {
        // nomination_date is a floating timestamp, _created_at a fixed one (stored with Z).
        for (column, period) in [("nomination_date", "2014-06"), ("nomination_date", "2014"), ("nomination_date", "2013-10-28"),
                                 ("_created_at", "2015-01-01"), ("_created_at", "2015")] {
            let wanted = try expected(column, startingWith: period)
            XCTAssertGreaterThan(wanted, 0, "\(column) \(period): the fixture has such rows")
            XCTAssertEqual(try count(["--on", "\(column)=\(period)"]), wanted, "--on \(column)=\(period)")
            XCTAssertEqual(try count(["--from", "\(column)=\(period)", "--to", "\(column)=\(period)"]), wanted,
                           "--from/--to \(column)=\(period)")
        }
        let june = try expected("nomination_date", startingWith: "2014-06")
        XCTAssertEqual(try count(["--on", "nomination_date=2014-06"]), june)
        XCTAssertEqual(try count(["--from", "nomination_date=2014-06-01T00:00", "--to", "nomination_date=2014-06-30 23:59"]), june)
    }

    func testWhatIsNotADateIsAUsageError() throws {
        for value in ["yesterday", "2014-13-45", "2014-02-30", "06/15/2014", ""] {
            for option in ["--from", "--to", "--on"] {
                let run = try SocloadProcess.run(["select", "n5m4_mism", option, "nomination_date=\(value)", "--db", db])
                XCTAssertEqual(run.status, 64, "\(option) \(value)")
                XCTAssertTrue(run.stderr.hasPrefix("Error: \(option) takes COLUMN=DATE with a date or timestamp such as 2014, 2014-06, "),
                              run.stderr)
            }
        }
    }
}
