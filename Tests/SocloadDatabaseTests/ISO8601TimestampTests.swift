import Foundation
import SocloadDatabase
import XCTest

final class ISO8601TimestampTests: XCTestCase {
    func testParsesWithAndWithoutZoneAndFraction() {
        let noon = 1_446_120_000.0 // 2015-10-29T12:00:00Z
        let cases: [(String, Double)] = [
            ("2015-10-29", noon - 43_200),
            ("2015-10-29T12:00", noon),
            ("2015-10-29T12:00:00", noon),
            ("2015-10-29 12:00:00", noon),
            ("2015-10-29T12:00:00Z", noon),
            ("2015-10-29T12:00:00.250", noon + 0.25),
            ("2015-10-29T12:00:00.250Z", noon + 0.25),
            ("2015-10-29T14:00:00+02:00", noon),
            ("2015-10-29T07:00:00-0500", noon),
            ("2015-10-29T13:00:00+01", noon),
            ("1969-12-31T23:59:59Z", -1),
            ("2000-02-29T00:00:00", 951_782_400),
        ]
        for (text, seconds) in cases {
            XCTAssertEqual(ISO8601Timestamp.parse(text)?.timeIntervalSince1970 ?? .nan, seconds, accuracy: 0.0001, text)
        }
    }

    func testRejectsNonTimestamps() {
        for text in ["", "2015", "2015-13-01", "2015-02-30", "2015-10-29T25:00", "2015-10-29T12:00:00+24:00",
                     "2015-10-29X", "2015-10-29T12:00:00 extra", "29/10/2015", "2015-10-29T12:00:00."] {
            XCTAssertNil(ISO8601Timestamp.parse(text), text)
        }
    }

    func testFormatsUTC() {
        XCTAssertEqual(ISO8601Timestamp.format(Date(timeIntervalSince1970: 1_446_120_000)), "2015-10-29T12:00:00Z")
        XCTAssertEqual(ISO8601Timestamp.format(Date(timeIntervalSince1970: 1_446_120_000.5)), "2015-10-29T12:00:00.500Z")
        XCTAssertEqual(ISO8601Timestamp.format(Date(timeIntervalSince1970: -1)), "1969-12-31T23:59:59Z")
        for seconds in stride(from: -5_000_000_000.0, to: 5_000_000_000, by: 86_399_937.0) {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(ISO8601Timestamp.parse(ISO8601Timestamp.format(date)), date)
            var bytes: [UInt8] = []
            ISO8601Timestamp.appendUTF8(epochSeconds: Int64(seconds), to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), ISO8601Timestamp.format(date))
        }
    }
}
