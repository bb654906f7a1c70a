import Foundation

/// Where a value being decoded came from, for error messages.
package struct ColumnContext {
    package let column: String
    package let row: Int

    package init(column: String, row: Int) {
        self.column = column
        self.row = row
    }
}

/// Turns one stored value into a Swift value, for the types that have a direct SQLite meaning.
package enum ColumnValueDecoding {
    /// The value decoded as `T` when `T` is a type with a direct SQLite meaning (String, numbers,
    /// Bool, Date, ...); nil when `T` is some other type, to be decoded through its `init(from:)`.
    package static func decodeIfBuiltIn<T>(_ type: T.Type, from value: DatabaseValue, context: ColumnContext) throws -> T? {
        switch type {
        case is String.Type: return try string(value, context) as? T
        case is Int.Type: return try integer(Int.self, value, context) as? T
        case is Int8.Type: return try integer(Int8.self, value, context) as? T
        case is Int16.Type: return try integer(Int16.self, value, context) as? T
        case is Int32.Type: return try integer(Int32.self, value, context) as? T
        case is Int64.Type: return try integer(Int64.self, value, context) as? T
        case is UInt.Type: return try integer(UInt.self, value, context) as? T
        case is UInt8.Type: return try integer(UInt8.self, value, context) as? T
        case is UInt16.Type: return try integer(UInt16.self, value, context) as? T
        case is UInt32.Type: return try integer(UInt32.self, value, context) as? T
        case is UInt64.Type: return try integer(UInt64.self, value, context) as? T
        case is Double.Type: return try double(value, context) as? T
        case is Float.Type: return try Float(double(value, context)) as? T
        case is Bool.Type: return try bool(value, context) as? T
        case is Decimal.Type: return try decimal(value, context) as? T
        case is Date.Type: return try date(value, context) as? T
        case is URL.Type: return try url(value, context) as? T
        case is UUID.Type: return try uuid(value, context) as? T
        case is Data.Type: return try data(value, context) as? T
        case is DatabaseValue.Type: return value as? T
        default: return nil
        }
    }

    package static func mismatch<T>(_ value: DatabaseValue, _ type: T.Type, _ context: ColumnContext,
                            _ detail: String? = nil) -> RowDecodingError {
        .typeMismatch(column: context.column, row: context.row, storedType: value.storageClassName,
                      swiftType: String(describing: type), detail: detail)
    }

    static func string(_ value: DatabaseValue, _ context: ColumnContext) throws -> String {
        guard case .text(let text) = value else { throw mismatch(value, String.self, context) }
        return text
    }

    static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: DatabaseValue,
                                              _ context: ColumnContext) throws -> I {
        switch value {
        case .integer(let integer):
            guard let result = I(exactly: integer) else {
                throw RowDecodingError.integerOverflow(column: context.column, row: context.row,
                                                       value: String(integer), swiftType: String(describing: type))
            }
            return result
        case .real(let real) where real.rounded() == real:
            guard let result = I(exactly: real) else {
                throw RowDecodingError.integerOverflow(column: context.column, row: context.row,
                                                       value: String(real), swiftType: String(describing: type))
            }
            return result
        case .real:
            throw mismatch(value, type, context, "not a whole number")
        default:
            throw mismatch(value, type, context)
        }
    }

    static func double(_ value: DatabaseValue, _ context: ColumnContext) throws -> Double {
        switch value {
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        default: throw mismatch(value, Double.self, context)
        }
    }

    static func bool(_ value: DatabaseValue, _ context: ColumnContext) throws -> Bool {
        switch value {
        case .integer(0): return false
        case .integer(1): return true
        case .integer(let other): throw mismatch(value, Bool.self, context, "\(other) is neither 0 nor 1")
        default: throw mismatch(value, Bool.self, context)
        }
    }

    static func decimal(_ value: DatabaseValue, _ context: ColumnContext) throws -> Decimal {
        switch value {
        case .integer(let integer):
            return Decimal(integer)
        case .real(let real):
            // Through the shortest decimal text of the double, so 0.1 stays 0.1.
            guard let decimal = Decimal(string: String(real)) else { throw mismatch(value, Decimal.self, context) }
            return decimal
        case .text(let text):
            guard isDecimalNumber(text), let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            else { throw mismatch(value, Decimal.self, context, "not a decimal number") }
            return decimal
        default:
            throw mismatch(value, Decimal.self, context)
        }
    }

    /// `-12`, `3.5`, `.5`, `1e10`: the whole text is a decimal number.
    static func isDecimalNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in (48...57).contains(byte) }
        let integerDigits = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(integerDigits)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let exponentDigits = bytes.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return false }
            bytes = bytes.dropFirst(exponentDigits)
        }
        return bytes.isEmpty
    }

    static func date(_ value: DatabaseValue, _ context: ColumnContext) throws -> Date {
        switch value {
        case .integer(let seconds): return Date(timeIntervalSince1970: Double(seconds))
        case .real(let seconds): return Date(timeIntervalSince1970: seconds)
        case .text(let text):
            guard let date = ISO8601Timestamp.parse(text) else {
                throw mismatch(value, Date.self, context, "not an ISO-8601 date")
            }
            return date
        default:
            throw mismatch(value, Date.self, context)
        }
    }

    static func url(_ value: DatabaseValue, _ context: ColumnContext) throws -> URL {
        guard case .text(let text) = value else { throw mismatch(value, URL.self, context) }
        guard let url = URL(string: text) else { throw mismatch(value, URL.self, context, "not a URL") }
        return url
    }

    static func uuid(_ value: DatabaseValue, _ context: ColumnContext) throws -> UUID {
        switch value {
        case .text(let text):
            guard let uuid = UUID(uuidString: text) else { throw mismatch(value, UUID.self, context, "not a UUID") }
            return uuid
        case .blob(let data) where data.count == 16:
            let b = Array(data)
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                               b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        default:
            throw mismatch(value, UUID.self, context)
        }
    }

    static func data(_ value: DatabaseValue, _ context: ColumnContext) throws -> Data {
        guard case .blob(let data) = value else { throw mismatch(value, Data.self, context) }
        return data
    }

    /// A nested Decodable value stored as JSON text (or a JSON blob).
    static func json<T: Decodable>(_ type: T.Type, from value: DatabaseValue, context: ColumnContext) throws -> T {
        let bytes: Data
        switch value {
        case .text(let text): bytes = Data(text.utf8)
        case .blob(let data): bytes = data
        default: throw mismatch(value, type, context, "expected JSON text")
        }
        do {
            return try JSONDecoder().decode(type, from: bytes)
        } catch {
            throw mismatch(value, type, context, "invalid JSON for this type")
        }
    }
}
