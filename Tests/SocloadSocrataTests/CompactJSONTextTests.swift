import Foundation
@testable import SocloadCore
import SocloadTestSupport
import XCTest

/// The compact text of a nested value, written from its bytes, is byte for byte what parsing
/// it and writing the tree gives (`JSONValue.jsonText`, the way it was stored before): for odd
/// spacing, every escape, control characters, DEL, non-ASCII, and every nested value of the real
/// exports re-spelled with spaces and `\u` escapes.
final class CompactJSONTextTests: XCTestCase {
    static let samples = [
        #"{"a": 1, "b": [1, 2.50, -3e+2, true, false, null], "c": {"d": "e"}}"#,
        "  [ \"x\" ,\n\t\"y\" ]  ",
        #"{"k\u00e9y": "\u00e9\n\t\r\b\f\/\\\"", "nul": "\u0000\u001f\u007f", "sur": "\ud83d\ude00"}"#,
        "{\"del\": \"a\u{7F}b\", \"raw\": \"中文 ✓ Åström\"}",
        #"[[], {}, [[]], {"": ""}, "", 0, -0.0, 1E5]"#,
        #"{"human_address": "{\"address\": \"1 Main St\", \"city\": \"Seattle\"}"}"#,
    ]

    private func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = Array(text.utf8)
        let expected = try JSONValueParser.parse(bytes).jsonText
        var output: [UInt8] = []
        let written = bytes.withUnsafeBufferPointer { CompactJSONText.append($0, 0..<bytes.count, to: &output) }
        XCTAssertTrue(written, text, file: file, line: line)
        XCTAssertEqual(String(decoding: output, as: UTF8.self), expected, text, file: file, line: line)
    }

    func testOddSpellingsGiveTheTreesText() throws {
        for sample in Self.samples { try check(sample) }
    }

    func testWhatItDoesNotVouchForIsLeftToTheParser() {
        for text in [#"["unterminated"#, #"["bad \ud800 surrogate"]"#, #"["bad \x escape"]"#] {
            let bytes = Array(text.utf8)
            var output: [UInt8] = [1, 2]
            XCTAssertFalse(bytes.withUnsafeBufferPointer { CompactJSONText.append($0, 0..<bytes.count, to: &output) }, text)
            XCTAssertEqual(output, [1, 2], "nothing appended")
        }
        var bytes = Array(#"["ok ", "x"]"#.utf8)
        bytes[3] = 0xFF // not UTF-8
        var output: [UInt8] = []
        XCTAssertFalse(bytes.withUnsafeBufferPointer { CompactJSONText.append($0, 0..<bytes.count, to: &output) })
        XCTAssertEqual(output, [])
    }

    /// Every nested array and object of the real exports, spelled three ways.
    func testEveryNestedValueOfTheRealExports() throws {
        var files = [Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")]
        if let shared = Fixtures.sharedDatasets {
            files += try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".json") }.sorted()
                .map { shared.appendingPathComponent($0) }
        }
        var checked = 0
        for file in files {
            guard let document = try? JSONValueParser.parse(Array(Data(contentsOf: file))) else { continue }
            var nested: [JSONValue] = []
            func collect(_ value: JSONValue, depth: Int) {
                switch value {
                case .array(let elements):
                    if depth > 1 { nested.append(value) }
                    elements.forEach { collect($0, depth: depth + 1) }
                case .object(let members):
                    if depth > 1 { nested.append(value) }
                    members.forEach { collect($0.value, depth: depth + 1) }
                default: break
                }
            }
            collect(document, depth: 0)
            for value in nested.prefix(2_000) {
                let compact = value.jsonText
                try check(compact)
                try check(compact.replacingOccurrences(of: ",", with: " ,  ").replacingOccurrences(of: "\":", with: "\" :  "))
                let escaped = compact.unicodeScalars.map { $0.value > 0x7F && $0.value < 0xFFFF
                    ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
                try check(escaped)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }
}
