@testable import SocloadSocrata
import XCTest

/// The member keys of object rows, matched by their bytes wherever they sit in the row: each
/// key is named once, a key that moved is still found, and past the table's size every key is
/// still named right.
final class MemberKeyTableTests: XCTestCase {
    private func cells(_ table: inout MemberKeyTable, _ keys: [String], names: inout [String]) -> [Int?] {
        let text = Array(keys.joined().utf8)
        var start = 0
        return text.withUnsafeBufferPointer { buffer in
            keys.enumerated().map { position, key in
                let range = start..<(start + key.utf8.count)
                start = range.upperBound
                return table.cell(forKeyAt: range, in: buffer, position: position) {
                    names.append(key)
                    return ["a": 0, "bb": 1, "c": 2, "": 3][key]
                }
            }
        }
    }

    func testKeysAreFoundWhereverTheyMoveAndNamedOnce() {
        var table = MemberKeyTable()
        var names: [String] = []
        XCTAssertEqual(cells(&table, ["a", "bb", "c"], names: &names), [0, 1, 2])
        // A NULL field left out: the others move up a place.
        XCTAssertEqual(cells(&table, ["a", "c"], names: &names), [0, 2])
        XCTAssertEqual(cells(&table, ["c", "bb", "a", "zz", ""], names: &names), [2, 1, 0, nil, 3])
        XCTAssertEqual(cells(&table, ["zz", "b", "bb"], names: &names), [nil, nil, 1])
        XCTAssertEqual(names, ["a", "bb", "c", "zz", "", "b"])
    }

    func testPastItsSizeEveryKeyIsStillNamedRight() {
        var table = MemberKeyTable()
        var names: [String] = []
        let many = (0..<(MemberKeyTable.maximumKeys + 10)).map { "k\($0)" }
        XCTAssertEqual(cells(&table, many, names: &names), Array(repeating: nil, count: many.count))
        XCTAssertEqual(cells(&table, ["a", "bb"], names: &names), [0, 1])
        XCTAssertEqual(cells(&table, ["a", "bb"], names: &names), [0, 1])
        // The two keys past the table are named at every row.
        XCTAssertEqual(names.suffix(4), ["a", "bb", "a", "bb"])
    }
}
