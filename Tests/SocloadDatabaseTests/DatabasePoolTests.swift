import Foundation
import Synchronization
import SocloadCore
import SocloadDatabase
import XCTest

/// `DatabasePool`: reads run at once beside a write, each on its snapshot; more reads than
/// readers wait their turn; a closed pool says so.
final class DatabasePoolTests: XCTestCase {
    func testReadsGoOnWhileAWriteIsOpenAndSeeTheLastCommit() async throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path("pool.sqlite"), maximumReaders: 2)
        try await pool.write { db in try db.execute(sql: "create table t(a); insert into t values (1)") }
        let mode = try await pool.read { db in try db.fetchValue(sql: "pragma journal_mode") }
        XCTAssertEqual(mode, .text("wal"))

        let writing = Atomic<Bool>(false), committed = Atomic<Bool>(false)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? pool.write { db in
                try db.execute(sql: "insert into t select a + 1 from t")
                writing.store(true, ordering: .sequentiallyConsistent)
                release.wait()
            }
            committed.store(true, ordering: .sequentiallyConsistent)
        }
        while !writing.load(ordering: .sequentiallyConsistent) { try await Task.sleep(nanoseconds: 1_000_000) }
        // Several reads at once, more than the readers, all while the write stays open.
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask { try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from t") ?? -1 } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(counts, Array(repeating: 1, count: 6), "each read sees the last commit, not the open write")
        XCTAssertFalse(committed.load(ordering: .sequentiallyConsistent), "the reads did not wait for the write")
        // A read is one snapshot: the same answer before and after the write commits under it.
        let snapshot = Task {
            try await pool.read { db -> [Int] in
                let before = try db.fetchOne(Int.self, sql: "select count(*) from t") ?? -1
                release.signal()
                while !committed.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
                return [before, try db.fetchOne(Int.self, sql: "select count(*) from t") ?? -1]
            }
        }
        let answers = try await snapshot.value
        XCTAssertEqual(answers, [1, 1])
        let after = try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from t") }
        XCTAssertEqual(after, 2)
        do {
            try await pool.read { db in try db.execute(sql: "delete from t") }
            XCTFail("a reader wrote")
        } catch let error as DatabaseError {
            XCTAssertTrue(error.isNotAuthorized, "\(error)")
        }
    }

    func testAClosedPoolSaysSo() throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path("pool.sqlite"))
        try pool.write { db in try db.execute(sql: "create table t(a)") }
        _ = try pool.read { db in try db.fetchValue(sql: "select count(*) from t") }
        pool.close()
        XCTAssertThrowsError(try pool.read { db in try db.fetchValue(sql: "select 1") }) { error in
            XCTAssertTrue("\(error)".contains("pool.sqlite is closed (its DatabasePool's close() ran)"), "\(error)")
        }
        XCTAssertThrowsError(try pool.write { db in try db.execute(sql: "insert into t values (1)") }) { error in
            XCTAssertTrue("\(error)".contains("is closed"), "\(error)")
        }
    }

    /// A read waiting for a free reader is answered with CancellationError as soon as its task is
    /// cancelled, without waiting for the read that holds the reader; its body never runs, and
    /// the next read gets the reader when it is free.
    func testACancelledWaiterIsAnsweredAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path("pool.sqlite"), maximumReaders: 1)
        try await pool.write { db in try db.execute(sql: "create table t(a); insert into t values (1)") }
        let holding = Atomic<Bool>(false), release = DispatchSemaphore(value: 0), ran = Atomic<Bool>(false)
        let holder = Task {
            try await pool.read { db -> Int in
                holding.store(true, ordering: .sequentiallyConsistent)
                release.wait()
                return try db.fetchOne(Int.self, sql: "select count(*) from t") ?? -1
            }
        }
        while !holding.load(ordering: .sequentiallyConsistent) { try await Task.sleep(nanoseconds: 1_000_000) }
        let waiter = Task {
            try await pool.read { _ in ran.store(true, ordering: .sequentiallyConsistent) }
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        let start = Date()
        waiter.cancel()
        do {
            try await waiter.value
            XCTFail("the cancelled read ran")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "answered at once, not when the reader was free")
        XCTAssertFalse(ran.load(ordering: .sequentiallyConsistent))
        release.signal()
        let held = try await holder.value
        XCTAssertEqual(held, 1)
        // The permit the cancelled waiter never took is still there: the next reads go on.
        let again = try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from t") ?? -1 }
        XCTAssertEqual(again, 1)
        let synchronous = try await Task.detached {
            try pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from t") ?? -1 }
        }.value
        XCTAssertEqual(synchronous, 1)
    }

    /// The pool streams records from a reader, as the queue does, and the reader goes back when
    /// the loop ends or breaks.
    func testRecordsStreamFromAReader() async throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path("pool.sqlite"), maximumReaders: 1)
        try await pool.write { db in
            try db.execute(sql: "create table t(n integer, label text)")
            for n in 1...500 { try db.execute(sql: "insert into t values (?, ?)", arguments: [n, "row \(n)"]) }
        }
        struct Labelled: Decodable, Sendable { var n: Int; var label: String }
        var total = 0
        for try await record in pool.records(Labelled.self, sql: "select n, label from t order by n") {
            XCTAssertEqual(record.label, "row \(record.n)")
            total += record.n
        }
        XCTAssertEqual(total, 500 * 501 / 2)
        var taken: [Int] = []
        for try await record in pool.records(Labelled.self, sql: "select n, label from t order by n desc") {
            taken.append(record.n)
            if taken.count == 3 { break }
        }
        XCTAssertEqual(taken, [500, 499, 498])
        // With one reader, these reads go through only if the streams gave it back.
        for _ in 0..<3 {
            let count = try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from t") ?? -1 }
            XCTAssertEqual(count, 500)
        }
        do {
            for try await _ in pool.records(Int.self, sql: "select label from t") {}
            XCTFail("text decoded as Int")
        } catch let error as RowDecodingError {
            XCTAssertTrue("\(error)".contains("select label from t"), "\(error)")
        }
        let count = try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from t") ?? -1 }
        XCTAssertEqual(count, 500)
    }
}
