import Foundation

/// One row of a result as the database holds it, each value read in place (a text's bytes
/// without a `String` made of them): what a reader of many rows (`socload export`) scans with
/// `LoadedDatabase.scan`. Valid only inside the call that gives it.
public protocol ResultRow {
    var count: Int { get }
    func kind(_ column: Int) -> ResultValueKind
    func integer(_ column: Int) -> Int64
    func real(_ column: Int) -> Double
    /// The UTF-8 bytes of a text (a blob's bytes), valid during `body`.
    func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

/// What a value of a `ResultRow` is.
public enum ResultValueKind: Sendable, Equatable {
    case null, integer, real, text, blob
}

/// A row read as `DatabaseValue`s, as a `ResultRow` (the scan of a database without one of its own).
public struct DatabaseValueRow: ResultRow {
    public var values: [DatabaseValue]

    public init(_ values: [DatabaseValue]) {
        self.values = values
    }

    public var count: Int { values.count }

    public func kind(_ column: Int) -> ResultValueKind {
        switch values[column] {
        case .null: return .null
        case .integer: return .integer
        case .real: return .real
        case .text: return .text
        case .blob: return .blob
        }
    }

    public func integer(_ column: Int) -> Int64 {
        if case .integer(let value) = values[column] { return value }
        return 0
    }

    public func real(_ column: Int) -> Double {
        if case .real(let value) = values[column] { return value }
        return 0
    }

    public func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch values[column] {
        case .text(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .blob(let data): return try data.withUnsafeBytes(body)
        default: return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }
}

extension ResultRow {
    /// The value as a `DatabaseValue` (for messages and slow paths).
    public func value(_ column: Int) -> DatabaseValue {
        switch kind(column) {
        case .null: return .null
        case .integer: return .integer(integer(column))
        case .real: return .real(real(column))
        case .text: return .text(withBytes(column) { String(decoding: $0, as: UTF8.self) })
        case .blob: return .blob(withBytes(column) { Data($0) })
        }
    }
}

extension LoadedDatabase {
    public func scan(_ statement: SQLFragment, row: (any ResultRow) throws -> Void) throws {
        try read(statement, columns: { _ in }) { values in try row(DatabaseValueRow(values)) }
    }
}
