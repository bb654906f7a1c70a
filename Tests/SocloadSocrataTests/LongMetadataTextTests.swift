import Foundation
import SocloadSocrata
import XCTest

/// Texts of megabytes in a dataset's description (its description, a column's) are decoded once,
/// in place, and come back exactly: every escape JSON has, in rows.json and in a views answer,
/// whatever the chunks the document arrives in.
final class LongMetadataTextTests: XCTestCase {
    /// A text over the 1 MB line, with every kind of escape and non-ASCII text, as JSON and as
    /// the string it stands for.
    private func longText(_ seed: String) -> (json: String, text: String) {
        let unit = #"\"\#(seed)\" line\nnext\ttab \/slash \\ caf\u00e9 \ud83d\ude00 Ünïcode. "#
        let decoded = "\"\(seed)\" line\nnext\ttab /slash \\ caf\u{E9} \u{1F600} Ünïcode. "
        let count = (1 << 20) / unit.utf8.count + 2
        return (String(repeating: unit, count: count), String(repeating: decoded, count: count))
    }

    func testLongTextsInRowsJSONComeBackExactly() throws {
        let dataset = longText("dataset")
        let column = longText("column")
        let ignored = longText("ignored")
        let document = #"{"meta":{"view":{"id":"abcd-1234","name":"Long","description":"\#(dataset.json)","#
            + #""unknown":"\#(ignored.json)","columns":[{"id":1,"fieldName":"a","name":"A","dataTypeName":"text","#
            + #""description":"\#(column.json)"}]}},"data":[["x"],["y"]]}"#
        let bytes = Array(document.utf8)
        for cuts in [[], [bytes.count / 3, bytes.count / 2], Array(stride(from: 1, to: bytes.count, by: 65_537))] {
            let outcome = ReaderHarness.read(bytes, cuts: cuts)
            XCTAssertNil(outcome.error)
            let view = try XCTUnwrap(outcome.metadata)
            XCTAssertEqual(view.dictionary.description, dataset.text)
            XCTAssertEqual(view.columns.first?.description, column.text)
            XCTAssertEqual(view.columns.first?.fieldName, "a")
            XCTAssertEqual(view.name, "Long")
            XCTAssertEqual(outcome.rows, [[.string("x")], [.string("y")]])
        }
        let answer = #"{"id":"abcd-1234","description":"\#(dataset.json)","columns":[{"fieldName":"a","dataTypeName":"text"}]}"#
        let described = try ViewMetadata(description: Array(answer.utf8), source: "views.json")
        XCTAssertEqual(described.dictionary.description, dataset.text)
    }

    func testALongTextThatIsNotUTF8IsRefused() {
        var bytes = Array(#"{"meta":{"view":{"description":""#.utf8)
        bytes += Array(repeating: UInt8(ascii: "a"), count: 1 << 20) + [0xC3, 0x28]
        bytes += Array(#"","columns":[{"fieldName":"a"}]}},"data":[]}"#.utf8)
        let error = ReaderHarness.read(bytes).error ?? ""
        XCTAssertTrue(error.contains("invalid UTF-8"), error)
    }
}
