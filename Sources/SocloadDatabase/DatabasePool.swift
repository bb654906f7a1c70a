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
    /// Who may use a reader: `maximumReaders` at once, the others wait in turn (a cancelled
    /// async waiter leaves the line at once).
    private let permits: ReaderPermits

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
        permits = ReaderPermits(count: maximumReaders)
    }

    // MARK: - Reads

    /// Runs `body` on a reader, in a read-only transaction: one snapshot, never waiting for the
    /// writer.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        let reader = try takeReader()
        defer { giveBack(reader) }
        return try reader.read(body)
    }

    /// `read` for async callers; a cancelled task stops waiting for a reader (answered with
    /// `CancellationError` at once, never running `body`) or is interrupted.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        try await permits.acquire()
        let reader = try openReader()
        defer { giveBack(reader) }
        return try await reader.read(body)
    }

    /// The rows of `sql` decoded as `T`, streamed from a reader (see `DatabaseRecords`): one
    /// snapshot, never waiting for the writer; the reader is the sequence's until it ends.
    ///
    ///     for try await nomination in pool.records(Nomination.self, sql: "select name, agency from n5m4_mism") {
    ///         print(nomination.name)
    ///     }
    public func records<T: Decodable & Sendable>(_ type: T.Type, sql: String,
                                                 arguments: StatementArguments = []) -> DatabaseRecords<T> {
        DatabaseRecords(source: .pool(self), sql: sql, arguments: arguments)
    }

    /// For `DatabaseRecords`: `work` on a reader, which goes back when it ends; `failed` when
    /// there is none to have (the pool closed) or the work failed.
    func streamOnReader(_ work: @escaping @Sendable (Database) throws -> Void, failed: @escaping @Sendable (any Error) -> Void) {
        DispatchQueue.global().async {
            let reader: DatabaseQueue
            do {
                reader = try self.takeReader()
            } catch {
                return failed(error)
            }
            // Given back once: after the work, or when it (or the read around it) failed.
            reader.stream({ db in
                try work(db)
                self.giveBack(reader)
            }, failed: { error in
                self.giveBack(reader)
                failed(error)
            })
        }
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
        permits.wait()
        return try openReader()
    }

    /// A reader for the holder of a permit: a free one, else a new one (the permit goes back
    /// when none can be had).
    private func openReader() throws -> DatabaseQueue {
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
            permits.release()
            throw DatabaseError.misuse("the database \(path) is closed (its DatabasePool's close() ran)", sql: nil)
        case .open:
            do {
                return try DatabaseQueue(path: path, configuration: readerConfiguration)
            } catch {
                state.withLock { $0.opened -= 1 }
                permits.release()
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
        permits.release()
    }
}
