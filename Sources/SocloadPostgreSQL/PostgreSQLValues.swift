import SocloadCore

/// PostgreSQL's text form of a result value, read into the `DatabaseValue` a SQLite database
/// would give for the same cell, so `query` and `select` print the same on both: whole numbers
/// as integers, booleans as 1 and 0, floating-point and decimal numbers as numbers (a whole
/// `numeric`, `59.0` too, as an integer; one of more digits than a double keeps as its text), fixed timestamps as ISO-8601 UTC with `Z`, floating ones with `T`.
public enum PostgreSQLValues {
    /// Type OIDs of `pg_type`.
    static let bool: UInt32 = 16, int8: UInt32 = 20, int2: UInt32 = 21, int4: UInt32 = 23, oid: UInt32 = 26
    static let float4: UInt32 = 700, float8: UInt32 = 701, numeric: UInt32 = 1700
    static let timestamp: UInt32 = 1114, timestamptz: UInt32 = 1184

    public static func databaseValue(_ text: String?, typeOID: UInt32) -> DatabaseValue {
        guard let text else { return .null }
        switch typeOID {
        case bool: return .integer(text == "t" ? 1 : 0)
        case int2, int4, int8, oid: return Int64(text).map(DatabaseValue.integer) ?? .text(text)
        case float4, float8: return Double(text).map(DatabaseValue.real) ?? .text(text)
        case numeric:
            // As SQLite's NUMERIC affinity stores it: `59.0` is the integer 59.
            let whole = text.split(separator: ".", maxSplits: 1)
            if whole.count == 1 || whole[1].allSatisfy({ $0 == "0" }), let integer = Int64(whole[0]) { return .integer(integer) }
            // A numeric of more digits than a double holds is read as its digits, never rounded.
            guard let real = Double(text), real.isFinite,
                  Array(text.utf8).withUnsafeBufferPointer({ DecimalText.roundTrips($0, as: real) }) else { return .text(text) }
            return .real(real)
        case timestamptz: return .text(isoTimestamp(text, fixed: true))
        case timestamp: return .text(isoTimestamp(text, fixed: false))
        default: return .text(text)
        }
    }

    /// `2015-01-01 01:00:00.5+00` → `2015-01-01T01:00:00.500Z` (the session runs in UTC); a
    /// floating `2015-01-01 01:00:00` → `2015-01-01T01:00:00`. Other forms (BC years) as given.
    static func isoTimestamp(_ text: String, fixed: Bool) -> String {
        guard text.count >= 19, !text.hasSuffix(" BC") else { return text }
        var value = text.replacingOccurrences(of: " ", with: "T")
        if fixed {
            guard value.hasSuffix("+00") else { return text }
            value.removeLast(3)
        }
        if let dot = value.firstIndex(of: ".") {
            let fraction = value[value.index(after: dot)...]
            if fraction.count < 3 { value += String(repeating: "0", count: 3 - fraction.count) }
        }
        return fixed ? value + "Z" : value
    }
}
