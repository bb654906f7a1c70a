/// A date or timestamp as people write it, read as the period it names: `2014` is all of 2014,
/// `2014-06` all of June 2014, `2014-06-15` that day, `2014-06-15T10:30` that minute,
/// `2014-06-15T10:30:00` that second.
///
/// The bounds are ISO-8601 text in the shortest form, `start` included and `end` excluded, so that
/// they compare correctly as text with every form socload stores: dates (`2014-06-15`), floating
/// timestamps (`2014-06-15T10:30:00`) and fixed ones (`2014-06-15T10:30:00Z`). A fixed timestamp
/// is stored in UTC, so a period given for one is read in UTC; a floating one as written. A space
/// may stand for the `T`, and a trailing `Z` is accepted (the period is the same).
///
///     let june = DatePeriod("2014-06")!        // start "2014-06", end "2014-07"
///     let query = RowFilter.all([.greaterThanOrEqual("day", june.start), .lessThan("day", june.end!)])
public struct DatePeriod: Sendable, Equatable {
    /// The first instant of the period (included).
    public let start: String
    /// The first instant after it (excluded); nil after 9999, where every stored value is below.
    public let end: String?

    /// The forms accepted, for messages.
    public static let forms = "2014, 2014-06, 2014-06-15, 2014-06-15T10:30 or 2014-06-15T10:30:00"

    /// Reads `text`; nil when it is not one of the forms or not a real date (`2014-13-45`, `2014-02-30`).
    public init?(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last == UInt8(ascii: "Z"), bytes.count > 10 { bytes.removeLast() }
        // year, month, day, hour, minute, second: the separator before each, and its digit count.
        let layout: [(separator: UInt8?, digits: Int)] = [
            (nil, 4), (UInt8(ascii: "-"), 2), (UInt8(ascii: "-"), 2), (UInt8(ascii: "T"), 2), (UInt8(ascii: ":"), 2),
            (UInt8(ascii: ":"), 2),
        ]
        var parts: [Int] = []
        var index = 0
        for (separator, digits) in layout where index < bytes.count {
            if let separator {
                let given = bytes[index]
                guard given == separator || (separator == UInt8(ascii: "T") && given == UInt8(ascii: " ")) else { return nil }
                bytes[index] = separator
                index += 1
            }
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + digits)] {
                guard byte &- UInt8(ascii: "0") < 10 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            parts.append(value)
            index += digits
        }
        // A date alone stops after the day; a time needs at least hours and minutes.
        guard index == bytes.count, !parts.isEmpty, parts.count != 4 else { return nil }
        guard Self.isValid(parts) else { return nil }
        start = String(decoding: bytes, as: UTF8.self)
        end = Self.next(after: parts).map(Self.format)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func isValid(_ parts: [Int]) -> Bool {
        let limits: [ClosedRange<Int>] = [0...9999, 1...12, 1...31, 0...23, 0...59, 0...59]
        for (value, limit) in zip(parts, limits) where !limit.contains(value) { return false }
        return parts.count < 3 || parts[2] <= daysIn(month: parts[1], year: parts[0])
    }

    /// The same precision, one step on (carrying into the larger parts); nil past year 9999.
    private static func next(after parts: [Int]) -> [Int]? {
        var parts = parts
        var position = parts.count - 1
        while position >= 0 {
            parts[position] += 1
            let overflow: Bool
            switch position {
            case 0: return parts[0] > 9999 ? nil : parts
            case 1: overflow = parts[1] > 12
            case 2: overflow = parts[2] > daysIn(month: parts[1], year: parts[0])
            case 3: overflow = parts[3] > 23
            default: overflow = parts[position] > 59
            }
            guard overflow else { return parts }
            parts[position] = position == 1 || position == 2 ? 1 : 0
            position -= 1
        }
        return nil
    }

    private static func format(_ parts: [Int]) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = padded(parts[0], 4)
        let separators = ["-", "-", "T", ":", ":"]
        for (part, separator) in zip(parts.dropFirst(), separators) { text += separator + padded(part, 2) }
        return text
    }
}
