@testable import SocloadSocrata
import SocloadDatabase
import XCTest

final class CellConversionTests: XCTestCase {
    func testNumbers() {
        let cases: [(JSONValue, DatabaseValue)] = [
            (.string("1.000000"), .integer(1)), (.string("2.5"), .real(2.5)), (.number("42"), .integer(42)),
            (.string("$1,234.50"), .real(1234.5)), (.string("$-3"), .integer(-3)), (.string("1,234.5"), .real(1234.5)),
            (.string("-0"), .integer(0)), (.string("1e3"), .integer(1000)), (.string("12abc"), .text("12abc")),
            (.string("NaN"), .text("NaN")), (.string("1e999"), .null), (.string(""), .text("")),
            (.null, .null), (.string("123456789012345678901234567890"), .real(1.2345678901234568e29)),
            (.string(" 7 "), .integer(7)),
        ]
        for (cell, expected) in cases {
            XCTAssertEqual(CellConversion.number(cell), expected, "\(cell)")
        }
    }

    func testDoubles() {
        XCTAssertEqual(CellConversion.double(.string("2.68")), .real(2.68))
        XCTAssertEqual(CellConversion.double(.string("NaN")), .null)
        XCTAssertEqual(CellConversion.double(.string("Infinity")), .null)
        XCTAssertEqual(CellConversion.double(.string("-Infinity")), .null)
        XCTAssertEqual(CellConversion.double(.number("1e999")), .null)
        XCTAssertEqual(CellConversion.double(.null), .null)
        XCTAssertEqual(CellConversion.double(.string("n/a")), .text("n/a"))
    }

    func testCheckboxes() {
        XCTAssertEqual(CellConversion.checkbox(.bool(true)), .integer(1))
        XCTAssertEqual(CellConversion.checkbox(.bool(false)), .integer(0))
        XCTAssertEqual(CellConversion.checkbox(.null), .null)
        XCTAssertEqual(CellConversion.checkbox(.string("true")), .integer(1))
        XCTAssertEqual(CellConversion.checkbox(.string("false")), .integer(0))
    }

    func testTimestamps() {
        XCTAssertEqual(CellConversion.timestamp(.number("1446120000")), .text("2015-10-29T12:00:00Z"))
        XCTAssertEqual(CellConversion.timestamp(.string("1446120000")), .text("2015-10-29T12:00:00Z"))
        XCTAssertEqual(CellConversion.timestamp(.string("2015-10-29T05:00:00-07:00")), .text("2015-10-29T12:00:00Z"))
        XCTAssertEqual(CellConversion.timestamp(.string("2015-10-29T12:00:00.000Z")), .text("2015-10-29T12:00:00Z"))
        XCTAssertEqual(CellConversion.timestamp(.string("soon")), .text("soon"))
        XCTAssertEqual(CellConversion.timestamp(.null), .null)
    }

    func testLocationArraysAndObjects() {
        let array: JSONValue = .array([.string("{\"address\":\"1 Main\"}"), .string("47.5"), .string("-122.25"), .null, .bool(false)])
        XCTAssertEqual(CellConversion.location(array, subColumnTypes: nil), [.text("{\"address\":\"1 Main\"}"), .real(47.5), .real(-122.25)])
        let reordered: JSONValue = .array([.string("-122.25"), .string("47.5"), .null])
        XCTAssertEqual(CellConversion.location(reordered, subColumnTypes: ["longitude", "latitude", "human_address"]),
                       [.null, .real(47.5), .real(-122.25)])
        XCTAssertEqual(CellConversion.location(.array([.null, .null, .null, .null, .null]), subColumnTypes: nil), [.null, .null, .null])
        let soda2: JSONValue = .object([JSONMember(key: "latitude", value: .string("47.5")),
                                        JSONMember(key: "longitude", value: .string("-122.25")),
                                        JSONMember(key: "human_address", value: .string("{}"))])
        XCTAssertEqual(CellConversion.location(soda2, subColumnTypes: nil), [.text("{}"), .real(47.5), .real(-122.25)])
    }

    func testURLsPhonesAndPoints() {
        XCTAssertEqual(CellConversion.url(.array([.null, .null]), subColumnTypes: nil), [.null, .null])
        XCTAssertEqual(CellConversion.url(.array([.string("https://x.org"), .string("X")]), subColumnTypes: nil),
                       [.text("https://x.org"), .text("X")])
        XCTAssertEqual(CellConversion.url(.object([JSONMember(key: "url", value: .string("https://x.org"))]), subColumnTypes: nil),
                       [.text("https://x.org"), .null])
        XCTAssertEqual(CellConversion.phone(.array([.string("555-1234"), .string("Cell")]), subColumnTypes: nil),
                       [.text("555-1234"), .text("Cell")])
        XCTAssertEqual(CellConversion.point(.string("POINT (-73.9 40.8)")), [.text("POINT (-73.9 40.8)"), .real(-73.9), .real(40.8)])
        let geoJSON: JSONValue = .object([JSONMember(key: "type", value: .string("Point")),
                                          JSONMember(key: "coordinates", value: .array([.number("-73.9"), .number("40.8")]))])
        XCTAssertEqual(CellConversion.point(geoJSON), [.text("POINT (-73.9 40.8)"), .real(-73.9), .real(40.8)])
        XCTAssertEqual(CellConversion.calendarDate(.string("2015-01-01T00:00:00.000")), .text("2015-01-01T00:00:00"))
        XCTAssertEqual(CellConversion.calendarDate(.string("2015-01-01T00:00:00.250")), .text("2015-01-01T00:00:00.250"))
        XCTAssertEqual(CellConversion.calendarDate(.string("2015-01-01")), .text("2015-01-01"))
        XCTAssertEqual(CellConversion.point(.null), [.null, .null, .null])
    }

    func testStructuredValuesBecomeJSONText() {
        let value: JSONValue = .object([JSONMember(key: "file_id", value: .string("a\"b")), JSONMember(key: "n", value: .number("1.50"))])
        XCTAssertEqual(CellConversion.text(value), .text(#"{"file_id":"a\"b","n":1.50}"#))
        XCTAssertEqual(CellConversion.text(.string("plain")), .text("plain"))
    }
}
