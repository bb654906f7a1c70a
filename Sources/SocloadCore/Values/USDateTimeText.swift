/// Dates and times the way Socrata's CSV exports (`rows.csv`) and US spreadsheets write them:
/// `MM/DD/YYYY`, or `MM/DD/YYYY hh:mm[:ss[.fff]]` with `AM`/`PM` (a 12-hour clock) or without (a
/// 24-hour one). Month and day may have one digit (`1/5/2020`). The wall-clock time as written:
/// no zone is read, so a fixed timestamp in this form is taken as UTC.
extension ISO8601Timestamp {
    /// What a US date or date and time is: `.date` for a date alone, `.dateTime` with a time.
    public enum USDateTimeKind: Sendable, Equatable {
        case date, dateTime
    }

    /// Microseconds since 1970-01-01T00:00 of `text` in the US form, with its kind; nil when the
    /// text is not such a date (`13/01/2020`, `02/30/2020` and `00:00 PM` are not).
    public static func usDateTime(utf8 text: UnsafeBufferPointer<UInt8>) -> (microseconds: Int64, kind: USDateTimeKind)? {
        var index = 0
        func take(_ byte: UInt8) -> Bool {
            guard index < text.count, text[index] == byte else { return false }
            index += 1
            return true
        }
        /// One to `most` digits (at least `least`).
        func number(least: Int, most: Int) -> Int? {
            var value = 0
            let start = index
            while index < text.count, index - start < most, text[index] &- UInt8(ascii: "0") < 10 {
                value = value * 10 + Int(text[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return index - start >= least ? value : nil
        }
        let slash = UInt8(ascii: "/"), colon = UInt8(ascii: ":")
        guard text.count >= 8, let month = number(least: 1, most: 2), take(slash), let day = number(least: 1, most: 2),
              take(slash), let year = number(least: 4, most: 4), (1...12).contains(month),
              (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        let midnight = Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400_000_000
        if index == text.count { return (midnight, .date) }
        guard take(UInt8(ascii: " ")) || take(UInt8(ascii: "T")), let clockHour = number(least: 1, most: 2), take(colon),
              let minute = number(least: 2, most: 2), minute < 60 else { return nil }
        var second = 0
        var fraction: Int64 = 0
        if take(colon) {
            guard let value = number(least: 2, most: 2), value < 61 else { return nil }
            second = value
            if take(UInt8(ascii: ".")) {
                let start = index
                var digits: Int64 = 0
                var count = 0
                while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
                    if count < 6 { digits = digits * 10 + Int64(text[index] &- UInt8(ascii: "0")); count += 1 }
                    index += 1
                }
                guard index > start else { return nil }
                for _ in count..<6 { digits *= 10 }
                fraction = digits
            }
        }
        var hour = clockHour
        _ = take(UInt8(ascii: " "))
        if index + 2 == text.count, text[index + 1] | 0x20 == UInt8(ascii: "m") {
            let meridiem = text[index] | 0x20
            guard (1...12).contains(clockHour), meridiem == UInt8(ascii: "a") || meridiem == UInt8(ascii: "p") else { return nil }
            hour = clockHour % 12 + (meridiem == UInt8(ascii: "p") ? 12 : 0)
            index += 2
        }
        guard index == text.count, hour < 24 else { return nil }
        let time = Int64(hour * 3600 + minute * 60 + second) * 1_000_000 + fraction
        return (midnight + time, .dateTime)
    }
}
