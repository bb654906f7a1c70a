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

    /// Each record's members as a tree, and the names decided for the whole document, as `load`
    /// decides them.
    static func treesAndNames(_ records: [String]) throws -> ([[JSONMember]], [String: String]) {
        let trees = try records.map { record -> [JSONMember] in
            guard case .object(let members) = try JSONValueParser.parse(Array(record.utf8)) else { throw CocoaError(.coderInvalidValue) }
            return members
        }
        var paths: [String] = []
        for members in trees {
            for member in JSONFlattening.flattenPaths(members) where !paths.contains(member.key) { paths.append(member.key) }
        }
        return (trees, JSONFlattening.columnNames(forPaths: paths))
    }

    func testTheBytesFlattenAsTheTreeDoes() throws {
        let (trees, names) = try Self.treesAndNames(Self.records)
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

/// The remembered paths: the same flattener over many records, keys moving and coming back,
/// gives each record what the tree gives; under `keepsPaths` it gives the paths themselves, and
/// the inference typed from those bytes is the inference typed from the tree.
extension FlattenedRecordBytesTests {
    func testRememberedPathsFlattenEveryRecordAsTheTreeDoes() throws {
        let more = [
            #"{"address": {"geo": {"lon": [1], "lat": 2}, "city": "Tromsø"}, "a": 2}"#,
            #"{"k\u00e9y": {"\u0000nul": "y"}, "address": {"zip": "0150"}, "a": {"b": 1}}"#,
        ]
        let records = Self.records + more + Self.records.reversed() + more
        let (trees, names) = try Self.treesAndNames(records)
        var named = FlattenedRecordBytes(names: names)
        var pathed = FlattenedRecordBytes(names: [:], keepsPaths: true)
        var fromBytes = FieldTypeInference()
        var fromTree = FieldTypeInference()
        for (number, (record, members)) in zip(records, trees).enumerated() {
            let bytes = Array(record.utf8)
            XCTAssertEqual(try bytes.withUnsafeBufferPointer { try named.flatten($0) { try JSONValueParser.parse($0) } },
                           .object(JSONFlattening.flatten(members, names: names)), record)
            XCTAssertEqual(try bytes.withUnsafeBufferPointer { try pathed.flatten($0) { try JSONValueParser.parse($0) } },
                           .object(JSONFlattening.flattenPaths(members)), record)
            try bytes.withUnsafeBufferPointer { try pathed.flatten($0) { try fromBytes.observe(text: $0, record: number, line: nil) } }
            try fromTree.observe(.object(JSONFlattening.flattenPaths(members)), record: number, line: nil)
        }
        XCTAssertEqual(fromBytes.fields, fromTree.fields)
        XCTAssertEqual(fromBytes.types, fromTree.types)
        XCTAssertTrue(fromBytes.fields.contains("address" + JSONFlattening.pathSeparator + "geo" + JSONFlattening.pathSeparator + "lat"))
    }

    func testObjectsNestedPastTheParsersLimitAreRefusedNotRecursedInto() {
        let depth = JSONValueParser.maximumDepth + 5
        let record = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        var flattener = FlattenedRecordBytes(names: [:], keepsPaths: true)
        XCTAssertThrowsError(try Array(record.utf8).withUnsafeBufferPointer { try flattener.flatten($0) { _ in () } }) { error in
            XCTAssertTrue(error is FlattenedRecordBytes.TooDeep, "\(error)")
        }
    }
}
