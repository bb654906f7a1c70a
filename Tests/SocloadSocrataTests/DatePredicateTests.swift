import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// A `Date` in a `RowFilter` compares with its column in the column's own form: fixed timestamps
/// (`...Z`), floating ones (no `Z`) and dates, for equality and both bounds, whether the forms
/// come from the catalog's plan or from a stored value.
final class DatePredicateTests: XCTestCase {
    var harness: LoadHarness!

    override func setUpWithError() throws {
        harness = try LoadHarness()
        try harness.load(.file(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path), id: "n5m4-mism")
    }

    private func count(_ predicate: RowFilter, formsFromCatalog: Bool) throws -> Int {
        try harness.queue.read { db in
            let forms = formsFromCatalog ? try SQLiteCatalog(db: db).timestampForms(of: "n5m4_mism") : nil
            let query = try db.selectQuery(from: "n5m4_mism", where: predicate, timestampForms: forms)
            return try db.fetchRows(sql: query.sql, arguments: StatementArguments(positional: query.arguments)).count
        }
    }

    private func sqlCount(_ condition: String, _ value: String) throws -> Int {
        try harness.queue.read { db in
            try db.fetchOne(Int.self, sql: "SELECT count(*) FROM n5m4_mism WHERE \(condition)", arguments: [value]) ?? -1
        }
    }

    func testDatesMeetFixedAndFloatingColumnsInTheirForm() throws {
        let forms = try harness.queue.read { db in try SQLiteCatalog(db: db).timestampForms(of: "n5m4_mism") }
        XCTAssertEqual(forms["_created_at"], .fixed)
        XCTAssertEqual(forms["nomination_date"], .floating)
        for column in ["nomination_date", "_created_at"] {
            let stored = try harness.queue.read { db in
                try db.fetchOne(String.self, sql: "SELECT \(column) FROM n5m4_mism WHERE \(column) IS NOT NULL ORDER BY \(column) LIMIT 1 OFFSET 40")
            }
            let text = try XCTUnwrap(stored)
            let date = try XCTUnwrap(ISO8601Timestamp.parse(text))
            let equal = try sqlCount("\(column) = ?", text)
            let after = try sqlCount("\(column) >= ?", text)
            let before = try sqlCount("\(column) <= ?", text)
            XCTAssertGreaterThan(equal, 0)
            for fromCatalog in [true, false] {
                let how = "\(column), forms from \(fromCatalog ? "the catalog" : "a stored value")"
                XCTAssertEqual(try count(.equals(column, date), formsFromCatalog: fromCatalog), equal, how)
                XCTAssertEqual(try count(.between(column, date, date), formsFromCatalog: fromCatalog), equal, how)
                XCTAssertEqual(try count(.greaterThanOrEqual(column, date), formsFromCatalog: fromCatalog), after, how)
                XCTAssertEqual(try count(.lessThanOrEqual(column, date), formsFromCatalog: fromCatalog), before, how)
                XCTAssertEqual(try count(.in(column, [date]), formsFromCatalog: fromCatalog), equal, how)
            }
        }
    }

    func testDatesMeetADateColumnAsTheirUTCDate() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table d(day text)")
        for day in ["2013-01-31", "2013-02-01", "2013-02-01", "2013-02-02"] {
            try db.execute(sql: "insert into d values (?)", arguments: [day])
        }
        let midnight = try XCTUnwrap(ISO8601Timestamp.parse("2013-02-01T00:00:00Z"))
        let noon = try XCTUnwrap(ISO8601Timestamp.parse("2013-02-01T12:00:00Z"))
        struct Day: Decodable { var day: String }
        func count(_ predicate: RowFilter) throws -> Int {
            let days = try db.fetchAll(Day.self, from: "d", where: predicate)
            return days.count
        }
        XCTAssertEqual(try count(.equals("day", midnight)), 2)
        XCTAssertEqual(try count(.between("day", midnight, midnight)), 2)
        XCTAssertEqual(try count(.greaterThanOrEqual("day", midnight)), 3)
        XCTAssertEqual(try count(.greaterThan("day", noon)), 1, "a time during the day falls after that date")
        XCTAssertEqual(try count(.lessThan("day", noon)), 3)
        // A raw statement argument has no column to look at: a Date binds as UTC with a Z.
        XCTAssertEqual(midnight.databaseValue, .text("2013-02-01T00:00:00Z"))
    }

    func testStoredForms() {
        XCTAssertEqual(TimestampForm(storedValue: "2013-02-01"), .date)
        XCTAssertEqual(TimestampForm(storedValue: "2013-02-01T00:00:00"), .floating)
        XCTAssertEqual(TimestampForm(storedValue: "2013-02-01T00:00:00Z"), .fixed)
        XCTAssertEqual(TimestampForm(storedValue: "2013-02-01T00:00:00.250Z"), .fixed)
        XCTAssertEqual(TimestampForm(storedValue: "2013-02-01T00:00:00.250"), .floating)
        XCTAssertNil(TimestampForm(storedValue: "Ann"))
        XCTAssertNil(TimestampForm(storedValue: "2013"))
        XCTAssertEqual(TimestampForm.floating.stored(.text("2013-02-01T10:00:00Z")), .text("2013-02-01T10:00:00"))
        XCTAssertEqual(TimestampForm.date.stored(.text("2013-02-01T00:00:00Z")), .text("2013-02-01"))
        XCTAssertEqual(TimestampForm.floating.stored(.text("Zulu, the letter Z")), .text("Zulu, the letter Z"))
    }
}
