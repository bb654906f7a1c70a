import SocloadCore

/// Text timestamps and dates (a value that did not come through the converter) in PostgreSQL's
/// binary forms: microseconds (timestamp, timestamptz) or days (date) since 2000-01-01.
enum PostgreSQLTimeText {
    /// Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch.
    static let epochDays = 10_957

    /// Microseconds from 1970-01-01 to 2000-01-01.
    static let epochMicroseconds = Int64(epochDays) * 86_400_000_000

    /// Microseconds since 2000-01-01 00:00 of a timestamp's text (see
    /// `ISO8601Timestamp.microseconds(utf8:applyingZone:)`): a fixed timestamp's zone offset is
    /// applied, a floating one's ignored, as PostgreSQL's `timestamp` ignores it.
    static func microseconds(_ text: UnsafeBufferPointer<UInt8>, applyingZone: Bool) -> Int64? {
        ISO8601Timestamp.microseconds(utf8: text, applyingZone: applyingZone)
            .flatMap { $0.subtractingReportingOverflow(epochMicroseconds).overflow ? nil : $0 - epochMicroseconds }
    }

    /// Days since 2000-01-01 of a `YYYY-MM-DD` date (nil when the text is not one).
    static func days(_ text: UnsafeBufferPointer<UInt8>) -> Int32? {
        ISO8601Timestamp.days(utf8: text).flatMap { Int32(exactly: $0 - epochDays) }
    }
}
