import Dispatch
import Synchronization

/// One writer and several readers on one SQLite file in write-ahead-log mode: writes go one at
/// a time through the writer (`DatabaseQueue`), while each read runs at once on a reader
/// connection of its own, in a transaction that sees the last commit before it began — so a
/// read during a long load returns in its own time, with the rows as they were before the load.
///
///     let pool = try DatabasePool(path: "socload.sqlite")
///     let loader = DatasetLoader(destination: SQLiteDestination(pool: pool))
///     let count = try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from n5m4_mism") }
///
/// Readers are opened when first needed, up to `maximumReaders` (a read beyond waits for one to
/// be free), and refuse every change (`DatabaseConfiguration.acceptsChanges = false`). The file
/// is created and switched to WAL by the writer when the pool opens, so readers of a new database
/// have a file to read at once: they see it empty (`no such table`) until the first load commits.
/// A load through the pool keeps the WAL even into an empty file (where a load through a lone
/// `DatabaseQueue` takes the rollback journal, which writes each page once), so a reader never
/// waits for a load's lock.
/// Async reads and writes honour cancellation as `DatabaseQueue`'s do.
public final class DatabasePool: Sendable {
    public let path: String
    /// The writer: every write, and the destination of a load (`SQLiteDestination(pool:)`).
    public let writer: DatabaseQueue
    private let readerConfiguration: DatabaseConfiguration
    private let maximumReaders: Int
    private let state = Mutex<(free: [DatabaseQueue], opened: Int, closed: Bool)>(([], 0, false))
    private let available: DispatchSemaphore

    /// Opens the writer at once (creating the file unless `configuration` says not to, and
    /// switching it to WAL); readers open on demand.
    public init(path: String, maximumReaders: Int = 4, configuration: DatabaseConfiguration = DatabaseConfiguration()) throws {
        precondition(maximumReaders > 0, "a pool needs at least one reader")
        self.path = path
        self.maximumReaders = maximumReaders
        var writing = configuration
        writing.writeAheadLogging = true
        writer = try DatabaseQueue(path: path, configuration: writing)
        var reading = configuration
        reading.acceptsChanges = false
        reading.createIfMissing = false
        readerConfiguration = reading
        available = DispatchSemaphore(value: maximumReaders)
    }

    // MARK: - Reads

    /// Runs `body` on a reader, in a read-only transaction: one snapshot, never waiting for the
    /// writer.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        let reader = try takeReader()
        defer { giveBack(reader) }
        return try reader.read(body)
    }

    /// `read` for async callers; a cancelled task stops waiting or is interrupted.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let reader = try await withCheckedThrowingContinuation { continuation in
            // Waiting for a free reader blocks a thread of Dispatch's, not one of Swift's pool.
            DispatchQueue.global().async { continuation.resume(with: Result { try self.takeReader() }) }
        }
        defer { giveBack(reader) }
        return try await reader.read(body)
    }

    // MARK: - Writes

    /// Runs `body` on the writer in a write transaction (see `DatabaseQueue.write`).
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.write(body)
    }

    /// `write` for async callers.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.write(body)
    }

    /// Closes the writer and every reader; reads and writes after this throw.
    public func close() {
        let readers = state.withLock { state -> [DatabaseQueue] in
            state.closed = true
            defer { state.free = [] }
            return state.free
        }
        for reader in readers { reader.close() }
        writer.close()
    }

    // MARK: - Readers

    private func takeReader() throws -> DatabaseQueue {
        available.wait()
        enum Next { case reuse(DatabaseQueue), open, closed }
        let next = state.withLock { state -> Next in
            if state.closed { return .closed }
            if let reader = state.free.popLast() { return .reuse(reader) }
            state.opened += 1
            return .open
        }
        switch next {
        case .reuse(let reader): return reader
        case .closed:
            available.signal()
            throw DatabaseError.misuse("the database \(path) is closed (its DatabasePool's close() ran)", sql: nil)
        case .open:
            do {
                return try DatabaseQueue(path: path, configuration: readerConfiguration)
            } catch {
                state.withLock { $0.opened -= 1 }
                available.signal()
                throw error
            }
        }
    }

    private func giveBack(_ reader: DatabaseQueue) {
        let keep = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.free.append(reader)
            return true
        }
        if !keep { reader.close() }
        available.signal()
    }
}
