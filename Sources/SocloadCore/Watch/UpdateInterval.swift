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
    /// length of time and the name it is shown by. Matched as whole words in lowercased text
    /// (hyphens and spaces alike).
    static let words: [(String, Double, String)] = [
        ("semi annually", year / 2, "semi-annually"), ("semiannually", year / 2, "semi-annually"),
        ("semi annual", year / 2, "semi-annually"), ("semiannual", year / 2, "semi-annually"),
        ("bi annually", year / 2, "semi-annually"), ("biannually", year / 2, "semi-annually"),
        ("twice a year", year / 2, "semi-annually"), ("twice yearly", year / 2, "semi-annually"),
        ("semi monthly", month / 2, "semi-monthly"), ("semimonthly", month / 2, "semi-monthly"),
        ("twice a month", month / 2, "semi-monthly"), ("twice monthly", month / 2, "semi-monthly"),
        ("twice a week", week / 2, "twice a week"), ("twice weekly", week / 2, "twice a week"),
        ("twice a day", day / 2, "twice a day"), ("twice daily", day / 2, "twice a day"),
        ("bi weekly", 2 * week, "biweekly"), ("biweekly", 2 * week, "biweekly"), ("fortnightly", 2 * week, "biweekly"),
        ("bi monthly", 2 * month, "bimonthly"), ("bimonthly", 2 * month, "bimonthly"),
        ("biennially", 2 * year, "biennially"), ("biennial", 2 * year, "biennially"),
        ("real time", hour, "hourly"), ("realtime", hour, "hourly"), ("hourly", hour, "hourly"), ("nightly", day, "daily"),
        ("daily", day, "daily"), ("weekly", week, "weekly"), ("monthly", month, "monthly"), ("quarterly", 3 * month, "quarterly"),
        ("annually", year, "annually"), ("annual", year, "annually"), ("yearly", year, "annually"),
        ("every hour", hour, "hourly"), ("every day", day, "daily"), ("every week", week, "weekly"), ("every month", month, "monthly"),
        ("every quarter", 3 * month, "quarterly"), ("every year", year, "annually"),
    ]

    /// Units of `every N UNITs` (and `N UNITs`) and their lengths.
    static let units: [(String, Double)] = [("minute", 60), ("hour", hour), ("day", day), ("week", week), ("month", month), ("year", year)]

    /// The longest interval socload reads: a century (a number past it is a typo, not a schedule).
    static let longest = 100 * year

    /// The interval `text` states; nil when it states none.
    public init?(_ text: String) {
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // DCAT's accrualPeriodicity writes a repeating interval: `R/P1W`.
        if trimmed.uppercased().hasPrefix("R/") { trimmed.removeFirst(2) }
        if let duration = Self.isoDuration(trimmed) {
            guard duration.seconds <= Self.longest else { return nil }
            self = duration
            return
        }
        // A negative count (`every -2 days`) is no interval.
        if trimmed.range(of: #"(^|every)\s*-\s*[0-9]"#, options: [.regularExpression, .caseInsensitive]) != nil { return nil }
        let words = Self.words(of: trimmed)
        guard !words.isEmpty else { return nil }
        let spaced = " " + words.joined(separator: " ") + " "
        if let every = Self.everyN(words) {
            self = every
            return
        }
        for (word, seconds, label) in Self.words where spaced.contains(" \(word) ") {
            self.init(seconds: seconds, label: label)
            return
        }
        return nil
    }

    /// The interval `text` is, and nothing else: a word (`weekly`, `twice a month`), `every N
    /// UNITs` or `N UNITs`, or an ISO 8601 duration, as a project's `"expect"` is written (the
    /// portals' free text is read by `init?(_:)`, which finds an interval among other words).
    ///
    ///     UpdateInterval(exactly: "weekly")?.label          // "weekly"
    ///     UpdateInterval(exactly: "weekly, mostly")         // nil
    public init?(exactly text: String) {
        guard let interval = UpdateInterval(text) else { return nil }
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.uppercased().hasPrefix("R/") { trimmed.removeFirst(2) }
        let words = Self.words(of: trimmed)
        let whole = words.joined(separator: " ")
        guard Self.isoDuration(trimmed) != nil || Self.words.contains(where: { $0.0 == whole })
              || (Self.everyN(words) != nil && (words.count == 2 || (words.count == 3 && words[0] == "every"))) else { return nil }
        self = interval
    }

    /// Lowercased words of letters and digits (`Semi-Annually` → `semi`, `annually`).
    static func words(of text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    /// `every 2 weeks`, `every 3 months`: the number and unit after "every"; or a text that is
    /// only a number and a unit (`10 days`).
    private static func everyN(_ words: [String]) -> UpdateInterval? {
        let starts = words.count == 2 ? [-1] : words.indices.dropLast(2).filter { words[$0] == "every" }
        for index in starts {
            guard let count = Int(words[index + 1]), count > 0 else { continue }
            let unit = words[index + 2].hasSuffix("s") ? String(words[index + 2].dropLast()) : words[index + 2]
            if let seconds = units.first(where: { $0.0 == unit })?.1, Double(count) * seconds <= longest {
                return UpdateInterval(seconds: Double(count) * seconds, label: "every \(count) \(unit)\(count == 1 ? "" : "s")")
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
