import CSQLite
import Foundation

/// A prepared SQLite statement: bind values, step through rows, read columns.
///
/// Statements are made by a `Database` and must be used on the same queue as it.
public final class Statement {
    /// The `sqlite3_stmt*` this statement owns.
    public let handle: OpaquePointer
    /// The SQL text the statement was prepared from.
    public let sql: String
    /// Told when a step fails, so a cached statement in a doubtful state is not reused.
    weak var failureObserver: Database?

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    private var connection: OpaquePointer { sqlite3_db_handle(handle) }

    /// The number of columns in each result row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The result column names, in order.
    public private(set) lazy var columnNames: [String] = (0..<Int32(columnCount)).map { index in
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// True when the statement does not write to the database.
    public var isReadonly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    // MARK: - Binding

    /// Binds arguments to every parameter; the count and names must match the statement's.
    public func bind(_ arguments: StatementArguments) throws {
        var keptAside: [(index: Int32, text: String)]?
        try bind(arguments, keepingLargeTextsAside: &keptAside)
    }

    /// Binds arguments; a text of `largeTextBytes` or more is not bound but put in `keptAside`
    /// when that is not nil, for `withTextsBoundInPlace`.
    private func bind(_ arguments: StatementArguments, keepingLargeTextsAside keptAside: inout [(index: Int32, text: String)]?) throws {
        let count = Int(sqlite3_bind_parameter_count(handle))
        var nextPositional = 0
        for index in stride(from: 1, through: count, by: 1) {
            let value: DatabaseValue
            if let cName = sqlite3_bind_parameter_name(handle, Int32(index)),
               case let name = String(cString: cName), !name.hasPrefix("?") {
                // Keys are accepted with or without the prefix: "x" and ":x" both bind :x.
                let key = String(name.dropFirst())
                guard let namedValue = arguments.named[key] ?? arguments.named[name] else {
                    throw DatabaseError.argumentMismatch("missing value for parameter \(name)", sql: sql)
                }
                value = namedValue
            } else {
                guard nextPositional < arguments.positional.count else {
                    throw DatabaseError.argumentMismatch(
                        "wrong number of arguments: the statement has \(count) parameter(s), "
                            + "\(arguments.positional.count) positional value(s) given", sql: sql)
                }
                value = arguments.positional[nextPositional]
                nextPositional += 1
            }
            if keptAside != nil, case .text(let text) = value, text.utf8.count >= Self.largeTextBytes {
                keptAside?.append((Int32(index), text))
                continue
            }
            try bind(value, at: Int32(index))
        }
        if nextPositional < arguments.positional.count {
            throw DatabaseError.argumentMismatch(
                "wrong number of arguments: the statement has \(count) parameter(s), "
                    + "\(arguments.positional.count) positional value(s) given", sql: sql)
        }
    }

    /// Binds one value to the parameter at a 1-based index.
    public func bind(_ value: DatabaseValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            var text = text
            code = text.withUTF8 { bytes in bindText(bytes, at: index) }
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                // A nil base address would bind NULL; an empty blob must stay an empty blob.
                sqlite3_bind_blob64(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                    sqlite3_uint64(bytes.count), socload_sqlite3_transient())
            }
        }
        try check(code)
    }

    /// Binds UTF-8 text straight from a buffer (SQLite copies it).
    public func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        // A nil base address would bind NULL; empty text must stay empty text.
        let pointer = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(bitPattern: 1)
        return sqlite3_bind_text64(handle, index, pointer?.assumingMemoryBound(to: CChar.self),
                                   sqlite3_uint64(bytes.count), socload_sqlite3_transient(),
                                   UInt8(SQLITE_UTF8))
    }

    /// Resets the statement so it can run again; bindings are kept until rebound.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Clears all bindings back to NULL.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Stepping

    /// Advances to the next row. Returns false when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = DatabaseError.lastError(of: connection, code: code, sql: sql)
            sqlite3_reset(handle)
            failureObserver?.statementDidFail(self)
            throw error
        }
    }

    /// Runs the statement to completion with the given arguments, ignoring any rows.
    ///
    /// A long text (a dataset's description of many megabytes) is bound where it lies rather than
    /// copied, and no binding outlives the call, so a cached statement holds no copy of it.
    public func execute(_ arguments: StatementArguments = []) throws {
        reset()
        var keptAside: [(index: Int32, text: String)]? = []
        defer {
            reset()
            clearBindings()
        }
        try bind(arguments, keepingLargeTextsAside: &keptAside)
        try withTextsBoundInPlace(keptAside?[...] ?? []) {
            while try step() {}
        }
    }

    /// Texts this long are bound in place by `execute`.
    static let largeTextBytes = 1 << 16

    /// Runs `body` with each text bound where its bytes lie (`SQLITE_STATIC`), unbound again
    /// before its bytes can go away.
    private func withTextsBoundInPlace(_ texts: ArraySlice<(index: Int32, text: String)>, _ body: () throws -> Void) throws {
        guard let (index, text) = texts.first else { return try body() }
        var bytesOwner = text
        try bytesOwner.withUTF8 { bytes in
            try check(sqlite3_bind_text64(handle, index, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
                                          sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8)))
            defer { sqlite3_bind_null(handle, index) }
            try withTextsBoundInPlace(texts.dropFirst(), body)
        }
    }

    // MARK: - Columns of the current row

    /// The value of a column of the current row, at a 0-based index.
    public func value(at index: Int) -> DatabaseValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            return .text(text(at: index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    /// All values of the current row.
    public func values() -> [DatabaseValue] {
        (0..<columnCount).map { value(at: $0) }
    }

    /// The text of a column of the current row (NULL reads as empty text).
    public func text(at index: Int) -> String {
        let column = Int32(index)
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError.lastError(of: connection, code: code, sql: sql)
        }
    }
}
