import Dispatch

/// One database connection used from one serial dispatch queue: the only way socload touches a
/// database, so every read and write is serialized without locks in the caller.
///
/// For example:
///
///     let queue = try DatabaseQueue(path: "socload.sqlite")
///     try queue.write { db in try db.execute(sql: "insert into t(name) values (?)", arguments: ["Ann"]) }
///     let names = try queue.read { db in try db.fetchAll(String.self, sql: "select name from t") }
///     // In async code: let same = try await queue.read { db in try db.fetchAll(String.self, sql: "select name from t") }
///
/// Calling the queue again from inside one of its own closures is a programming error that would
/// deadlock; it stops the program with "Database methods are not reentrant" instead.
//
// @unchecked Sendable: `Database` is not thread-safe (its connection is opened with
// SQLITE_OPEN_NOMUTEX), but it is private to this object and only ever used inside closures that
// run on `dispatchQueue`, a serial queue. So at most one thread uses the connection at any time,
// and each use happens-after the previous one. The other stored properties are immutable, and
// `interruption` is Sendable (an atomic flag).
public final class DatabaseQueue: @unchecked Sendable {
    /// The database file.
    public let path: String
    private let database: Database
    /// The connection's interruption switch, kept here so that other threads never touch `database`.
    private let interruption: DatabaseInterruption
    private let dispatchQueue: DispatchQueue
    private static let ownerKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Opens (or creates) the database at `path`.
    public init(path: String, configuration: DatabaseConfiguration = DatabaseConfiguration()) throws {
        self.path = path
        database = try Database(path: path, configuration: configuration)
        interruption = database.interruption
        dispatchQueue = DispatchQueue(label: "socload.database")
        dispatchQueue.setSpecific(key: Self.ownerKey, value: ObjectIdentifier(self))
    }

    /// Stops what the connection is doing, from any thread (a signal handler's queue, say): the
    /// statement running now, a wait for another connection's lock, and every later statement
    /// fail with SQLITE_INTERRUPT (`DatabaseError.isInterrupted`) until `resumeAfterInterrupt()`.
    /// A transaction can still be rolled back.
    ///
    ///     signalSource.setEventHandler { queue.interrupt() }
    public func interrupt() {
        interruption.request()
    }

    /// Lets statements run again after `interrupt()`.
    public func resumeAfterInterrupt() {
        interruption.reset()
    }

    private func preconditionNotReentrant() {
        precondition(DispatchQueue.getSpecific(key: Self.ownerKey) != ObjectIdentifier(self),
                     "Database methods are not reentrant: a DatabaseQueue was called from inside one of its own closures")
    }

    /// Copies everything committed in the write-ahead log into the database file and empties the
    /// log (`PRAGMA wal_checkpoint(TRUNCATE)`), so that the `.sqlite` file alone is complete: it
    /// can be copied, mailed or kept as a build artifact without its `-wal`. Best effort: a reader
    /// in another process that still holds an older snapshot keeps it from finishing; the last
    /// connection to close then completes it. Does nothing for a database not in WAL mode.
    ///
    ///     try queue.write { db in try db.execute(sql: "insert into t values (1)") }
    ///     queue.checkpoint()
    public func checkpoint() {
        preconditionNotReentrant()
        dispatchQueue.sync { _ = try? database.fetchValue(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Closes the connection once the work queued before has run (see `Database.close()`); later
    /// statements throw SQLITE_MISUSE.
    public func close() {
        preconditionNotReentrant()
        dispatchQueue.sync { database.close() }
    }

    // MARK: - Synchronous access

    /// Runs `body` with the connection, outside of any transaction socload opens.
    public func inDatabase<T>(_ body: (Database) throws -> T) rethrows -> T {
        preconditionNotReentrant()
        return try dispatchQueue.sync { try body(database) }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): committed when it returns, rolled back
    /// when it throws.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        preconditionNotReentrant()
        return try dispatchQueue.sync { try Self.performWrite(database, body) }
    }

    /// Runs `body` in a read-only transaction: it sees one consistent snapshot, and any attempt to
    /// write fails.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        preconditionNotReentrant()
        return try dispatchQueue.sync { try Self.performRead(database, body) }
    }

    // MARK: - Swift concurrency

    /// `inDatabase` for async callers: the closure runs on the queue while the caller is suspended.
    public func inDatabase<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await perform { database in try body(database) }
    }

    /// `write` for async callers.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await perform { database in try Self.performWrite(database, body) }
    }

    /// `read` for async callers.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await perform { database in try Self.performRead(database, body) }
    }

    /// Runs `work` on the queue for an async caller. A cancelled task is answered at once with
    /// `CancellationError` while its work waits behind others (which then never runs), and has
    /// its statement interrupted while it runs (`QueuedWork`); the queue stays usable.
    private func perform<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let queued = QueuedWork<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queued.attach(continuation)
                dispatchQueue.async {
                    guard queued.start() else { return }
                    let result = Result { try work(self.database) }
                    if queued.finish(result) {
                        // Interrupted for this caller only: the next one runs.
                        self.interruption.reset()
                        if self.database.isInsideTransaction { try? self.database.execute(sql: "ROLLBACK") }
                    }
                }
            }
        } onCancel: {
            queued.cancel { self.interruption.request() }
        }
    }

    /// Runs `work` on the queue in a read transaction, without waiting for it (the producer of
    /// `DatabaseRecords`, which hands its results over itself); `failed` gets what it threw, or
    /// why it could not start (a closed queue).
    func stream(_ work: @escaping @Sendable (Database) throws -> Void, failed: @escaping @Sendable (any Error) -> Void) {
        dispatchQueue.async {
            do {
                try Self.performRead(self.database, work)
            } catch {
                failed(error)
            }
        }
    }

    // MARK: - Transactions

    private static func performWrite<T>(_ database: Database, _ body: (Database) throws -> T) throws -> T {
        try checkOpen(database)
        return try database.inTransaction(.immediate) { try body(database) }
    }

    /// A read or write after `close()` says so, not what statement it tried first.
    private static func checkOpen(_ database: Database) throws {
        guard !database.isClosed else {
            throw DatabaseError.misuse("the database \(database.path) is closed (its DatabaseQueue's close() ran)", sql: nil)
        }
    }

    private static func performRead<T>(_ database: Database, _ body: (Database) throws -> T) throws -> T {
        try checkOpen(database)
        // A connection that does not accept changes stays under query_only.
        guard database.acceptsChanges else { return try database.inTransaction(.deferred) { try body(database) } }
        try database.execute(sql: "PRAGMA query_only = 1")
        defer { try? database.execute(sql: "PRAGMA query_only = 0") }
        return try database.inTransaction(.deferred) { try body(database) }
    }
}
