import SocloadCore
import XCTest

/// The converter's one exact reading of timestamps, and the text written back from it.
final class TimestampTextTests: XCTestCase {
    private func micros(_ text: String, zone: Bool = true) -> Int64? {
        var text = text
        return text.withUTF8 { ISO8601Timestamp.microseconds(utf8: $0, applyingZone: zone) }
    }

    func testReadsEveryFormToTheMicrosecond() {
        XCTAssertEqual(micros("1970-01-01"), 0)
        XCTAssertEqual(micros("1970-01-01T00:00:00.000001Z"), 1)
        XCTAssertEqual(micros("1970-01-01T00:00:00.0000015"), 2, "rounded half up")
        XCTAssertEqual(micros("2015-10-29T12:00:00.250-04:00"), 1_446_134_400_250_000)
        XCTAssertEqual(micros("2015-10-29T12:00:00.250-04:00", zone: false), 1_446_120_000_250_000, "the wall clock, zone ignored")
        XCTAssertEqual(micros("2015-10-29 12:00"), 1_446_120_000_000_000)
        XCTAssertEqual(micros("1969-12-31T23:59:59.5"), -500_000)
        XCTAssertEqual(micros("+12345-01-01").map { $0 / 86_400_000_000 }, Int64(ISO8601Timestamp.daysFromCivil(year: 12345, month: 1, day: 1)))
        for bad in ["", "2015", "2015-13-01", "2015-02-29", "2015-10-29T", "2015-10-29T12", "2015-10-29T12:00:00.",
                    "2015-10-29T12:00:00+25:00", "2000-01-01T24:00:00", "2015-10-29T12:00:00 junk", "-9999999-01-01", "１９７０-01-01"] {
            XCTAssertNil(micros(bad), bad)
        }
    }

    func testWritesTheShortestFractionThatKeepsTheValue() {
        XCTAssertEqual(ISO8601Timestamp.format(microseconds: 1_446_134_400_000_000, zone: true), "2015-10-29T16:00:00Z")
        XCTAssertEqual(ISO8601Timestamp.format(microseconds: 1_446_134_400_250_000, zone: true), "2015-10-29T16:00:00.250Z")
        XCTAssertEqual(ISO8601Timestamp.format(microseconds: 1_446_134_400_250_001, zone: false), "2015-10-29T16:00:00.250001")
        XCTAssertEqual(ISO8601Timestamp.format(microseconds: -500_000, zone: false), "1969-12-31T23:59:59.500")
        XCTAssertEqual(ISO8601Timestamp.format(microseconds: micros("+12345-06-01T01:02:03")!, zone: true), "12345-06-01T01:02:03Z")
        XCTAssertEqual(ISO8601Timestamp.format(microseconds: micros("-0044-03-15T12:00:00")!, zone: false), "-44-03-15T12:00:00")
        for text in ["0001-01-01T00:00:00", "9999-12-31T23:59:59.999999", "1969-07-20T20:17:40.123"] {
            XCTAssertEqual(ISO8601Timestamp.format(microseconds: micros(text)!, zone: false), text, "round trip")
        }
    }
}
