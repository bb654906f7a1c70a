import Foundation

/// The rows of a query decoded as `T`, as an `AsyncSequence` that streams them: the query runs
/// on its queue (or a pool's reader) in one read transaction (one snapshot) while the records
/// are taken, a few dozen decoded ahead at most, so memory stays flat over millions of rows. The
/// queue (or reader) is busy until the iteration ends; stopping early (`break`) or cancelling
/// the task ends it.
///
///     for try await nomination in queue.records(Nomination.self, sql: "select name, agency from n5m4_mism") {
///         print(nomination.name)
///     }
public struct DatabaseRecords<T: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = T
    /// Where the query runs.
    enum Source: Sendable {
        case queue(DatabaseQueue)
        case pool(DatabasePool)
    }
    let source: Source
    let sql: String
    let arguments: StatementArguments

    public func makeAsyncIterator() -> Iterator {
        let channel = RecordChannel<T>()
        let (sql, arguments) = (self.sql, self.arguments)
        let work: @Sendable (Database) throws -> Void = { db in
            try db.forEach(T.self, sql: sql, arguments: arguments) { channel.send($0) }
            channel.finish(nil)
        }
        switch source {
        case .queue(let queue): queue.stream(work, failed: { channel.finish($0) })
        case .pool(let pool): pool.streamOnReader(work, failed: { channel.finish($0) })
        }
        return Iterator(channel: channel)
    }

    /// Takes the records; when it goes (the loop ended or broke), the query stops.
    public final class Iterator: AsyncIteratorProtocol {
        private let channel: RecordChannel<T>

        init(channel: RecordChannel<T>) {
            self.channel = channel
        }

        deinit {
            channel.cancel()
        }

        public func next() async throws -> T? {
            try await channel.next()
        }
    }
}

extension DatabaseQueue {
    /// The rows of `sql` decoded as `T`, streamed (`DatabaseRecords`).
    public func records<T: Decodable & Sendable>(_ type: T.Type, sql: String,
                                                 arguments: StatementArguments = []) -> DatabaseRecords<T> {
        DatabaseRecords(source: .queue(self), sql: sql, arguments: arguments)
    }
}

/// Hands records from the queue's thread to an async consumer, at most `capacity` ahead: the
/// producer waits while the buffer is full, the consumer while it is empty.
//
// @unchecked Sendable: every stored property is read and written under `condition`'s lock.
final class RecordChannel<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer: [T] = []
    private var head = 0
    private var waiting: CheckedContinuation<T?, any Error>?
    private var ended = false
    private var failure: (any Error)?
    private var cancelled = false
    private let capacity = 64

    /// On the queue: false once the consumer went (the producer stops).
    func send(_ value: T) -> Bool {
        condition.lock()
        while buffer.count - head >= capacity, !cancelled { condition.wait() }
        guard !cancelled else {
            condition.unlock()
            return false
        }
        if let consumer = waiting {
            waiting = nil
            condition.unlock()
            consumer.resume(returning: value)
            return true
        }
        if head > capacity {
            buffer.removeFirst(head)
            head = 0
        }
        buffer.append(value)
        condition.unlock()
        return true
    }

    /// On the queue: no more records (`error` nil: the query ended).
    func finish(_ error: (any Error)?) {
        condition.lock()
        ended = true
        failure = error
        let consumer = waiting
        waiting = nil
        condition.unlock()
        if let error { consumer?.resume(throwing: error) } else { consumer?.resume(returning: nil) }
    }

    func next() async throws -> T? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T?, any Error>) in
                condition.lock()
                if cancelled {
                    condition.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if head < buffer.count {
                    let value = buffer[head]
                    head += 1
                    condition.signal()
                    condition.unlock()
                    continuation.resume(returning: value)
                } else if ended {
                    let failure = self.failure
                    condition.unlock()
                    if let failure { continuation.resume(throwing: failure) } else { continuation.resume(returning: nil) }
                } else {
                    waiting = continuation
                    condition.unlock()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The consumer went: the producer stops at its next record, a waiting `next()` throws.
    func cancel() {
        condition.lock()
        cancelled = true
        let consumer = waiting
        waiting = nil
        condition.broadcast()
        condition.unlock()
        consumer?.resume(throwing: CancellationError())
    }
}
