import Foundation
import SocloadCore
import XCTest

/// What a plan records of the portal's descriptions: MD5 digests, which PostgreSQL computes too.
final class TableDescriptionsTests: XCTestCase {
    /// A plan records digests of the portal's descriptions; one recorded with the texts (an older
    /// socload's) reads as the same, and the texts come back only when they match.
    func testAPlanRecordsDigestsOfDescriptions() throws {
        let text = "Restaurant inspections, \u{00FC}pdated daily"
        var table = PlanTable(name: "t", columns: [PlanColumn(name: "a", type: .text, source: .field(cell: 0))])
        table.descriptions = TableDescriptions(table: text, columns: ["a": "the A"])
        let plan = LoadPlan(tables: [table], sourceFields: ["a"])
        XCTAssertFalse(plan.jsonText.contains("inspections"), plan.jsonText)
        let decoded = try JSONDecoder().decode(LoadPlan.self, from: Data(plan.jsonText.utf8))
        XCTAssertEqual(decoded, plan)
        XCTAssertNil(decoded.mainTable.descriptions?.table)
        let older = #"{"table": "\#(text)", "columns": {"a": "the A"}}"#
        let recorded = try JSONDecoder().decode(TableDescriptions.self, from: Data(older.utf8))
        XCTAssertEqual(recorded, table.descriptions)
        XCTAssertEqual(recorded.table, text)
        let restored = try XCTUnwrap(decoded.mainTable.descriptions).restoringTexts(table: text, columns: ["a": "another A"])
        XCTAssertEqual(restored.table, text)
        XCTAssertNil(restored.columns["a"], "a text whose digest differs is not taken")
        XCTAssertNotEqual(TableDescriptions.digest(of: "a"), TableDescriptions.digest(of: "b"))
        XCTAssertEqual(TableDescriptions.digest(of: text).count, 32)
    }

    /// The digests are MD5's (RFC 1321's test suite), as PostgreSQL's `md5()` gives them.
    func testDescriptionDigestsAreMD5() {
        XCTAssertEqual(MD5Digest.hex(of: ""), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(MD5Digest.hex(of: "abc"), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(MD5Digest.hex(of: "message digest"), "f96b697d7cb7938d525a2f31aaf161d0")
        XCTAssertEqual(MD5Digest.hex(of: String(repeating: "1234567890", count: 8)), "57edf4a22be3c955ac49da2e2107b67a")
        XCTAssertEqual(MD5Digest.hex(of: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
                       "76658de2ac7d406f93dfbe8bb6d9f549")
        // A tail that needs a second block, a whole block, and UTF-8 (Python's hashlib gave these).
        XCTAssertEqual(MD5Digest.hex(of: String(repeating: "a", count: 56)), "3b0c8ac703f828b04c6c197006d17218")
        XCTAssertEqual(MD5Digest.hex(of: String(repeating: "b", count: 64)), "0b649bcb5a82868817fec9a6e709d233")
        XCTAssertEqual(MD5Digest.hex(of: String(repeating: "\u{DC}n\u{EF}code ", count: 20)), "7a3668e1705e271f901f2b43c7c5e0c5")
    }
}
