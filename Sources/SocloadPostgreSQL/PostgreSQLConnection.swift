import SocloadCore
import CPostgreSQL
import Foundation

/// One connection to a PostgreSQL server through libpq. Statements are sent with
/// `PQexecParams` (one statement each, values bound as text, never spliced into SQL); rows come
/// back one at a time, so a large result needs no more memory than one row; `COPY ... FROM STDIN`
/// streams bytes in. The session runs in UTC with UTF-8 text.
///
/// Not thread-safe: use it from one thread at a time. `cancel()` alone may be called from any
/// thread (a signal handler's helper, say).
public final class PostgreSQLConnection {
    let handle: OpaquePointer
    private let canceller: PostgreSQLCanceller
    /// True between `beginCopy` and `endCopy` / `abortCopy`.
    public private(set) var isCopying = false
    /// The database connected to, as messages name it: the connection string without its password.
    public let location: String
    /// Told each statement as it is sent (with its `$1` placeholders, never the values):
    /// `SOCLOAD_SQL_LOG`.
    public var statementTrace: ((String) -> Void)?

    /// Connects. `connectionString` is anything libpq takes (a `postgresql://` URI, `key=value`
    /// pairs); `postgres:` alone connects with the PG* environment variables and libpq's defaults.
    /// Failure is a `PostgreSQLError` whose message is libpq's, without the password.
    /// `statementTrace` is told every statement from the first (the session's `SET`s) on.
    public init(_ connectionString: PostgreSQLConnectionString, applicationName: String = "socload",
                statementTrace: ((String) -> Void)? = nil) throws {
        self.statementTrace = statementTrace
        // Key words later in the list override earlier ones: the connection string may set
        // application_name and connect_timeout, but not client_encoding.
        var pairs: [(String, String)] = [("application_name", applicationName)]
        if ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] == nil { pairs.append(("connect_timeout", "15")) }
        if !connectionString.usesEnvironmentOnly { pairs.append(("dbname", connectionString.libpqText)) }
        pairs.append(("client_encoding", "UTF8"))
        let connection = Self.connect(pairs)
        guard let connection else { throw PostgreSQLError(sqlState: nil, message: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.errorMessage(connection)
            PQfinish(connection)
            throw PostgreSQLError(sqlState: nil, message: "cannot connect to \(connectionString.redacted): \(message)")
        }
        handle = connection
        location = connectionString.redacted
        canceller = PostgreSQLCanceller(PQgetCancel(connection))
        // Notices (a NOTICE from a DROP ... IF EXISTS) are not printed over the output.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        do {
            try execute("SET TimeZone = 'UTC'")
            try execute("SET DateStyle = 'ISO, YMD'")
            try execute("SET IntervalStyle = 'iso_8601'")
            try execute("SET extra_float_digits = 3")
        } catch {
            PQfinish(connection)
            throw error
        }
    }

    private static func connect(_ pairs: [(String, String)]) -> OpaquePointer? {
        let keywords = pairs.map { strdup($0.0) } + [nil]
        let values = pairs.map { strdup($0.1) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        return keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordPointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 1)
            }
        }
    }

    deinit {
        PQfinish(handle)
    }

    /// Asks the server to stop the statement or COPY running on this connection; that call then
    /// fails with SQLSTATE 57014. Safe from any thread, and a no-op when nothing runs.
    public func cancel() {
        canceller.cancel()
    }

    /// `cancel()` as a value another thread may hold (a signal handler, a timer) without
    /// holding the connection, which is not `Sendable`.
    public var cancelAction: @Sendable () -> Void {
        let canceller = self.canceller
        return { canceller.cancel() }
    }

    /// True from `cancel()` until `resumeAfterCancel()`: a load checks it between statements,
    /// so a cancel that came while no statement ran is not lost.
    public var isCancelRequested: Bool { canceller.isRequested }

    /// Lets statements run again after `cancel()`.
    public func resumeAfterCancel() {
        canceller.clear()
    }

    // MARK: - Statements

    /// Runs one statement with its parameters (`$1`, `$2`, ... bound as text; nil is NULL) and
    /// returns all its rows. For large results use `query(_:_:row:)`.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgreSQLResult {
        var rows: [[String?]] = []
        let columns = try query(sql, parameters) { row in rows.append(row.values) }
        return PostgreSQLResult(columns: columns, rows: rows)
    }

    /// Runs one statement and calls `row` for each of its rows as it arrives (libpq's single-row
    /// mode). `columns` is called once, before the first row (or at the end when there is
    /// none), for a statement that returns rows. Returns the result's columns (empty for a
    /// statement without rows).
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = [], columns onColumns: ([PostgreSQLColumn]) -> Void = { _ in },
                      row: (PostgreSQLRow) throws -> Void) throws -> [PostgreSQLColumn] {
        guard !isCopying else { throw PostgreSQLError(sqlState: nil, message: "a statement was sent during a COPY", sql: sql) }
        statementTrace?(sql)
        let sent = Self.withParameters(parameters) { values, lengths in
            PQsendQueryParams(handle, sql, Int32(parameters.count), nil, values, lengths, nil, 0)
        }
        guard sent == 1 else { throw connectionError(sql: sql) }
        PQsetSingleRowMode(handle)
        var columns: [PostgreSQLColumn] = []
        var failure: PostgreSQLError?
        var rowError: (any Error)?
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_SINGLE_TUPLE:
                if columns.isEmpty {
                    columns = Self.columns(of: result)
                    onColumns(columns)
                }
                guard failure == nil, rowError == nil else { continue }
                do { try row(PostgreSQLRow(result: result, columns: columns)) } catch {
                    rowError = error
                    cancel()
                }
            case PGRES_TUPLES_OK:
                if columns.isEmpty {
                    columns = Self.columns(of: result)
                    if failure == nil { onColumns(columns) }
                }
            case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                break
            case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
                failure = failure ?? PostgreSQLError(sqlState: "0A000", message: "COPY is not supported here", sql: sql)
                if PQresultStatus(result) == PGRES_COPY_IN { PQputCopyEnd(handle, "not supported") }
                if PQresultStatus(result) == PGRES_COPY_OUT { Self.drainCopyOut(handle) }
            default:
                failure = failure ?? Self.error(of: result, sql: sql)
            }
        }
        if let rowError { throw rowError }
        if let failure { throw failure }
        if PQstatus(handle) != CONNECTION_OK { throw connectionError(sql: sql) }
        return columns
    }

    /// The first column of the first row, or nil (no row, or NULL).
    public func value(_ sql: String, _ parameters: [String?] = []) throws -> String? {
        try execute(sql, parameters).rows.first?.first ?? nil
    }

    private static func drainCopyOut(_ handle: OpaquePointer) {
        var buffer: UnsafeMutablePointer<CChar>?
        while PQgetCopyData(handle, &buffer, 0) > 0 { PQfreemem(buffer) }
    }


    static func columns(of result: OpaquePointer) -> [PostgreSQLColumn] {
        (0..<PQnfields(result)).map { index in
            PostgreSQLColumn(name: String(cString: PQfname(result, index)), typeOID: PQftype(result, index))
        }
    }

    // MARK: - COPY FROM STDIN

    /// Starts `COPY ... FROM STDIN`; then `sendCopyData` as often as needed, then `endCopy`.
    public func beginCopy(_ sql: String) throws {
        guard !isCopying else { throw PostgreSQLError(sqlState: nil, message: "a COPY is already running", sql: sql) }
        statementTrace?(sql)
        guard let result = PQexec(handle, sql) else { throw connectionError(sql: sql) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COPY_IN else {
            throw Self.error(of: result, sql: sql)
        }
        isCopying = true
        copySQL = sql
    }
    private var copySQL = ""

    /// Sends COPY data. When the server has already refused the COPY (it answers during a COPY
    /// only to report an error), the COPY is ended here and its error thrown: an upload stops
    /// at the first bad value, not after the last byte.
    public func sendCopyData(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        let sent = PQputCopyData(handle, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        if sent != 1 || serverHasAnswered() {
            // End the COPY to collect the server's error (or, for a mere notice, its success).
            try endCopy()
            throw PostgreSQLError(sqlState: nil, message: "the server ended the COPY early", sql: copySQL)
        }
    }

    /// True when the server has sent something since the COPY began (an error, in practice).
    private func serverHasAnswered() -> Bool {
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
    }

    /// Ends the COPY and returns how many rows the server took; throws its error if it refused them.
    @discardableResult
    public func endCopy() throws -> Int {
        guard isCopying else { return 0 }
        isCopying = false
        if PQputCopyEnd(handle, nil) != 1 { throw connectionError(sql: copySQL) }
        var failure: PostgreSQLError?
        var rows = 0
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                rows = Int(String(cString: PQcmdTuples(result))) ?? 0
            } else {
                failure = failure ?? Self.error(of: result, sql: nil)
            }
        }
        if let failure { throw failure }
        return rows
    }

    /// Ends the COPY as failed: the server discards what it received, and the transaction is
    /// left in the failed state (roll it, or a savepoint, back).
    public func abortCopy(reason: String) {
        guard isCopying else { return }
        isCopying = false
        PQputCopyEnd(handle, reason)
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    // MARK: - Errors

    private func connectionError(sql: String?) -> PostgreSQLError {
        PostgreSQLError(sqlState: nil, message: Self.errorMessage(handle), sql: sql)
    }

    static func errorMessage(_ connection: OpaquePointer) -> String {
        let text = PQerrorMessage(connection).map { String(cString: $0) } ?? ""
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
        return line.isEmpty ? "the connection failed" : line
    }

    static func error(of result: OpaquePointer, sql: String?) -> PostgreSQLError {
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        let message = field(Int32(UInt8(ascii: "M"))) ?? PQresultErrorMessage(result).map { String(cString: $0) } ?? "unknown error"
        let context = field(Int32(UInt8(ascii: "W")))?.split(whereSeparator: \.isNewline).first.map(String.init)
        return PostgreSQLError(sqlState: field(Int32(UInt8(ascii: "C"))), message: message,
                               detail: field(Int32(UInt8(ascii: "D"))), context: context, sql: sql)
    }
}


/// A result column: its name and its PostgreSQL type (an OID of `pg_type`).
public struct PostgreSQLColumn: Sendable, Equatable {
    public let name: String
    public let typeOID: UInt32
}

/// One row of a result, its values as PostgreSQL's text (nil for NULL).
public struct PostgreSQLRow {
    let result: OpaquePointer
    public let columns: [PostgreSQLColumn]

    public var count: Int { columns.count }

    public subscript(index: Int) -> String? {
        guard PQgetisnull(result, 0, Int32(index)) == 0 else { return nil }
        return String(cString: PQgetvalue(result, 0, Int32(index)))
    }

    public var values: [String?] { (0..<count).map { self[$0] } }
}

/// A whole result: its columns and rows of text values.
public struct PostgreSQLResult: Sendable {
    public let columns: [PostgreSQLColumn]
    public let rows: [[String?]]
}
