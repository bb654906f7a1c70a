/// Timestamps read exactly, in microseconds, and written back: the converter's one reading of
/// every fixed and floating timestamp (`RowBatch.Value.instant` / `.wallClock`), and the text a
/// database that keeps them as text stores.
extension ISO8601Timestamp {
    /// Microseconds since 1970-01-01T00:00 of an ISO-8601 timestamp's UTF-8 text (a date alone
    /// is its midnight). With `applyingZone` a zone offset is applied (no zone: UTC); without,
    /// it is ignored: the wall-clock time as written. Years have four to seven digits and may
    /// carry a sign; a fraction is rounded to the microsecond. Nil when the text is not such a
    /// timestamp or its microseconds do not fit 64 bits.
    public static func microseconds(utf8 text: UnsafeBufferPointer<UInt8>, applyingZone: Bool) -> Int64? {
        var scanner = TimeTextScanner(text)
        guard let days = scanner.day() else { return nil }
        let (midnight, overflow) = Int64(days).multipliedReportingOverflow(by: 86_400_000_000)
        guard !overflow else { return nil }
        guard scanner.take("T") || scanner.take("t") || scanner.take(" ") else {
            return scanner.isAtEnd ? midnight : nil
        }
        guard let hour = scanner.number(digits: 2), hour < 24, scanner.take(":"),
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
        var time = Int64(hour * 3600 + minute * 60 + second) * 1_000_000 + fraction
        guard let offset = scanner.zoneSeconds(), scanner.isAtEnd else { return nil }
        if applyingZone { time -= Int64(offset) * 1_000_000 }
        let (micros, overflowed) = midnight.addingReportingOverflow(time)
        return overflowed ? nil : micros
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` date (the same years as `microseconds`).
    public static func days(utf8 text: UnsafeBufferPointer<UInt8>) -> Int? {
        var scanner = TimeTextScanner(text)
        guard let days = scanner.day(), scanner.isAtEnd else { return nil }
        return days
    }

    /// The longest text `write(microseconds:zone:into:)` writes: `9999-12-31T23:59:59.999999Z`.
    public static let longestMicrosecondText = 27

    /// `2015-10-29T12:00:00Z` (`zone`: a fixed timestamp) or `2015-10-29T12:00:00` (a floating
    /// one), with `.sss` when the time has milliseconds and `.ssssss` when it has microseconds.
    public static func format(microseconds: Int64, zone: Bool) -> String {
        let fourDigitYear = String(unsafeUninitializedCapacity: longestMicrosecondText) {
            write(microseconds: microseconds, zone: zone, into: $0) ?? 0
        }
        if !fourDigitYear.isEmpty { return fourDigitYear }
        let (seconds, fraction) = split(microseconds)
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = civilFromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = String(year) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fraction != 0 { text += fraction % 1000 == 0 ? "." + pad(fraction / 1000, 3) : "." + pad(fraction, 6) }
        return zone ? text + "Z" : text
    }

    /// Writes `format(microseconds:zone:)` as UTF-8 into `buffer` (`longestMicrosecondText`
    /// bytes hold any; a time with at most milliseconds needs `longestFourDigitYearText`)
    /// without making a String; the count written, nil for a year outside 0...9999 or a buffer
    /// too short (use `format` then).
    public static func write(microseconds: Int64, zone: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let (seconds, fraction) = split(microseconds)
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = civilFromDays(days)
        let needed = 19 + (fraction == 0 ? 0 : fraction % 1000 == 0 ? 4 : 7) + (zone ? 1 : 0)
        guard (0...9999).contains(year), buffer.count >= needed else { return nil }
        var index = 0
        func put(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var remaining = value
            while divisor > 0 {
                buffer[index] = UInt8(ascii: "0") + UInt8(remaining / divisor)
                remaining %= divisor
                divisor /= 10
                index += 1
            }
        }
        func put(_ byte: Unicode.Scalar) {
            buffer[index] = UInt8(ascii: byte)
            index += 1
        }
        put(year, 4); put("-"); put(month, 2); put("-"); put(day, 2); put("T")
        put(secondOfDay / 3600, 2); put(":"); put(secondOfDay / 60 % 60, 2); put(":"); put(secondOfDay % 60, 2)
        if fraction != 0 {
            put(".")
            if fraction % 1000 == 0 { put(fraction / 1000, 3) } else { put(fraction, 6) }
        }
        if zone { put("Z") }
        return index
    }

    /// Whole seconds (rounded down) and the microseconds past them.
    private static func split(_ microseconds: Int64) -> (seconds: Int64, fraction: Int) {
        let fraction = ((microseconds % 1_000_000) + 1_000_000) % 1_000_000
        return ((microseconds - fraction) / 1_000_000, Int(fraction))
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
