import SocloadCore
import CSQLite
import SocloadDatabase

/// Binds one row of a `RowBatch` to a prepared statement's parameters 1...N, text straight from
/// the batch's arena (SQLITE_STATIC: the arena must outlive the step, and nothing may keep
/// pointing into it afterwards — call `statement.clearBindings()` before the batch goes).
enum SQLiteBatchBinder {
    static func bind(_ batch: RowBatch, row: Int, arena: UnsafeBufferPointer<UInt8>, to statement: Statement) throws {
        let first = row * batch.columnCount
        for column in 0..<batch.columnCount {
            try bind(batch.values[first + column], of: batch, arena: arena, at: Int32(column + 1), to: statement)
        }
    }

    /// Binds one value of `batch` to parameter `parameter`.
    static func bind(_ value: RowBatch.Value, of batch: RowBatch, arena: UnsafeBufferPointer<UInt8>, at parameter: Int32,
                     to statement: Statement) throws {
        let handle = statement.handle
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, parameter)
        case .integer(let value): code = sqlite3_bind_int64(handle, parameter, value)
        case .real(let value): code = sqlite3_bind_double(handle, parameter, value)
        case let .text(offset, length), let .json(offset, length):
            code = bindText(handle, parameter, arena, offset, length)
        case let .decimal(offset, length):
            // NUMERIC affinity: an integer when the digits are whole, else a double.
            switch batch.numericValue(ofDecimalAt: offset, length: length) {
            case .integer(let value): code = sqlite3_bind_int64(handle, parameter, value)
            case .real(let value) where value.isFinite: code = sqlite3_bind_double(handle, parameter, value)
            default: code = sqlite3_bind_null(handle, parameter)
            }
        case .scaledDecimal(let decimal):
            // NUMERIC affinity, as for digits: an integer when whole, else a double.
            code = decimal.scale == 0 ? sqlite3_bind_int64(handle, parameter, decimal.units)
                : sqlite3_bind_double(handle, parameter, decimal.double)
        case .instant(let microseconds):
            code = bindTimestamp(handle, parameter, microseconds, zone: true)
        case .wallClock(let microseconds):
            code = bindTimestamp(handle, parameter, microseconds, zone: false)
        case .day(let day):
            code = bindDay(handle, parameter, day)
        }
        if code != SQLITE_OK { throw DatabaseError(extendedResultCode: code, message: "cannot bind a value", sql: statement.sql) }
    }

    /// A timestamp as the ISO-8601 text SQLite keeps: fixed with a `Z` (`2015-01-01T01:00:00Z`),
    /// floating without (`2015-01-01T01:00:00`).
    private static func bindTimestamp(_ handle: OpaquePointer, _ parameter: Int32, _ microseconds: Int64, zone: Bool) -> Int32 {
        bindWritten(handle, parameter, capacity: ISO8601Timestamp.longestMicrosecondText,
                    write: { ISO8601Timestamp.write(microseconds: microseconds, zone: zone, into: $0) },
                    otherwise: { ISO8601Timestamp.format(microseconds: microseconds, zone: zone) })
    }

    /// A date as the `YYYY-MM-DD` text SQLite keeps.
    private static func bindDay(_ handle: OpaquePointer, _ parameter: Int32, _ day: Int32) -> Int32 {
        bindWritten(handle, parameter, capacity: 10, write: { ISO8601Timestamp.write(day: day, into: $0) },
                    otherwise: { ISO8601Timestamp.format(day: day) })
    }

    /// Text that `write` puts on the stack (its count; nil: use `otherwise`), copied by SQLite.
    private static func bindWritten(_ handle: OpaquePointer, _ parameter: Int32, capacity: Int,
                                    write: (UnsafeMutableBufferPointer<UInt8>) -> Int?, otherwise: () -> String) -> Int32 {
        func bind(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            bytes.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text64(handle, parameter, chars.baseAddress, sqlite3_uint64(chars.count), socload_sqlite3_transient(),
                                    UInt8(SQLITE_UTF8))
            }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            if let count = write(buffer) { return bind(UnsafeBufferPointer(rebasing: buffer[0..<count])) }
            var text = otherwise()
            return text.withUTF8(bind)
        }
    }

    private static func bindText(_ handle: OpaquePointer, _ parameter: Int32, _ arena: UnsafeBufferPointer<UInt8>,
                                 _ offset: Int32, _ length: Int32) -> Int32 {
        // An empty arena has no base address; SQLite needs a non-null pointer for "" (not NULL),
        // and reads none of its bytes.
        let base = arena.baseAddress.map { UnsafeRawPointer($0 + Int(offset)) } ?? UnsafeRawPointer(bitPattern: 1)!
        return sqlite3_bind_text64(handle, parameter, base.assumingMemoryBound(to: CChar.self), sqlite3_uint64(length),
                                   socload_sqlite3_static(), UInt8(SQLITE_UTF8))
    }

    /// Runs `statement` once per row of `batch`; a constraint failure names the row. `stepped`
    /// runs after each row's step, with the row (to read what the step did).
    /// `geometry` binds the parameter after the batch's columns (a GeoPackage's geometry).
    static func run(_ statement: Statement, over batch: RowBatch, geometry: SQLiteGeometryBinder? = nil,
                    stepped: ((Int) throws -> Void)? = nil) throws {
        let geometryParameter = Int32(batch.columnCount + 1)
        try runEachRow(statement, of: batch, binding: { row, arena in
            statement.reset()
            try bind(batch, row: row, arena: arena, to: statement)
            try geometry?.bind(row: row, of: batch, arena: arena, at: geometryParameter, to: statement)
        }, stepped: stepped)
    }

    /// Runs `statement` once per row of `batch`, reset and bound by `binding(row, arena)`; a
    /// constraint failure names the row.
    static func runEachRow(_ statement: Statement, of batch: RowBatch,
                           binding: (Int, UnsafeBufferPointer<UInt8>) throws -> Void,
                           stepped: ((Int) throws -> Void)? = nil) throws {
        try batch.arena.withUnsafeBufferPointer { arena in
            defer {
                // Nothing may keep pointing into the arena once it is released.
                statement.reset()
                statement.clearBindings()
            }
            for row in 0..<batch.rowCount {
                try binding(row, arena)
                do {
                    _ = try statement.step()
                } catch let error as DatabaseError where error.resultCode == SQLITE_CONSTRAINT {
                    throw LoadError.constraint(row: batch.firstRowNumber + row, message: error.message)
                }
                try stepped?(row)
            }
        }
    }
}
