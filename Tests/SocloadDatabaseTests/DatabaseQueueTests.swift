import Foundation
import SocloadDatabase
import XCTest

final class DatabaseQueueTests: XCTestCase {
    func testConcurrentCallersAreSerialized() throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        try queue.write { db in try db.execute(sql: "create table counter(n integer); insert into counter values (0)") }
        let activity = ActivityCounter()
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            try? queue.write { db in
                activity.enter()
                // A read-modify-write that would lose updates if two closures interleaved.
                let current = try db.fetchOne(Int.self, sql: "select n from counter") ?? 0
                try db.execute(sql: "update counter set n = ?", arguments: [current + 1])
                activity.leave()
            }
        }
        XCTAssertEqual(activity.overlaps, 0)
        XCTAssertEqual(try queue.read { try $0.fetchOne(Int.self, sql: "select n from counter") }, 200)
    }

    func testAsyncVariants() async throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        try await queue.write { db in try db.execute(sql: "create table t(name text); insert into t values ('a'), ('b')") }
        let names = try await queue.read { db in try db.fetchAll(String.self, sql: "select name from t order by name") }
        XCTAssertEqual(names, ["a", "b"])
        let count = try await queue.inDatabase { db in try db.fetchOne(Int.self, sql: "select count(*) from t") }
        XCTAssertEqual(count, 2)
        await XCTAssertThrowsErrorAsync(try await queue.write { db in try db.execute(sql: "insert into nowhere values (1)") })
    }

    func testOtherQueuesCanBeUsedFromInsideAQueue() throws {
        let directory = try TemporaryDirectory()
        let first = try makeQueue(directory, name: "a.sqlite")
        let second = try makeQueue(directory, name: "b.sqlite")
        let value = try first.read { _ in try second.read { try $0.fetchOne(Int.self, sql: "select 7") } }
        XCTAssertEqual(value, 7)
    }

    /// Re-entering a queue must stop the program with a clear message instead of deadlocking.
    /// The crash happens in a child process running `testReentrantCallChild`.
    func testReentrantCallIsAPreconditionFailure() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["SocloadDatabaseTests.DatabaseQueueTests/testReentrantCallChild"]
        var environment = ProcessInfo.processInfo.environment
        environment["SOCLOAD_REENTRANCY_CHILD"] = "1"
        process.environment = environment
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, output)
        XCTAssertTrue(output.contains("Database methods are not reentrant"), output)
    }

    func testReentrantCallChild() throws {
        guard ProcessInfo.processInfo.environment["SOCLOAD_REENTRANCY_CHILD"] == "1" else { return }
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        _ = try queue.read { _ in try queue.read { _ in 1 } }
        XCTFail("unreachable: the nested call must stop the process")
    }
}

func XCTAssertThrowsErrorAsync<T>(_ expression: @autoclosure () async throws -> T,
                                  file: StaticString = #filePath, line: UInt = #line) async {
    do {
        _ = try await expression()
        XCTFail("expected an error", file: file, line: line)
    } catch {}
}

/// Counts closures running at once, to detect any overlap.
final class ActivityCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var active = 0
    private var overlapCount = 0

    func enter() { lock.withLock { active += 1; if active > 1 { overlapCount += 1 } } }
    func leave() { lock.withLock { active -= 1 } }
    var overlaps: Int { lock.withLock { overlapCount } }
}
