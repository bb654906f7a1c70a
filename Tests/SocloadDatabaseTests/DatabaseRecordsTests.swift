import Foundation
import Synchronization
import SocloadCore
import SocloadDatabase
import XCTest

/// Streaming decode: `queue.records(_:sql:)` as an AsyncSequence and `db.forEach(_:sql:)`, a
/// few records decoded ahead at most, stopped early or by an error without holding the queue.
final class DatabaseRecordsTests: XCTestCase {
    static let decoded = Atomic<Int>(0)

    struct Counted: Decodable, Sendable {
        var n: Int
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            n = try container.decode(Int.self, forKey: .n)
            DatabaseRecordsTests.decoded.add(1, ordering: .sequentiallyConsistent)
        }
        enum CodingKeys: String, CodingKey { case n }
    }

    private func makeNumbers(_ count: Int) throws -> (TemporaryDirectory, DatabaseQueue) {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        try queue.write { db in
            try db.execute(sql: "create table t(n integer, label text)")
            try db.execute(sql: "with recursive c(x) as (select 1 union all select x + 1 from c where x < ?) "
                                + "insert into t select x, 'n' || x from c", arguments: [count])
        }
        return (directory, queue)
    }

    func testRecordsStreamInOrderWithFewDecodedAhead() async throws {
        let (_, queue) = try makeNumbers(100_000)
        Self.decoded.store(0, ordering: .sequentiallyConsistent)
        let iterator = queue.records(Counted.self, sql: "select n from t order by n").makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.n, 1)
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertLessThan(Self.decoded.load(ordering: .sequentiallyConsistent), 200, "the producer waits for the consumer")
        var sum = first?.n ?? 0, count = 1
        while let record = try await iterator.next() {
            sum += record.n
            count += 1
        }
        XCTAssertEqual(count, 100_000)
        XCTAssertEqual(sum, 100_000 * 100_001 / 2)
        let after = try await queue.read { db in try db.fetchOne(Int.self, sql: "select count(*) from t") }
        XCTAssertEqual(after, 100_000)
    }

    func testBreakingEarlyFreesTheQueueAndAnErrorNamesTheRow() async throws {
        let (_, queue) = try makeNumbers(10_000)
        struct Labelled: Decodable, Sendable { var n: Int; var label: String }
        var taken: [Int] = []
        for try await record in queue.records(Labelled.self, sql: "select n, label from t order by n") {
            taken.append(record.n)
            if taken.count == 3 { break }
        }
        XCTAssertEqual(taken, [1, 2, 3])
        try await queue.write { db in try db.execute(sql: "update t set label = null where n = 5") }
        do {
            var seen = 0
            for try await _ in queue.records(Labelled.self, sql: "select n, label from t order by n") { seen += 1 }
            XCTFail("a NULL for a String decoded, after \(seen) records")
        } catch let error as RowDecodingError {
            XCTAssertTrue("\(error)".contains("row 4"), "\(error)")
        }
        let synchronous = try await queue.read { db -> [Int] in
            var taken: [Int] = []
            try db.forEach(Int.self, sql: "select n from t order by n desc") { n in
                taken.append(n)
                return taken.count < 2
            }
            return taken
        }
        XCTAssertEqual(synchronous, [10_000, 9_999])
        let count = try await queue.read { db in try db.fetchOne(Int.self, sql: "select count(*) from t") }
        XCTAssertEqual(count, 10_000)
    }
}
