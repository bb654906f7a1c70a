import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// Values are always bound to statements, never spliced into SQL text. For example:
///
///     try db.execute(sql: "insert into t(name, votes) values (?, ?)", arguments: ["Ann", 42])
public enum DatabaseValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// The storage class name as SQLite's `typeof()` spells it, upper-cased: `NULL`, `INTEGER`, ...
    public var storageClassName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    /// True for SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as the text the logs' readers take: a number's digits, text as it is; nil for
    /// NULL and for a blob.
    public var textValue: String? {
        switch self {
        case .null, .blob: return nil
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return text
        }
    }
}

/// As a person reads it: `NULL`, `42`, `3.5`, `"State"` (quoted, escaped as in Swift), or
/// `<blob of 12 bytes>`.
extension DatabaseValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return String(reflecting: text)
        case .blob(let data): return "<blob of \(data.count) byte\(data.count == 1 ? "" : "s")>"
        }
    }
}

// MARK: - Literals

extension DatabaseValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension DatabaseValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension DatabaseValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension DatabaseValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension DatabaseValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

// MARK: - Conversion from Swift values

/// A Swift value that can be stored in SQLite.
public protocol DatabaseValueConvertible {
    /// The value as it is bound to a statement.
    var databaseValue: DatabaseValue { get }
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
}

extension Substring: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(String(self)) }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
}

extension Double: DatabaseValueConvertible {
    /// NaN has no SQLite representation; it is stored as NULL, as SQLite itself does.
    public var databaseValue: DatabaseValue { isNaN ? .null : .real(self) }
}

extension Float: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { Double(self).databaseValue }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int8: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int16: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int32: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
}

extension UInt8: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension UInt16: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension UInt32: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension UInt: DatabaseValueConvertible {
    /// Values above `Int64.max` do not fit SQLite's integers and are stored as their decimal text.
    public var databaseValue: DatabaseValue {
        Int64(exactly: self).map { .integer($0) } ?? .text(String(self))
    }
}

extension UInt64: DatabaseValueConvertible {
    /// Values above `Int64.max` do not fit SQLite's integers and are stored as their decimal text.
    public var databaseValue: DatabaseValue {
        Int64(exactly: self).map { .integer($0) } ?? .text(String(self))
    }
}

extension Decimal: DatabaseValueConvertible {
    /// Stored as decimal text, so no digit is lost to binary floating point.
    public var databaseValue: DatabaseValue { .text(description) }
}

extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob(self) }
}

extension Date: DatabaseValueConvertible {
    /// Stored as ISO-8601 text in UTC (`2015-10-29T12:00:00Z`), the form Socrata timestamps take.
    public var databaseValue: DatabaseValue { .text(ISO8601Timestamp.format(self)) }
}

extension URL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(absoluteString) }
}

extension UUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(uuidString) }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
}
