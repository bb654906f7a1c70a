import Foundation

/// Reads and writes ISO-8601 timestamps without a `DateFormatter`, so it is fast and thread-safe.
///
/// Accepted: `2015-10-29`, `2015-10-29T13:45`, `2015-10-29T13:45:10`, `2015-10-29 13:45:10.123`,
/// each optionally followed by `Z`, `+02:00`, `+0200` or `+02`. A timestamp without a zone is UTC.
public enum ISO8601Timestamp {
    /// The date a timestamp stands for, or nil when the text is not an ISO-8601 timestamp.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { epochSeconds(utf8: $0) }.map { Date(timeIntervalSince1970: $0) }
    }

    /// The seconds since 1970 a timestamp's UTF-8 text stands for (no zone: UTC), or nil when it
    /// is not an ISO-8601 timestamp. Reads the bytes in place: the load path calls it per cell.
    public static func epochSeconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard startsWithFourDigitYear(bytes) else { return nil }
        return microseconds(utf8: bytes, applyingZone: true).map { Double($0) / 1_000_000 }
    }

    /// True when the text starts `YYYY-`: the years this type reads from data (the exact
    /// reader, `microseconds(utf8:applyingZone:)`, also takes signed and longer ones).
    public static func startsWithFourDigitYear(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 10 && bytes[0] &- UInt8(ascii: "0") < 10 && bytes[4] == UInt8(ascii: "-")
    }

    /// `2015-10-29T12:00:00Z`, with a fraction only when the date has one: milliseconds when it
    /// is whole milliseconds (`.250`), else microseconds (`.437562`), as a load stores
    /// timestamps. A `Date` finer than that (`Date()` has about a tenth of a microsecond) is kept
    /// to the nearest microsecond.
    public static func format(_ date: Date) -> String {
        format(microseconds: Int64((date.timeIntervalSince1970 * 1_000_000).rounded()), zone: true)
    }

    /// The current time, to the second (rounded down): what a load records as its time.
    public static func nowToTheSecond() -> String {
        format(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    /// The millisecond nearest to an instant given in seconds since 1970 (what a fixed
    /// timestamp keeps).
    public static func milliseconds(epochSeconds seconds: Double) -> Int64 {
        Int64((seconds * 1000).rounded())
    }

    /// `format` of an instant given in milliseconds since 1970.
    public static func format(milliseconds: Int64) -> String {
        let fourDigitYear = String(unsafeUninitializedCapacity: longestFourDigitYearText) {
            write(milliseconds: milliseconds, into: $0) ?? 0
        }
        if !fourDigitYear.isEmpty { return fourDigitYear }
        // Outside four-digit years: the slow, general spelling.
        let millisecondPart = Int(((milliseconds % 1000) + 1000) % 1000)
        let totalSeconds = (milliseconds - Int64(millisecondPart)) / 1000
        let days = Int(floorDivide(totalSeconds, 86_400))
        let secondOfDay = Int(totalSeconds - Int64(days) * 86_400)
        let (year, month, day) = civilFromDays(days)
        var text = String(year) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if millisecondPart != 0 { text += "." + pad(millisecondPart, 3) }
        return text + "Z"
    }

    /// The longest text `write(milliseconds:into:)` writes: `9999-12-31T23:59:59.999Z`.
    public static let longestFourDigitYearText = 24

    /// Writes `format(milliseconds:)` as UTF-8 into `buffer` (at least
    /// `longestFourDigitYearText` bytes), without making a String: the hot path of every fixed
    /// timestamp a database stores as text. The count of bytes written; nil for a year outside
    /// 0...9999 (write `format(milliseconds:)` then).
    public static func write(milliseconds: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let (microseconds, overflow) = milliseconds.multipliedReportingOverflow(by: 1000)
        return overflow ? nil : write(microseconds: microseconds, zone: true, into: buffer)
    }

    /// `2014-06-01`: a day given as days since 1970-01-01.
    public static func format(day: Int32) -> String {
        let (year, month, day) = civilFromDays(Int(day))
        return (0...9999).contains(year) ? pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
            : String(year) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// Writes `format(day:)` as UTF-8 into `buffer` (at least 10 bytes); the count written, nil
    /// for a year outside 0...9999 (write `format(day:)` then).
    public static func write(day: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let (year, month, dayOfMonth) = civilFromDays(Int(day))
        guard (0...9999).contains(year), buffer.count >= 10 else { return nil }
        var index = 0
        for (value, width) in [(year, 4), (month, 2), (dayOfMonth, 2)] {
            if index > 0 {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            var divisor = width == 4 ? 1000 : 10
            var remaining = value
            while divisor > 0 {
                buffer[index] = UInt8(ascii: "0") + UInt8(remaining / divisor)
                remaining %= divisor
                divisor /= 10
                index += 1
            }
        }
        return index
    }

    /// Appends `format(Date(timeIntervalSince1970: seconds))` as UTF-8 to `bytes`, without
    /// making a String.
    public static func appendUTF8(epochSeconds seconds: Int64, to bytes: inout [UInt8]) {
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return bytes.append(contentsOf: format(Date(timeIntervalSince1970: Double(seconds))).utf8) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longestFourDigitYearText) { buffer in
            if let count = write(milliseconds: milliseconds, into: buffer) {
                bytes.append(contentsOf: buffer[0..<count])
            } else {
                bytes.append(contentsOf: format(milliseconds: milliseconds).utf8)
            }
        }
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, days since 1970-01-01)

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (negative before it).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// How many days the month has in that year.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
