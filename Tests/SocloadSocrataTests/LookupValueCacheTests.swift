@testable import SocloadCore
import XCTest

/// The cache of lookup ids a streaming load keeps: a value is found by its cells' kinds and
/// bytes, never confused with another spelled alike, and the cache stops growing at its budget.
final class LookupValueCacheTests: XCTestCase {
    private let arena = Array("parksParks12parks".utf8)

    private func key(_ cache: inout LookupValueCache, _ cells: [RowBatch.Value]) -> Int64? {
        arena.withUnsafeBufferPointer { arena in
            cache.beginKey()
            for cell in cells { cache.appendToKey(cell, arena: arena) }
            return cache.cachedID()
        }
    }

    func testAValueIsFoundByItsKindsAndBytesAndNothingElse() {
        var cache = LookupValueCache(maximumBytes: 1 << 20)
        let parks: [RowBatch.Value] = [.text(offset: 0, length: 5)]
        XCTAssertNil(key(&cache, parks))
        cache.remember(7)
        // The same bytes elsewhere in the arena are the same value.
        XCTAssertEqual(key(&cache, [.text(offset: 12, length: 5)]), 7)
        // Other case, other length, other kind with the same bytes: other values.
        XCTAssertNil(key(&cache, [.text(offset: 5, length: 5)]))
        XCTAssertNil(key(&cache, [.text(offset: 0, length: 4)]))
        XCTAssertNil(key(&cache, [.decimal(offset: 10, length: 2)]))
        XCTAssertNil(key(&cache, [.integer(12)]))
        // Several cells: where a NULL stands matters.
        XCTAssertNil(key(&cache, parks + [.null]))
        cache.remember(8)
        XCTAssertNil(key(&cache, [.null] + parks))
        cache.remember(9)
        XCTAssertEqual(key(&cache, parks + [.null]), 8)
        XCTAssertEqual(key(&cache, [.null] + parks), 9)
        XCTAssertEqual(key(&cache, parks), 7)
        for (offset, cell) in [RowBatch.Value.integer(-1), .real(-1), .day(-1), .instant(microseconds: -1),
                               .wallClock(microseconds: -1), .scaledDecimal(ScaledDecimal(units: -1, scale: 0))].enumerated() {
            XCTAssertNil(key(&cache, [cell]), "\(cell)")
            cache.remember(Int64(100 + offset))
        }
        XCTAssertEqual(key(&cache, [.day(-1)]), 102)
        XCTAssertEqual(key(&cache, [.wallClock(microseconds: -1)]), 104)
        XCTAssertEqual(cache.count, 9)
    }

    func testTheCacheStopsGrowingAtItsBudget() {
        var cache = LookupValueCache(maximumBytes: 1_000)
        for value in 0..<100 {
            XCTAssertNil(key(&cache, [.integer(Int64(value))]))
            cache.remember(Int64(value))
        }
        // 57 bytes an entry (a 9-byte key and 48 of bookkeeping): 17 fit in 1,000.
        XCTAssertEqual(cache.count, 17)
        XCTAssertEqual(key(&cache, [.integer(16)]), 16)
        XCTAssertNil(key(&cache, [.integer(17)]))
    }
}
