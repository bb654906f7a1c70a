import Foundation

/// How often a dataset is expected to change: a length of time and how it was said.
///
/// Read from the words people write for it (`hourly`, `daily`, `weekly`, `every 2 weeks`,
/// `monthly`, `quarterly`, `semi-annually`, `annually` and their usual variants, also inside a
/// sentence such as "Data are updated daily") or from an ISO 8601 duration (`P1D`, `PT6H`,
/// `P3M`, `P1Y2M`). A month counts 30.44 days and a year 365.25, the averages of the calendar.
///
///     let interval = UpdateInterval("Data are updated quarterly")!
///     print(interval.label, interval.seconds)   // quarterly 7889238.0
///
/// Words that promise no schedule ("as needed", "historical", "one time", "manual post") hold
/// none of these: `init` answers nil, and the dataset's watch says `unknown`.
public struct UpdateInterval: Sendable, Equatable, Codable {
    /// The length of time, in seconds.
    public let seconds: Double
    /// How it reads in a table: the word matched (`daily`), or the duration as written (`P3D`).
    public let label: String

    public init(seconds: Double, label: String) {
        self.seconds = seconds
        self.label = label
    }

    static let hour = 3_600.0
    static let day = 86_400.0
    static let week = 7 * day
    static let month = 30.436_875 * day
    static let year = 365.25 * day

    /// The words, longest first so that `semi-annually` is not read as `annually`, each with its
    /// length of time. Matched as whole words in lowercased text (hyphens and spaces alike).
    static let words: [(String, Double)] = [
        ("semi annually", year / 2), ("semiannually", year / 2), ("semi annual", year / 2), ("semiannual", year / 2),
        ("bi annually", year / 2), ("biannually", year / 2), ("twice a year", year / 2), ("twice yearly", year / 2),
        ("semi monthly", month / 2), ("semimonthly", month / 2), ("twice a month", month / 2), ("twice monthly", month / 2),
        ("bi weekly", 2 * week), ("biweekly", 2 * week), ("fortnightly", 2 * week),
        ("bi monthly", 2 * month), ("bimonthly", 2 * month), ("biennially", 2 * year), ("biennial", 2 * year),
        ("real time", hour), ("realtime", hour), ("hourly", hour), ("nightly", day), ("daily", day), ("weekly", week),
        ("monthly", month), ("quarterly", 3 * month), ("annually", year), ("annual", year), ("yearly", year),
        ("every hour", hour), ("every day", day), ("every week", week), ("every month", month), ("every quarter", 3 * month),
        ("every year", year),
    ]

    /// Units of `every N UNITs` and their lengths.
    static let units: [(String, Double)] = [("hour", hour), ("day", day), ("week", week), ("month", month), ("year", year)]

    /// The interval `text` states; nil when it states none (or says no schedule is kept).
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let duration = Self.isoDuration(trimmed) {
            self = duration
            return
        }
        let words = Self.words(of: trimmed)
        guard !words.isEmpty else { return nil }
        let spaced = " " + words.joined(separator: " ") + " "
        if let every = Self.everyN(words) {
            self = every
            return
        }
        for (word, seconds) in Self.words where spaced.contains(" \(word) ") {
            self.init(seconds: seconds, label: word.replacingOccurrences(of: " ", with: "-"))
            return
        }
        return nil
    }

    /// Lowercased words of letters and digits (`Semi-Annually` → `semi`, `annually`).
    static func words(of text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    /// `every 2 weeks`, `every 3 months`: the number and unit after "every".
    private static func everyN(_ words: [String]) -> UpdateInterval? {
        for index in words.indices.dropLast(2) where words[index] == "every" {
            guard let count = Int(words[index + 1]), count > 0, count < 1_000 else { continue }
            let unit = words[index + 2].hasSuffix("s") ? String(words[index + 2].dropLast()) : words[index + 2]
            if let seconds = units.first(where: { $0.0 == unit })?.1 {
                return UpdateInterval(seconds: Double(count) * seconds, label: "every \(count) \(unit)s")
            }
        }
        return nil
    }

    /// `PnYnMnWnDTnHnMnS` (at least one part; `T` before the time parts), as in ISO 8601.
    static func isoDuration(_ text: String) -> UpdateInterval? {
        let upper = text.uppercased()
        guard upper.hasPrefix("P"), upper.count > 1 else { return nil }
        var seconds = 0.0
        var number = ""
        var inTime = false
        var parts = 0
        var partsBeforeTime = 0
        for character in upper.dropFirst() {
            if character.isNumber || character == "." || character == "," {
                number.append(character == "," ? "." : character)
                continue
            }
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                partsBeforeTime = parts
                continue
            }
            guard let value = Double(number), value >= 0 else { return nil }
            let unit: Double
            switch (character, inTime) {
            case ("Y", false): unit = year
            case ("M", false): unit = month
            case ("W", false): unit = week
            case ("D", false): unit = day
            case ("H", true): unit = hour
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            seconds += value * unit
            number = ""
            parts += 1
        }
        guard number.isEmpty, parts > 0, seconds > 0, !inTime || parts > partsBeforeTime else { return nil }
        return UpdateInterval(seconds: seconds, label: upper)
    }
}
