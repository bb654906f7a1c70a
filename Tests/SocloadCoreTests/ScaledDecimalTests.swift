import SocloadCore
import XCTest

/// Decimals read once into units and a scale, with the digits after the point kept.
final class ScaledDecimalTests: XCTestCase {
    private func read(_ text: String) -> ScaledDecimal? {
        var text = text
        return text.withUTF8 { ScaledDecimal(digits: $0) }
    }

    func testReadsUnitsAndScaleAsWritten() {
        let cases: [(String, Int64, Int16, String)] = [
            ("12.50", 1250, 2, "12.50"), ("-0.005", -5, 3, "-0.005"), ("1.5e3", 1500, 0, "1500"), ("1.50e1", 150, 1, "15.0"),
            ("2E-3", 2, 3, "0.002"), ("+7", 7, 0, "7"), ("5.", 5, 0, "5"), (".5", 5, 1, "0.5"), ("-0.00", 0, 2, "0.00"),
            ("9223372036854775807", Int64.max, 0, "9223372036854775807"), ("-922337203685477580.7", -9_223_372_036_854_775_807, 1,
                                                                          "-922337203685477580.7"),
        ]
        for (text, units, scale, shown) in cases {
            XCTAssertEqual(read(text), ScaledDecimal(units: units, scale: scale), text)
            XCTAssertEqual(read(text)?.text, shown, text)
        }
        XCTAssertEqual(read("12.50")?.double, 12.5)
        XCTAssertEqual(read("-0.005")?.double, -0.005)
    }

    func testNumbersThatDoNotFitAreLeftToTheirDigits() {
        for text in ["9223372036854775808", "123456789012345678901234567890.123", "1e19", "1e-16384", "1e999999"] {
            XCTAssertNil(read(text), text)
        }
        XCTAssertEqual(read("1e-16383"), ScaledDecimal(units: 1, scale: 16_383))
    }
}
