import SocloadDatabase
import XCTest

final class DatePeriodTests: XCTestCase {
    private func bounds(_ text: String) -> [String?]? {
        DatePeriod(text).map { [$0.start, $0.end] }
    }

    func testEachFormNamesItsPeriod() {
        XCTAssertEqual(bounds("2014"), ["2014", "2015"])
        XCTAssertEqual(bounds("2014-06"), ["2014-06", "2014-07"])
        XCTAssertEqual(bounds("2014-06-15"), ["2014-06-15", "2014-06-16"])
        XCTAssertEqual(bounds("2014-06-15T10:30"), ["2014-06-15T10:30", "2014-06-15T10:31"])
        XCTAssertEqual(bounds("2014-06-15T10:30:59"), ["2014-06-15T10:30:59", "2014-06-15T10:31:00"])
        XCTAssertEqual(bounds("2014-06-15 10:30Z"), ["2014-06-15T10:30", "2014-06-15T10:31"], "a space for T, a Z dropped")
    }

    func testCarries() {
        XCTAssertEqual(bounds("2014-12"), ["2014-12", "2015-01"])
        XCTAssertEqual(bounds("2014-12-31"), ["2014-12-31", "2015-01-01"])
        XCTAssertEqual(bounds("2016-02-28"), ["2016-02-28", "2016-02-29"])
        XCTAssertEqual(bounds("2015-02-28"), ["2015-02-28", "2015-03-01"])
        XCTAssertEqual(bounds("2014-12-31T23:59"), ["2014-12-31T23:59", "2015-01-01T00:00"])
        XCTAssertEqual(bounds("2014-04-30T23:59:59"), ["2014-04-30T23:59:59", "2014-05-01T00:00:00"])
        XCTAssertEqual(bounds("9999"), ["9999", nil])
        XCTAssertEqual(bounds("9999-12-31"), ["9999-12-31", nil])
    }

    func testWhatIsNotADateIsRefused() {
        for text in ["", "yesterday", "14", "2014-6", "2014-13", "2014-00", "2014-13-45", "2014-02-30", "2015-02-29",
                     "2014-06-31", "2014-06-15T10", "2014-06-15T24:00", "2014-06-15T10:60", "2014-06-15T10:30:60",
                     "2014-06-15T10:30:00.5", "2014-06-15T10:30+02:00", "2014Z", "2014-06-15x", "-2014", "２０１４"] {
            XCTAssertNil(DatePeriod(text), text)
        }
        XCTAssertNotNil(DatePeriod("2016-02-29"))
    }

    /// The bounds compare as text with every form socload stores a date in.
    func testBoundsCompareWithEveryStoredForm() {
        let june = DatePeriod("2014-06")!
        for inside in ["2014-06-01", "2014-06-01T00:00:00", "2014-06-01T00:00:00Z", "2014-06-30T23:59:59.999Z", "2014-06-30"] {
            XCTAssertTrue(inside >= june.start && inside < june.end!, inside)
        }
        for outside in ["2014-05-31T23:59:59Z", "2014-07-01", "2014-07-01T00:00:00"] {
            XCTAssertFalse(outside >= june.start && outside < june.end!, outside)
        }
    }

    func testAnUpperBoundIncludesItsWholePeriod() {
        XCTAssertEqual(RowFilter.lessThanOrEqual("d", "2014-06").sql()?.arguments, [.text("2014-07")])
        XCTAssertEqual(RowFilter.lessThanOrEqual("d", "2014-06-15T10:30:00").sql()?.arguments, [.text("2014-06-15T10:30:01")])
        XCTAssertEqual(RowFilter.between("d", "2014-01", "2014-06").sql()?.sql, #""d" >= ? AND "d" < ?"#)
        // A bare year may be a number: left as it is.
        XCTAssertEqual(RowFilter.lessThanOrEqual("n", "2014").sql()?.sql, #""n" <= ?"#)
    }
}
