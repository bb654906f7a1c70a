import SocloadCore
import XCTest

/// Long strings taken out of a JSON document before it is decoded: each decoded once, in place,
/// the document left valid JSON with a placeholder where each was.
final class LongJSONStringsTests: XCTestCase {
    func testLongStringsAreTakenOutAndTheDocumentStaysJSON() throws {
        let long = String(repeating: #"a\"b\\c\u00e9\ud83d\ude00 "#, count: 40)
        let decoded = String(repeating: "a\"b\\c\u{E9}\u{1F600} ", count: 40)
        var document = Array(#"{"short": "x\ny", "long": "\#(long)", "list": ["\#(long)", 1]}"#.utf8)
        let length = document.count
        let taken = try LongJSONStrings(takingFrom: &document, minimumBytes: 100)
        XCTAssertEqual(document.count, length, "overwritten in place")
        XCTAssertEqual(taken.texts.count, 2)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(document)) as? [String: Any])
        XCTAssertEqual(object["short"] as? String, "x\ny", "a short string is left as it was")
        let placeholder = try XCTUnwrap(object["long"] as? String)
        XCTAssertTrue(placeholder.hasPrefix(LongJSONStrings.placeholderPrefix))
        XCTAssertEqual(taken.text(for: placeholder), decoded)
        XCTAssertEqual(taken.text(for: (object["list"] as? [Any])?.first as? String ?? ""), decoded)
        XCTAssertEqual(taken.text(for: "plain"), "plain")
    }

    func testALongStringWithABadEscapeOrBadUTF8IsRefused() {
        var escape = Array(("[\"" + String(repeating: "a", count: 200) + "\\ud800\"]").utf8)
        XCTAssertThrowsError(try LongJSONStrings(takingFrom: &escape, minimumBytes: 100))
        var bytes = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: 200) + [0xC3, 0x28] + Array("\"]".utf8)
        XCTAssertThrowsError(try LongJSONStrings(takingFrom: &bytes, minimumBytes: 100)) { error in
            XCTAssertEqual(error as? JSONValueParser.Failure, .invalidUTF8(offset: 2))
        }
    }
}
