@testable import SocloadSocrata
import XCTest

/// `--flatten` on a record's bytes gives the record `JSONFlattening` gives from its tree, for
/// every shape of nesting and every odd key.
final class FlattenedRecordBytesTests: XCTestCase {
    static let records = [
        #"{"a": 1, "address": {"city": "Oslo", "geo": {"lat": 59.9, "lon": [10.7]}}, "empty": {}, "list": [{"x": {"y": 1}}]}"#,
        #"  {"address_city": "taken", "address": {"city": "Bergen"}, "n": null, "t": true}  "#,
        #"{"k\u00e9y": {"in\"ner": "q\"uote", "\u0000nul": "z"}, "s": "\u00e9\n", "deep": {"a": {"b": {"c": {"d": "e"}}}}}"#,
        #"{"spaced" : { "x" : 1 , "y" : { } } , "z":[ ]}"#,
        #"{}"#,
    ]

    func testTheBytesFlattenAsTheTreeDoes() throws {
        let trees = try Self.records.map { record -> [JSONMember] in
            guard case .object(let members) = try JSONValueParser.parse(Array(record.utf8)) else { throw CocoaError(.coderInvalidValue) }
            return members
        }
        // Names decided for the whole document, as `load` decides them.
        var paths: [String] = []
        for members in trees {
            for member in JSONFlattening.flattenPaths(members) where !paths.contains(member.key) { paths.append(member.key) }
        }
        let names = JSONFlattening.columnNames(forPaths: paths)
        var flattener = FlattenedRecordBytes(names: names)
        for (record, members) in zip(Self.records, trees) {
            let flattened = try Array(record.utf8).withUnsafeBufferPointer { bytes in
                try flattener.flatten(bytes) { try JSONValueParser.parse($0) }
            }
            XCTAssertEqual(flattened, .object(JSONFlattening.flatten(members, names: names)), record)
        }
        XCTAssertEqual(names["address" + JSONFlattening.pathSeparator + "city"], "address_city_2")
    }

    func testOneRecordFlattensOnItsOwn() {
        let flat = JSONFlattening.flatten([JSONMember(key: "address", value: .object([JSONMember(key: "city", value: .string("Oslo"))]))])
        XCTAssertEqual(flat, [JSONMember(key: "address_city", value: .string("Oslo"))])
    }

    func testAStringNeverBecomesANumber() throws {
        var inference = FieldTypeInference()
        try inference.observe(.object([JSONMember(key: "zip", value: .string("09799"))]), record: 1, line: nil)
        try inference.observe(.object([JSONMember(key: "zip", value: .number("12"))]), record: 2, line: nil)
        XCTAssertEqual(inference.fields, ["zip"])
        XCTAssertEqual(inference.types["zip"], .text)
    }

    func testARecordThatIsNoObjectIsRefused() {
        var flattener = FlattenedRecordBytes(names: [:])
        for bad in [#"[1, 2]"#, #"{"a": 1"#, #"{"a" 1}"#, "", "7"] {
            XCTAssertThrowsError(try Array(bad.utf8).withUnsafeBufferPointer { try flattener.flatten($0) { _ in () } }, bad)
        }
    }
}
