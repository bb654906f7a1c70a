import Foundation
import Synchronization
import SocloadCore
import SocloadDatabase
import XCTest

/// Async reads and writes honour their task's cancellation: one waiting behind a long write
/// returns `CancellationError` at once and never runs; one running has its statement
/// interrupted; the queue serves the next caller either way.
final class DatabaseQueueCancellationTests: XCTestCase {
    func testACancelledReadWaitingBehindAWriteReturnsAtOnceAndNeverRuns() async throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        try await queue.write { db in try db.execute(sql: "create table t(a); insert into t values (1)") }
        let writing = Atomic<Bool>(false), writeDone = Atomic<Bool>(false), readRan = Atomic<Bool>(false)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? queue.write { db in
                writing.store(true, ordering: .sequentiallyConsistent)
                release.wait()               // the write holds the queue until the test lets it go
                try db.execute(sql: "insert into t values (2)")
            }
            writeDone.store(true, ordering: .sequentiallyConsistent)
        }
        while !writing.load(ordering: .sequentiallyConsistent) { try await Task.sleep(nanoseconds: 1_000_000) }
        let reader = Task {
            try await queue.read { db -> Int in
                readRan.store(true, ordering: .sequentiallyConsistent)
                return try db.fetchOne(Int.self, sql: "select count(*) from t") ?? 0
            }
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        reader.cancel()
        do {
            _ = try await reader.value
            XCTFail("a cancelled read returned a value")
        } catch is CancellationError {}
        XCTAssertFalse(writeDone.load(ordering: .sequentiallyConsistent), "it returned while the write still held the queue")
        release.signal()
        while !writeDone.load(ordering: .sequentiallyConsistent) { try await Task.sleep(nanoseconds: 1_000_000) }
        XCTAssertFalse(readRan.load(ordering: .sequentiallyConsistent), "the cancelled read never ran")
        let count = try await queue.read { db in try db.fetchOne(Int.self, sql: "select count(*) from t") }
        XCTAssertEqual(count, 2, "the write went on, and the queue reads again")
    }

    func testACancelledRunningStatementIsInterruptedAndTheQueueGoesOn() async throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        try await queue.write { db in try db.execute(sql: "create table t(a); insert into t values (1)") }
        let started = Atomic<Bool>(false)
        let endless = Task {
            try await queue.read { db -> DatabaseValue? in
                started.store(true, ordering: .sequentiallyConsistent)
                return try db.fetchValue(sql: "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c")
            }
        }
        while !started.load(ordering: .sequentiallyConsistent) { try await Task.sleep(nanoseconds: 1_000_000) }
        try await Task.sleep(nanoseconds: 50_000_000)
        endless.cancel()
        do {
            _ = try await endless.value
            XCTFail("an endless statement returned")
        } catch is CancellationError {}
        // A cancelled write rolls back, and both kinds of call work after.
        let writer = Task {
            try await queue.write { db in
                try db.execute(sql: "insert into t values (2)")
                _ = try db.fetchValue(sql: "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c")
            }
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        writer.cancel()
        do {
            try await writer.value
            XCTFail("an endless write returned")
        } catch is CancellationError {}
        try await queue.write { db in try db.execute(sql: "insert into t values (3)") }
        let values = try await queue.read { db in try db.fetchAll(Int.self, sql: "select a from t order by a") }
        XCTAssertEqual(values, [1, 3])
    }
}
