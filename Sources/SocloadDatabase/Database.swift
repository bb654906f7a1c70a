import CSQLite
/// `import SocloadDatabase` brings the core too (values, `RowFilter`, dates), as before it moved.
@_exported import SocloadCore
import Foundation

/// One SQLite connection: it owns the `sqlite3*` handle and its prepared statements.
///
/// A `Database` is not thread-safe. Use it through a `DatabaseQueue`, which hands it to one
/// closure at a time on its serial dispatch queue.
public final class Database {
    /// The file the connection opened (`:memory:` for an in-memory database).
    public let path: String
    /// The `sqlite3*` handle.
    public let handle: OpaquePointer
    private var statementCache: [String: Statement] = [:]
    private var traceObserver: Unmanaged<TraceObserver>?
    /// Flipped by `DatabaseQueue.interrupt()` from another thread.
    let interruption: DatabaseInterruption
    /// False: opened with `acceptsChanges = false`, under the read-only authorizer and
    /// `PRAGMA query_only` for its whole life.
    public let acceptsChanges: Bool

    /// Opens (or creates) the database file at `path`. A read-only connection to a file in a
    /// directory it cannot write opens it `immutable=1` when that is safe (see `ReadOnlyOpening`).
    public init(path: String, configuration: DatabaseConfiguration = DatabaseConfiguration()) throws {
        self.path = path
        acceptsChanges = configuration.acceptsChanges
        // No SQLite mutex: DatabaseQueue already guarantees that one thread at a time uses it.
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        if configuration.readonly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if configuration.createIfMissing { flags |= SQLITE_OPEN_CREATE }
        }
        // A read-only connection in a directory it cannot write opens the file immutable.
        let name = configuration.readonly ? try ReadOnlyOpening.name(for: path) : path
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(name, &connection, flags, nil)
        guard let connection else {
            throw DatabaseError(extendedResultCode: code, message: "cannot open database \(path)")
        }
        guard code == SQLITE_OK else {
            let message = sqlite3_errmsg(connection).map { String(cString: $0) } ?? "cannot open database"
            sqlite3_close_v2(connection)
            throw DatabaseError(extendedResultCode: code, message: "\(message): \(path)")
        }
        handle = connection
        sqlite3_extended_result_codes(handle, 1)
        // The busy timeout, kept by a handler that also gives up at once when interrupted.
        interruption = DatabaseInterruption(busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        interruption.install(on: handle)
        // Double-quoted strings are identifiers only: "name" never silently becomes a string literal.
        var ignored: Int32 = 0
        _ = socload_sqlite3_db_config_int(handle, SQLITE_DBCONFIG_DQS_DML, 0, &ignored)
        _ = socload_sqlite3_db_config_int(handle, SQLITE_DBCONFIG_DQS_DDL, 0, &ignored)
        TextFolding.register(on: handle)
        GeoPackageFunctions.register(on: handle)
        // A REPLACE (INSERT OR REPLACE, REPLACE INTO, UPDATE OR REPLACE) deletes the rows it
        // replaces without firing their DELETE triggers unless this is on: counts kept by
        // triggers (lookups) would drift. Every connection socload opens turns it on.
        _ = sqlite3_exec(handle, "PRAGMA recursive_triggers = ON", nil, nil, nil)
        if !configuration.acceptsChanges {
            // SQLite itself refuses every write; the authorizer also refuses what SQLite would run
            // even so (VACUUM INTO, PRAGMA journal_mode...).
            _ = sqlite3_exec(handle, "PRAGMA query_only = ON", nil, nil, nil)
            ReadOnlyAuthorizer.install(on: handle)
        } else if configuration.writeAheadLogging, !configuration.readonly, !isInMemory {
            // Best effort: some file systems and locked files refuse WAL; the default journal still works.
            _ = try? fetchValue(sql: "PRAGMA journal_mode = WAL")
        }
    }

    deinit {
        close()
        traceObserver?.release()
    }

    /// The most columns a table or a result may have on this connection (`SQLITE_LIMIT_COLUMN`).
    public var maximumColumns: Int { Int(sqlite3_limit(handle, SQLITE_LIMIT_COLUMN, -1)) }

    /// True once `close()` has run.
    public private(set) var isClosed = false

    /// Closes the connection now rather than when the object goes away: SQLite finishes its
    /// files (a WAL database checkpoints and removes its `-wal` and `-shm` files), so the
    /// database file can be moved. Preparing a statement afterwards throws SQLITE_MISUSE.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    private var isInMemory: Bool {
        path.isEmpty || path == ":memory:" || path.hasPrefix("file::memory:")
    }

    // MARK: - Statements

    /// Prepares a new statement. The SQL must hold exactly one statement.
    public func makeStatement(sql: String) throws -> Statement {
        try prepare(sql: sql, persistent: false)
    }

    /// A statement prepared once and reused for the same SQL. A statement whose step fails is
    /// evicted, so the next call prepares it again.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql: sql, persistent: true)
        statement.failureObserver = self
        statementCache[sql] = statement
        return statement
    }

    /// Finalizes the statements `cachedStatement(sql:)` kept: a connection that outlives many
    /// loads (a batch's) does not keep each load's statements.
    public func releaseCachedStatements() {
        statementCache.removeAll()
    }

    /// True when a statement for this SQL is in the cache (for the tests: `@testable import`).
    func isCached(sql: String) -> Bool {
        statementCache[sql] != nil
    }

    func statementDidFail(_ statement: Statement) {
        if statementCache[statement.sql] === statement {
            statementCache[statement.sql] = nil
        }
    }

    private func prepare(sql: String, persistent: Bool) throws -> Statement {
        let (statementHandle, remainder) = try prepareFirst(of: sql, persistent: persistent)
        guard let statementHandle else {
            throw DatabaseError.misuse("no SQL statement", sql: sql)
        }
        let statement = Statement(handle: statementHandle, sql: sql)
        guard Self.isBlankSQL(remainder) else {
            throw DatabaseError.misuse("only one SQL statement can run at a time", sql: sql)
        }
        return statement
    }

    /// Prepares the first statement of `sql` (nil when it holds only comments) and returns the
    /// text after it. The caller owns the handle and wraps it in a `Statement`.
    private func prepareFirst(of sql: String, persistent: Bool) throws -> (OpaquePointer?, rest: String) {
        guard !isClosed else { throw DatabaseError.misuse("the database is closed", sql: sql) }
        var statementHandle: OpaquePointer?
        var rest = ""
        let code = sql.withCString { start -> Int32 in
            var tail: UnsafePointer<CChar>?
            let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
            let code = sqlite3_prepare_v3(handle, start, -1, flags, &statementHandle, &tail)
            if let tail { rest = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK else {
            throw DatabaseError.lastError(of: handle, code: code, sql: sql)
        }
        return (statementHandle, rest)
    }

    /// True when SQL text holds only white space, `;` and comments.
    static func isBlankSQL(_ sql: String) -> Bool {
        stripComments(sql).allSatisfy { $0.isWhitespace || $0 == ";" }
    }

    private static func stripComments(_ sql: String) -> String {
        var result = ""
        var index = sql.startIndex
        while index < sql.endIndex {
            let rest = sql[index...]
            if rest.hasPrefix("--") {
                index = rest.firstIndex(of: "\n") ?? sql.endIndex
            } else if rest.hasPrefix("/*") {
                index = rest.range(of: "*/").map { $0.upperBound } ?? sql.endIndex
            } else {
                result.append(sql[index])
                index = sql.index(after: index)
            }
        }
        return result
    }

    // MARK: - Executing

    /// Runs one or more `;`-separated statements. Arguments, if any, are bound to the single statement.
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        if !arguments.isEmpty {
            try cachedStatement(sql: sql).execute(arguments)
            return
        }
        var remaining = sql
        while !Self.isBlankSQL(remaining) {
            let (first, rest) = try prepareFirst(of: remaining, persistent: false)
            if let first {
                // Named by its own text, so an error message shows the statement that failed.
                try Statement(handle: first, sql: Self.trimmed(remaining, before: rest)).execute()
            }
            remaining = rest
        }
    }

    private static func trimmed(_ sql: String, before rest: String) -> String {
        String(sql.dropLast(rest.count)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the last inserted row; set to tell whether a statement inserts one (an
    /// upsert that updates leaves it as it was).
    public var lastInsertedRowID: Int64 {
        get { sqlite3_last_insert_rowid(handle) }
        set { sqlite3_set_last_insert_rowid(handle, newValue) }
    }

    // MARK: - Transactions

    /// How a transaction takes its locks.
    public enum TransactionKind: String, Sendable {
        /// Locks are taken by the first read or write.
        case deferred = "DEFERRED"
        /// The write lock is taken at BEGIN, so the transaction never fails half-way for a lock.
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// True while a transaction is open on this connection.
    public var isInsideTransaction: Bool { !isClosed && sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
    ///
    /// ROLLBACK is only issued when SQLite is still inside the transaction (some errors end it
    /// themselves), and the first error is the one thrown.
    public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
            try execute(sql: "COMMIT TRANSACTION")
        } catch {
            rollbackIfNeeded()
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if any, ignoring a failure to do so.
    public func rollbackIfNeeded() {
        if isInsideTransaction {
            try? execute(sql: "ROLLBACK TRANSACTION")
        }
    }

    // MARK: - Tracing

    /// Calls `observer` with the SQL text of every statement as it starts to run, or stops when nil.
    ///
    /// The text is the SQL as written, with `?` placeholders: bound values never appear in it.
    public func trace(_ observer: ((String) -> Void)?) {
        traceObserver?.release()
        traceObserver = nil
        guard let observer else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            return
        }
        let box = Unmanaged.passRetained(TraceObserver(observer))
        traceObserver = box
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, _, sqlText in
            guard let context, let sqlText else { return 0 }
            let observer = Unmanaged<TraceObserver>.fromOpaque(context).takeUnretainedValue()
            observer.callback(String(cString: sqlText.assumingMemoryBound(to: CChar.self)))
            return 0
        }, box.toOpaque())
    }
}

/// Holds a trace callback for SQLite's C trace hook.
private final class TraceObserver {
    let callback: (String) -> Void
    init(_ callback: @escaping (String) -> Void) { self.callback = callback }
}
