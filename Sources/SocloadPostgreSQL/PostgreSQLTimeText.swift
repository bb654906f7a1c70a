import SocloadCore

/// Reads the ISO-8601 text the converter produces for timestamps and dates into PostgreSQL's
/// binary forms: microseconds (timestamp, timestamptz) or days (date) since 2000-01-01.
enum PostgreSQLTimeText {
    /// Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch.
    static let epochDays = 10_957

    /// Microseconds from 1970-01-01 to 2000-01-01.
    static let epochMicroseconds = Int64(epochDays) * 86_400_000_000

    /// Microseconds since 2000-01-01 00:00. A fixed timestamp's zone offset is applied; a
    /// floating one's is ignored, as PostgreSQL's `timestamp` ignores it. Years may have more
    /// than four digits and a sign. Nil when the text is not such a timestamp.
    static func microseconds(_ text: UnsafeBufferPointer<UInt8>, applyingZone: Bool) -> Int64? {
        var scanner = TimeTextScanner(text)
        guard let days = scanner.day() else { return nil }
        var micros = Int64(days - epochDays) * 86_400_000_000
        guard scanner.take("T") || scanner.take("t") || scanner.take(" ") else {
            return scanner.isAtEnd ? micros : nil
        }
        guard let hour = scanner.number(digits: 2), hour < 25, scanner.take(":"),
              let minute = scanner.number(digits: 2), minute < 60 else { return nil }
        var second = 0
        var fraction: Int64 = 0
        if scanner.take(":") {
            guard let value = scanner.number(digits: 2), value < 61 else { return nil }
            second = value
            if scanner.take(".") || scanner.take(",") {
                guard let value = scanner.microsecondFraction() else { return nil }
                fraction = value
            }
        }
        micros += Int64(hour * 3600 + minute * 60 + second) * 1_000_000 + fraction
        guard let offset = scanner.zoneSeconds() else { return nil }
        if applyingZone { micros -= Int64(offset) * 1_000_000 }
        return scanner.isAtEnd ? micros : nil
    }

    /// Days since 2000-01-01 of a `YYYY-MM-DD` date (nil when the text is not one).
    static func days(_ text: UnsafeBufferPointer<UInt8>) -> Int32? {
        var scanner = TimeTextScanner(text)
        guard let days = scanner.day(), scanner.isAtEnd else { return nil }
        return Int32(exactly: days - epochDays)
    }
}

/// Reads the fields of ISO-8601 text.
private struct TimeTextScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<digits {
            let digit = bytes[index + offset] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        index += digits
        return value
    }

    /// `[+-]YYYY[Y...]-MM-DD` as days since 1970-01-01.
    mutating func day() -> Int? {
        let negative = take("-")
        if !negative { _ = take("+") }
        var year = 0
        var yearDigits = 0
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10, yearDigits < 7 {
            year = year * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            yearDigits += 1
            index += 1
        }
        if negative { year = -year }
        guard yearDigits >= 4, take("-"), let month = number(digits: 2), take("-"), let day = number(digits: 2),
              (1...12).contains(month), (1...ISO8601Timestamp.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return ISO8601Timestamp.daysFromCivil(year: year, month: month, day: day)
    }

    /// A fraction of a second's digits as microseconds, rounded half up.
    mutating func microsecondFraction() -> Int64? {
        var value: Int64 = 0
        var digits = 0
        var roundUp = false
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            let digit = Int64(bytes[index] - UInt8(ascii: "0"))
            if digits < 6 {
                value = value * 10 + digit
            } else if digits == 6 {
                roundUp = digit >= 5
            }
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        for _ in digits..<max(digits, 6) { value *= 10 }
        return value + (roundUp ? 1 : 0)
    }

    /// `Z`, `+hh:mm`, `+hhmm`, `+hh` (or nothing) as seconds east of UTC; nil when malformed.
    mutating func zoneSeconds() -> Int? {
        if isAtEnd { return 0 }
        if take("Z") || take("z") { return 0 }
        let sign: Int
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let hours = number(digits: 2), hours < 24 else { return nil }
        var minutes = 0
        if take(":") {
            guard let value = number(digits: 2) else { return nil }
            minutes = value
        } else if let value = number(digits: 2) {
            minutes = value
        }
        guard minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}
