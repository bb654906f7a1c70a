import Foundation
import SocloadTestSupport
import XCTest

/// `socload verify`: the table against the portal's own column statistics (`cachedContents`).
final class VerifyTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("verify.sqlite")
    }

    /// Statistics as real exports state them: counts as strings or numbers, a number bound written
    /// `0.00`, booleans, dates with milliseconds, and a text `largest` ("Zulu") that is not the
    /// byte-order largest ("beta"), because the portal's collation ignores case.
    static func document(rowsStated: Int = 4) -> String {
        """
        {"meta":{"view":{"id":"stat-0001","columns":[
          {"fieldName":"name","dataTypeName":"text","cachedContents":{"non_null":"3","null":"\(rowsStated - 3)","smallest":"alpha","largest":"Zulu","top":[{"item":"alpha","count":"1"}]}},
          {"fieldName":"n","dataTypeName":"number","cachedContents":{"non_null":3,"null":1,"smallest":"0.00","largest":"12.5"}},
          {"fieldName":"flag","dataTypeName":"checkbox","cachedContents":{"non_null":4,"null":0,"smallest":false,"largest":true}},
          {"fieldName":"day","dataTypeName":"calendar_date","cachedContents":{"non_null":2,"null":2,"smallest":"2014-06-01T00:00:00.000","largest":"2015-01-02T00:00:00"}},
          {"fieldName":"place","dataTypeName":"location","cachedContents":{"non_null":1,"null":3,"smallest":{"latitude":"1"},"largest":{"latitude":"1"}}}
        ]}},"data":[
          ["alpha","0",true,"2014-06-01T00:00:00",["{}","1","2",null,false]],
          ["Zulu","12.5",false,null,null],
          ["beta","N/A",true,"2015-01-02T00:00:00",null],
          [null,null,false,null,null]
        ]}
        """
    }

    private func fetch(_ text: String, _ options: [String] = []) throws -> SocloadRun {
        let path = directory.path("stat-0001.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try SocloadProcess.run(["fetch", path, "--table", "t", "--db", db] + options)
    }

    private func verify(_ options: [String] = []) throws -> SocloadRun {
        try SocloadProcess.run(["verify", "t", "--db", db, "--format", "csv"] + options)
    }

    func testAnUntouchedLoadVerifies() throws {
        let load = try fetch(Self.document())
        XCTAssertEqual(load.status, 0, load.stderr)
        XCTAssertFalse(load.stderr.contains("Warning"), load.stderr)
        let run = try verify()
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let lines = run.stdout.split(separator: "\r\n").map(String.init)
        XCTAssertEqual(lines.first, "column,field,statement,portal,table,agrees")
        XCTAssertEqual(lines.count, 1 + 13, run.stdout) // a count and two bounds for 4 columns, a count for the location
        XCTAssertTrue(lines.allSatisfy { $0.hasSuffix(",yes") || $0.hasPrefix("column,") }, run.stdout)
        XCTAssertTrue(lines.contains("n,n,non_null,3,2 + 1 stored as NULL,yes"), run.stdout)
        XCTAssertTrue(lines.contains("name,name,largest,Zulu,present,yes"), run.stdout)
        XCTAssertTrue(lines.contains("day,day,smallest,2014-06-01T00:00:00.000,2014-06-01T00:00:00,yes"), run.stdout)
    }

    func testAChangedValueOrALostRowIsADifference() throws {
        XCTAssertEqual(try fetch(Self.document()).status, 0)
        XCTAssertEqual(try SocloadProcess.run(["query", "--write", "update t set n = 13 where n = 12.5", "--db", db]).status, 0)
        let changed = try verify()
        XCTAssertEqual(changed.status, 65)
        XCTAssertTrue(changed.stdout.contains("n,n,largest,12.5,13,NO"), changed.stdout)
        XCTAssertEqual(changed.stderr, "Error: 1 of 13 statements of the portal differ from t: "
                       + "n largest: the portal says 12.5, the table has 13\n")

        XCTAssertEqual(try SocloadProcess.run(["query", "--write", "delete from t where name = 'Zulu'", "--db", db]).status, 0)
        let lost = try verify()
        XCTAssertEqual(lost.status, 65)
        for difference in ["name non_null: the portal says 3, the table has 2", "name largest: the portal says Zulu, the table has absent"] {
            XCTAssertTrue(lost.stderr.contains(difference), lost.stderr)
        }
    }

    /// Bounds are compared for equality, in every direction: a largest lowered and a smallest
    /// raised are differences as much as a largest raised (a `<=` comparison would pass them).
    func testEveryBoundIsComparedForEqualityInBothDirections() throws {
        let changes: [(String, String)] = [
            ("update t set n = 12 where n = 12.5", "n largest: the portal says 12.5, the table has 12"),
            ("update t set n = 0.5 where n = 0", "n smallest: the portal says 0.00, the table has 0.5"),
            ("update t set n = -1 where n = 0", "n smallest: the portal says 0.00, the table has -1"),
            ("update t set day = '2014-12-31T00:00:00' where day = '2015-01-02T00:00:00'",
             "day largest: the portal says 2015-01-02T00:00:00, the table has 2014-12-31T00:00:00"),
            ("update t set day = '2014-06-02T00:00:00' where day = '2014-06-01T00:00:00'",
             "day smallest: the portal says 2014-06-01T00:00:00.000, the table has 2014-06-02T00:00:00"),
            ("update t set flag = 1", "flag smallest: the portal says false"),
        ]
        for (sql, difference) in changes {
            XCTAssertEqual(try fetch(Self.document()).status, 0)
            XCTAssertEqual(try verify().status, 0, sql)
            XCTAssertEqual(try SocloadProcess.run(["query", "--write", sql, "--db", db]).status, 0, sql)
            let changed = try verify()
            XCTAssertEqual(changed.status, 65, "\(sql): \(changed.stdout)")
            XCTAssertTrue(changed.stderr.contains(difference), "\(sql): \(changed.stderr)")
        }
    }

    func testInfoColumnsShowsThePortalsStatisticsBesideTheTables() throws {
        XCTAssertEqual(try fetch(Self.document()).status, 0)
        XCTAssertEqual(try SocloadProcess.run(["query", "--write", "update t set n = 13 where n = 12.5", "--db", db]).status, 0)
        let run = try SocloadProcess.run(["info", "t", "--columns", "--db", db, "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\r\n").map(String.init)
        XCTAssertEqual(lines.first, "column,type,field,non_null,portal_non_null,portal_null,portal_smallest,portal_largest,differs,"
                       + "display_name,description")
        let starts = { (prefix: String) in lines.contains { $0.hasPrefix(prefix + ",") } }
        XCTAssertTrue(starts("n,decimal,n,2,3,1,0.00,12.5,largest"), run.stdout)
        XCTAssertTrue(starts("name,text,name,3,3,1,alpha,Zulu,\"\""), run.stdout)
        XCTAssertTrue(starts("place_latitude,double,place,1,1,3,,,\"\""), run.stdout)
        // The facts, without the column mapping's JSON.
        let facts = try SocloadProcess.run(["info", "t", "--db", db, "--format", "csv"]).stdout
        XCTAssertTrue(facts.contains("columns,"), facts)
        XCTAssertFalse(facts.contains("fieldName"), facts)
    }

    func testAPartialLoadIsNotComparable() throws {
        XCTAssertEqual(try fetch(Self.document(), ["--limit", "2"]).status, 0)
        let run = try verify()
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "Not comparable: t is not comparable with the portal's statistics: "
                       + "only the first 2 rows were loaded (--limit)\n")
        // Said once: no statement rows marked NO beside it, only the header.
        XCTAssertEqual(run.stdout, "column,field,statement,portal,table,agrees\r\n")
        let strict = try verify(["--strict"])
        XCTAssertEqual(strict.status, 65)
        XCTAssertEqual(strict.stderr, "Error: t is not comparable with the portal's statistics: only the first 2 rows were loaded (--limit)\n")
    }

    func testLongValuesAreCutInTableOutput() throws {
        var document = Self.document()
        let long = String(repeating: "Zulu ", count: 120)
        document = document.replacingOccurrences(of: "\"largest\":\"Zulu\"", with: "\"largest\":\"\(long)\"")
        XCTAssertEqual(try fetch(document).status, 0)
        let run = try SocloadProcess.run(["verify", "t", "--db", db, "--format", "table"])
        let widest = run.stdout.split(separator: "\n").map(\.count).max() ?? 0
        XCTAssertLessThan(widest, 200, run.stdout)
        XCTAssertTrue(run.stdout.contains("…"), run.stdout)
    }

    func testALoadWhoseRowCountDisagreesSaysSo() throws {
        let run = try fetch(Self.document(rowsStated: 5))
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("Warning: the portal's column statistics count 5 rows, but 4 were loaded"), run.stderr)
    }

    func testNoStatisticsIsNothingToCompare() throws {
        XCTAssertEqual(try fetch(HostileInputTests.simple).status, 0)
        let run = try verify()
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "Nothing to compare: the portal's metadata for t states no column statistics\n")
        XCTAssertEqual(try SocloadProcess.run(["verify", "nope", "--db", db]).status, 66)
        // A file loaded without the portal's description: nothing was stated, and that is said.
        let records = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("plain.ndjson")
        try Data("{\"a\": 1}\n{\"a\": 2}\n".utf8).write(to: records)
        XCTAssertEqual(try SocloadProcess.run(["load", records.path, "--db", db, "--quiet"]).status, 0)
        let plain = try SocloadProcess.run(["verify", "plain", "--db", db])
        XCTAssertEqual(plain.status, 0)
        XCTAssertEqual(plain.stderr, "Nothing to compare: plain was loaded without the portal's metadata "
                       + "(load --metadata VIEW.json gives it)\n")
        // A gate that asks for a check does not pass on none.
        let strict = try SocloadProcess.run(["verify", "plain", "--db", db, "--strict"])
        XCTAssertEqual(strict.status, 65)
        XCTAssertTrue(strict.stderr.hasPrefix("Error: nothing to compare: plain was loaded without"), strict.stderr)
        // A CSV of a header alone has no record to take columns from.
        let header = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("header.csv")
        try Data("a,b\n".utf8).write(to: header)
        let empty = try SocloadProcess.run(["load", header.path, "--db", db])
        XCTAssertEqual(empty.status, 65)
        XCTAssertTrue(empty.stderr.hasPrefix("Error: \(header.path) has no record with a field (a header alone, an empty array): "
                                             + "socload types a table's columns from the records' values, so there is nothing to "
                                             + "load into header"), empty.stderr)
    }

    /// Every real export verifies clean when loaded untouched, and one changed value does not.
    func testRealExportsVerifyCleanAndAChangeIsCaught() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        let files = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".rows.json") }.sorted()
        for file in files {
            let table = "t_" + file.replacingOccurrences(of: ".rows.json", with: "").replacingOccurrences(of: "-", with: "_")
            let load = try SocloadProcess.run(["fetch", shared.appendingPathComponent(file).path, "--table", table, "--db", db])
            XCTAssertEqual(load.status, 0, "\(file): \(load.stderr)")
            XCTAssertFalse(load.stderr.contains("Warning"), "\(file): \(load.stderr)")
            let run = try SocloadProcess.run(["verify", table, "--db", db, "--format", "csv"])
            XCTAssertEqual(run.status, 0, "\(file): \(run.stderr)")
        }
        // 5mtp-qs2h states bounds for numbers: raising the largest is caught.
        guard files.contains("5mtp-qs2h.rows.json") else { return }
        let raise = "update t_5mtp_qs2h set total_project_cost_kes = total_project_cost_kes + 1 "
            + "where total_project_cost_kes = (select max(total_project_cost_kes) from t_5mtp_qs2h)"
        XCTAssertEqual(try SocloadProcess.run(["query", "--write", raise, "--db", db]).status, 0)
        let changed = try SocloadProcess.run(["verify", "t_5mtp_qs2h", "--db", db, "--format", "csv"])
        XCTAssertEqual(changed.status, 65)
        XCTAssertTrue(changed.stderr.contains("total_project_cost_kes largest: the portal says 37398373983740"), changed.stderr)
    }
}
