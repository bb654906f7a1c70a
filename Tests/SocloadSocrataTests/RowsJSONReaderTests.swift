import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

final class RowsJSONReaderTests: XCTestCase {
    /// Small documents with the edge cases of the format; each is read at every split.
    static let fixtures: [String: String] = [
        "minimal": #"{"meta":{"view":{"id":"abcd-1234","columns":[{"fieldName":"a","dataTypeName":"text"}]}},"data":[["x"],[null]]}"#,
        "escapes": #"{"meta":{"view":{"columns":[{"fieldName":"t","dataTypeName":"text"}]}},"data":[["q\"uote \\ back\/slash \n\t \u00e9 \ud83d\ude00 [{,]}"],["\u0000"]]}"#,
        "nested": #"{"other":{"deep":[[[{"x":"]}"}]]]},"meta":{"note":"x]","view":{"columns":[{"fieldName":"loc","dataTypeName":"location"}]}},"extra":-1.5e3,"data":[[["{\"address\":\"1 Main\"}","1.5","-2.25",null,false]],[[null,null,null,null,null]]],"tail":true}"#,
        "whitespace": "\u{FEFF}\n {\r\n \"meta\" : { \"view\" : { \"columns\" : [ { \"fieldName\" : \"n\" , \"dataTypeName\" : \"number\" } ] } } ,\n \"data\" : [ \n [ \"1.000000\" ] , [ 2 ] \n ] \n } \n",
        "empty data": #"{"meta":{"view":{"columns":[{"fieldName":"a","dataTypeName":"text"}]}},"data":[]}"#,
        "unicode": #"{"meta":{"view":{"name":"Zürich 中文","columns":[{"fieldName":"名前","dataTypeName":"text"}]}},"data":[["Café"],["日本語テキスト"]]}"#,
    ]

    /// The bundled datasets cut down to their metadata and first rows, small enough to split everywhere.
    static func bundledExcerpts() throws -> [String: [UInt8]] {
        var excerpts: [String: [UInt8]] = [:]
        for id in Fixtures.bundledIDs {
            let lines = String(decoding: try Fixtures.bundled(id), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            // Line 0: meta and `"data":[`; lines 1...: one row each, the last followed by `]}`.
            let row3 = lines[3].hasSuffix(",") ? String(lines[3].dropLast()) : String(lines[3])
            var text = [String(lines[0]), String(lines[1]), String(lines[2]), row3].joined(separator: "\n")
            text += "\n]}\n"
            excerpts[id] = Array(text.utf8)
        }
        return excerpts
    }

    func testEveryFixtureGivesTheSameResultAtEverySplit() throws {
        var documents = Self.fixtures.mapValues { Array($0.utf8) }
        for (id, bytes) in try Self.bundledExcerpts() { documents["excerpt of \(id)"] = bytes }
        for (name, bytes) in documents {
            let whole = ReaderHarness.read(bytes)
            XCTAssertNil(whole.error, "\(name): \(whole.error ?? "")")
            XCTAssertNotNil(whole.metadata, name)
            for cut in 1..<bytes.count {
                let split = ReaderHarness.read(bytes, cuts: [cut])
                if split != whole {
                    XCTFail("\(name): different result when split at byte \(cut)")
                    break
                }
            }
            XCTAssertEqual(ReaderHarness.readByteByByte(bytes), whole, "\(name): 1-byte chunks")
        }
    }

    func testWholeBundledDatasetsInOneByteChunksAndRandomSplits() throws {
        var random = SystemRandomNumberGenerator()
        for id in Fixtures.bundledIDs {
            let bytes = try Fixtures.bundled(id)
            let whole = ReaderHarness.read(bytes)
            XCTAssertNil(whole.error, id)
            XCTAssertEqual(ReaderHarness.readByteByByte(bytes), whole, id)
            let cuts = (0..<50).map { _ in Int.random(in: 1..<bytes.count, using: &random) }
            XCTAssertEqual(ReaderHarness.read(bytes, cuts: cuts), whole, "\(id) cut at \(cuts)")
        }
    }

    func testValuesAreDecodedExactly() {
        let outcome = ReaderHarness.read(Array(Self.fixtures["escapes"]!.utf8))
        XCTAssertEqual(outcome.rows, [[.string("q\"uote \\ back/slash \n\t é 😀 [{,]}")], [.string("\u{0}")]])
        let nested = ReaderHarness.read(Array(Self.fixtures["nested"]!.utf8))
        XCTAssertEqual(nested.metadata?.columns.map(\.fieldName), ["loc"])
        XCTAssertEqual(nested.rows.first, [.array([.string("{\"address\":\"1 Main\"}"), .string("1.5"), .string("-2.25"), .null, .bool(false)])])
        let spaced = ReaderHarness.read(Array(Self.fixtures["whitespace"]!.utf8))
        XCTAssertEqual(spaced.rows, [[.string("1.000000")], [.number("2")]])
        XCTAssertEqual(ReaderHarness.read(Array(Self.fixtures["empty data"]!.utf8)).rows, [])
    }

    func testTruncatedDocumentsFailAtEveryPoint() throws {
        let bytes = try Self.bundledExcerpts()["ci7y-pmts"]!
        let complete = bytes.count - 2 // drop "}\n": everything shorter is incomplete
        for length in stride(from: 0, to: complete, by: 7) {
            let outcome = ReaderHarness.read(Array(bytes.prefix(length)))
            XCTAssertNotNil(outcome.error, "no error for a document cut at \(length) bytes")
        }
        XCTAssertEqual(ReaderHarness.read(Array(bytes.prefix(bytes.count - 3))).error,
                       "the document ends early, at byte \(bytes.count - 3) (truncated download?)")
    }

    func testMalformedAndForeignDocuments() {
        let cases: [(String, String)] = [
            ("<!DOCTYPE html><html><title>Oops</title></html>", "received an HTML page where a JSON dataset was expected"),
            (#"{"code":"dataset.missing","error":true,"message":"Cannot find view"}"#,
             "received a Socrata error instead of a dataset: dataset.missing: Cannot find view"),
            (#"{"errorCode":"query.soql.no-such-column","message":"No such column: foo"}"#,
             "received a Socrata error instead of a dataset: query.soql.no-such-column: No such column: foo"),
            (#"{"data":[["x"]],"meta":{"view":{"columns":[]}}}"#,
             "'data' comes before 'meta' (byte 8): socload needs the column metadata first"),
            (#"{"meta":{"view":{"name":"no columns"}},"data":[]}"#,
             "no meta.view.columns in the document: not a Socrata rows.json export"),
            (#"{"meta":{"view":{"columns":[]}},"data":[["a"] ["b"]]}"#,
             "malformed JSON at byte 46: expected ',' or ']' after a row, found '['"),
            (#"{"meta":{"view":{"columns":[]}},"data":[["a",]]}"#,
             "row 1 (byte 40): malformed JSON: unexpected ']' at byte 45"),
            (#"{"meta":{"view":{"columns":[]}},"data":[{"a":1}]}"#,
             "malformed JSON at byte 40: expected a row array, found '{'"),
            ("[]", RowsJSONError.arrayOfRecords.description),
            (#"{"meta":{"view":{"columns":[]}},"data":[]} extra"#,
             "malformed JSON at byte 43: expected the end of the document, found 'e'"),
        ]
        for (document, expected) in cases {
            XCTAssertEqual(ReaderHarness.read(Array(document.utf8)).error, expected, document)
        }
    }

    func testInvalidUTF8IsRejectedWithRowAndOffset() {
        var bytes = Array(#"{"meta":{"view":{"columns":[{"fieldName":"a"}]}},"data":[["ok"],["bad "#.utf8)
        bytes += [0xC3, 0x28] + Array(#""]]}"#.utf8)
        XCTAssertEqual(ReaderHarness.read(bytes).error, "row 2 (byte 64): invalid UTF-8 in a string at byte 66")
    }

    func testDeepNestingFailsCleanlyWithoutRecursion() {
        let depth = 100_000
        let document = #"{"meta":{"view":{"columns":[{"fieldName":"a"}]}},"data":[["#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "]]}"
        let outcome = ReaderHarness.read(Array(document.utf8))
        XCTAssertEqual(outcome.error, "row 1 (byte 57): values nested more than 512 levels deep")
        // Deep nesting in a member that is skipped costs nothing and is not an error.
        let skipped = #"{"junk":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + #","meta":{"view":{"columns":[]}},"data":[]}"#
        XCTAssertNil(ReaderHarness.read(Array(skipped.utf8)).error)
    }
}
