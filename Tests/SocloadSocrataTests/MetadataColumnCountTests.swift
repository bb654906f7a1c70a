@testable import SocloadSocrata
import XCTest

/// The columns of a description are counted from its bytes before it is parsed: nested arrays,
/// strings holding brackets and commas, and bytes that are not JSON at all.
final class MetadataColumnCountTests: XCTestCase {
    func testCountsTheElementsOfTheColumnsArrayOnly() {
        func count(_ text: String, _ path: [String] = ["view", "columns"]) -> Int? {
            MetadataColumnCount.elements(of: path, in: Array(text.utf8))
        }
        XCTAssertEqual(count(#"{"view": {"columns": []}}"#), 0)
        XCTAssertEqual(count(#"{"view": {"columns": [{"a": 1}, {"b": [1, 2, {"c": "],[,"}]}, {}]}}"#), 3)
        XCTAssertEqual(count(#"{"view": {"name": "columns", "columns": [{"childColumns": [{}, {}, {}]}, {"x": "\"]"}]}}"#), 2)
        XCTAssertEqual(count(#"{"columns": [1, 2], "view": {"id": "x"}}"#), nil)
        XCTAssertEqual(count(#"{"columns": [1, 2, 3]}"#, ["columns"]), 3)
        XCTAssertEqual(count(#"{"view": {"columns": [{"a": "unterminated"#), 1)
        XCTAssertEqual(count(#"]]]}}},,,"\"#), nil)
        XCTAssertEqual(count(""), nil)
        XCTAssertEqual(count("\""), nil)
        XCTAssertEqual(count(#"{"view": {"columns": ["\"#), 1)
        // 100,000 levels deep: one small frame a level, no pattern below the path's depth.
        XCTAssertEqual(count(String(repeating: "[", count: 100_000)), nil)
        XCTAssertEqual(count(#"{"view": {"columns": ["# + String(repeating: "[", count: 100_000)), 1)
    }
}
