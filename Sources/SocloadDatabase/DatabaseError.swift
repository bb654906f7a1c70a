import CSQLite

/// An error reported by SQLite, or a misuse detected before SQLite was called.
///
/// It carries SQLite's extended result code, its message and the SQL being run. Bound values are
/// deliberately left out so that data never leaks into logs. Its description is one stable line:
///
///     SQLite error 1299 (constraint failed): NOT NULL constraint failed: t.x - while executing `INSERT INTO t(x) VALUES (?)`
public struct DatabaseError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SQLite's extended result code, such as 1299 for SQLITE_CONSTRAINT_NOTNULL.
    public let extendedResultCode: Int32
    /// SQLite's message (from `sqlite3_errmsg`), or socload's own for a detected misuse.
    public let message: String
    /// The statement being prepared or run, when there was one.
    public let sql: String?

    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low 8 bits), such as 19 for SQLITE_CONSTRAINT.
    public var resultCode: Int32 { extendedResultCode & 0xff }

    public var description: String {
        var text = "SQLite error \(extendedResultCode)"
        if let meaning = sqlite3_errstr(extendedResultCode).map({ String(cString: $0) }) {
            text += " (\(meaning))"
        }
        text += ": \(message)"
        if let sql {
            text += " - while executing `\(sql)`"
        }
        return text
    }

    /// True when a connection's authorizer refused the statement (SQLITE_AUTH): for a connection
    /// opened with `acceptsChanges = false`, the statement would have changed something.
    /// (SQLite reports some refusals, such as one while a temporary schema changes, under
    /// another code with the authorizer's message.)
    public var isNotAuthorized: Bool { resultCode == SQLITE_AUTH || message == "not authorized" }

    /// True when the statement's arguments do not fit its parameters (count or names).
    public var isArgumentMismatch: Bool { resultCode == SQLITE_RANGE }

    /// True when the statement was stopped by `DatabaseQueue.interrupt()` (SQLITE_INTERRUPT).
    public var isInterrupted: Bool { resultCode == SQLITE_INTERRUPT }

    /// The error for the last failure on a connection.
    static func lastError(of connection: OpaquePointer, code: Int32, sql: String?) -> DatabaseError {
        let message = sqlite3_errmsg(connection).map { String(cString: $0) } ?? "unknown error"
        return DatabaseError(extendedResultCode: code, message: message, sql: sql)
    }

    /// A misuse detected by socload itself, reported as SQLITE_MISUSE.
    /// The arguments do not fit the statement's parameters (SQLITE_RANGE): the caller's mistake.
    static func argumentMismatch(_ message: String, sql: String?) -> DatabaseError {
        DatabaseError(extendedResultCode: SQLITE_RANGE, message: message, sql: sql)
    }

    static func misuse(_ message: String, sql: String?) -> DatabaseError {
        DatabaseError(extendedResultCode: SQLITE_MISUSE, message: message, sql: sql)
    }
}
