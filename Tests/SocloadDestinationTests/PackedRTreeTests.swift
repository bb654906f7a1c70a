import Foundation
import SocloadDatabase
@testable import SocloadSQLite
import XCTest

/// The spatial index a GeoPackage load packs in one pass (`SQLitePackedRTree`) is a tree SQLite's
/// `rtree` module accepts as its own: `rtreecheck()` finds nothing wrong, every window query finds
/// exactly the boxes a scan of the plain table finds, and rows inserted afterwards (as the
/// triggers do) go into it as usual. Sizes around a node's capacity and over several levels.
final class PackedRTreeTests: XCTestCase {
    private func check(count: Int, seed: UInt64) throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE boxes (id INTEGER PRIMARY KEY, minx REAL, maxx REAL, miny REAL, maxy REAL)")
        var generator = SeededGenerator(seed: seed)
        let insert = try db.makeStatement(sql: "INSERT INTO boxes VALUES (?, ?, ?, ?, ?)")
        for index in 0..<count {
            // Points mostly (a location), some boxes, values that floats do not hold exactly.
            let x = Double.random(in: -180...180, using: &generator)
            let y = Double.random(in: -90...90, using: &generator)
            let width = index % 7 == 0 ? Double.random(in: 0...3, using: &generator) : 0
            let height = index % 5 == 0 ? Double.random(in: 0...2, using: &generator) : 0
            try insert.execute(StatementArguments(positional: [.integer(Int64(index * 3 + 1)), .real(x), .real(x + width),
                                                               .real(y), .real(y + height)]))
        }
        try db.execute(sql: "CREATE VIRTUAL TABLE r USING rtree(id, minx, maxx, miny, maxy)")
        try SQLitePackedRTree.fill("r", from: "SELECT id, minx, maxx, miny, maxy FROM boxes", db: db)
        XCTAssertEqual(try db.fetchOne(String.self, sql: "SELECT rtreecheck('r')"), "ok", "\(count) boxes")
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM r"), count)
        for _ in 0..<20 {
            let x = Double.random(in: -180...170, using: &generator)
            let y = Double.random(in: -90...80, using: &generator)
            let window = StatementArguments(positional: [.real(x + 10), .real(x), .real(y + 10), .real(y)])
            // The index keeps 32-bit bounds rounded outwards: it may find a box a hair outside.
            let found = Set(try db.fetchAll(Int64.self, sql: "SELECT id FROM r WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?",
                                            arguments: window))
            let scanned = Set(try db.fetchAll(Int64.self, sql: "SELECT id FROM boxes WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?",
                                              arguments: window))
            XCTAssertTrue(scanned.isSubset(of: found), "\(count) boxes: \(scanned.subtracting(found).sorted().prefix(5)) not found")
            XCTAssertLessThanOrEqual(found.count - scanned.count, 2, "\(count) boxes")
        }
        // Inserted afterwards by the module itself, as the triggers do.
        for index in 0..<120 {
            let x = Double(index) - 60
            try db.execute(sql: "INSERT INTO r VALUES (?, ?, ?, ?, ?)",
                           arguments: StatementArguments(positional: [.integer(Int64(count * 3 + 10 + index)), .real(x), .real(x), .real(1), .real(1)]))
        }
        XCTAssertEqual(try db.fetchOne(String.self, sql: "SELECT rtreecheck('r')"), "ok", "\(count) boxes, then 120 more")
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM r WHERE miny <= 1 AND maxy >= 1 AND minx <= 59 AND maxx >= -60"),
                       120 + (try db.fetchOne(Int.self, sql: "SELECT count(*) FROM boxes WHERE miny <= 1 AND maxy >= 1 AND minx <= 59 AND maxx >= -60") ?? 0))
    }

    func testPackedTreesOfEverySizeAreTreesTheModuleAccepts() throws {
        for (count, seed) in [(0, 1), (1, 2), (50, 3), (51, 4), (52, 5), (2_601, 6), (2_602, 7), (20_000, 8)] as [(Int, UInt64)] {
            try check(count: count, seed: seed)
        }
    }

    func testTheSortWithoutABufferSorts() {
        var generator = SeededGenerator(seed: 9)
        for count in [0, 1, 2, 17, 18, 1_000, 50_000] {
            // Many equal keys too (points on a grid).
            var boxes = (0..<count).map { index -> SQLitePackedRTree.Box in
                let x = index % 3 == 0 ? Float(Int.random(in: 0...20, using: &generator)) : Float.random(in: -180...180, using: &generator)
                return SQLitePackedRTree.Box(id: Int64(index), minX: x, maxX: x, minY: 0, maxY: 0)
            }
            let expected = boxes.map(\.minX).sorted()
            SQLitePackedRTree.sortInPlace(&boxes, 0..<count) { $0.centreX }
            XCTAssertEqual(boxes.map(\.minX), expected, "\(count) boxes")
            XCTAssertEqual(Set(boxes.map(\.id)).count, count)
        }
    }

    func testBoundsAreRoundedOutwardsToFloats() {
        for value in [0.1, -0.1, 179.99999999, -89.123456789, 1e-40, 3.0] {
            XCTAssertLessThanOrEqual(Double(SQLitePackedRTree.down(value)), value)
            XCTAssertGreaterThanOrEqual(Double(SQLitePackedRTree.up(value)), value)
            XCTAssertLessThanOrEqual(Double(SQLitePackedRTree.up(value)) - Double(SQLitePackedRTree.down(value)),
                                     Double(Float(value).ulp) * 2 + 1e-45)
        }
    }
}

/// A repeatable random source (SplitMix64), so a failure can be run again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
