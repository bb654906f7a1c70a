import Foundation

/// Whether a dataset still keeps its schedule: the `watch` of `socload status` and `refresh`.
///
/// - `fresh`: the portal changed its rows within the expected interval (1.5 times it, plus a day).
/// - `stale`: it did not: the portal's `rowsUpdatedAt` is older than that.
/// - `gone`: a dataset loaded before now answers 404 or 410 (its table is kept).
/// - `moved`: gone, and the catalog lists a dataset of the same name and publisher under another
///   id (`movedTo`: a suggestion, never followed by itself).
/// - `unknown`: no interval is known (none in the project, none stated, too few updates seen),
///   or the source states no `rowsUpdatedAt`.
///
///     let watch = DatasetWatch.judge(expected: .init(interval: UpdateInterval("daily")!, source: .project),
///                                    portalRowsUpdatedAt: Date(timeIntervalSince1970: 0), now: Date())
///     print(watch.state)   // stale
public struct DatasetWatch: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable, CaseIterable {
        case fresh, stale, gone, moved, unknown
    }

    /// Where the expected interval came from: the project entry's `"expect"`, what the portal
    /// states, or the usual gap between the portal's updates in the refresh log.
    public enum Source: String, Sendable, Codable {
        case project, portal, log
    }

    /// An expected interval and where it came from.
    public struct Expectation: Sendable, Equatable, Codable {
        public var interval: UpdateInterval
        public var source: Source

        public init(interval: UpdateInterval, source: Source) {
            self.interval = interval
            self.source = source
        }

        /// `daily (portal)`.
        public var text: String { "\(interval.label) (\(source.rawValue))" }

        /// The first known of: `expected` (a project entry's), the interval the portal states
        /// (`stated`, as it wrote it), the usual gap between the `rowsUpdatedAt` its loads
        /// recorded (`stamps`, asked for only when the others say nothing).
        public static func first(expected: UpdateInterval?, stated: String?, stamps: () -> [String]) -> Expectation? {
            if let expected { return Expectation(interval: expected, source: .project) }
            if let interval = stated.flatMap { UpdateInterval($0) } { return Expectation(interval: interval, source: .portal) }
            if let learned = LearnedUpdateInterval.from(stamps: stamps()) { return Expectation(interval: learned, source: .log) }
            return nil
        }
    }

    public var state: State
    public var expected: Expectation?
    /// Other ids the catalog lists under the same name and publisher, for a dataset `moved`.
    public var movedTo: [String] = []
    /// Why, in words: how old the portal's last change is against the interval, or what the
    /// portal answered.
    public var note: String?

    public init(state: State, expected: Expectation? = nil, movedTo: [String] = [], note: String? = nil) {
        self.state = state
        self.expected = expected
        self.movedTo = movedTo
        self.note = note
    }

    /// Past this age the rows are stale: 1.5 times the interval, plus a day.
    public static func staleAfter(_ interval: UpdateInterval) -> Double { 1.5 * interval.seconds + UpdateInterval.day }

    /// `fresh`, `stale` or `unknown` for a dataset the portal still serves.
    public static func judge(expected: Expectation?, portalRowsUpdatedAt: Date?, now: Date) -> DatasetWatch {
        guard let updated = portalRowsUpdatedAt else {
            return DatasetWatch(state: .unknown, expected: expected, note: "the source states no time its data last changed (rowsUpdatedAt) to judge by")
        }
        guard let expected else {
            return DatasetWatch(state: .unknown, note: "no update interval known (give the entry an \"expect\")")
        }
        let age = now.timeIntervalSince(updated)
        let limit = staleAfter(expected.interval)
        guard age > limit else { return DatasetWatch(state: .fresh, expected: expected) }
        // Both lengths in the unit the limit reads best in, so the note never says "1 month ago,
        // stale after 46 days".
        let unit = Self.unit(for: limit)
        return DatasetWatch(state: .stale, expected: expected,
                            note: "the portal last changed its rows \(ISO8601Timestamp.format(updated)) (\(Self.span(age, in: unit, rounding: .toNearestOrAwayFromZero)) ago); "
                                + "expected \(expected.text), stale after \(Self.span(limit, in: unit))")
    }

    /// `gone` (or `moved`, when `candidates` is not empty) for a loaded dataset the portal no
    /// longer serves; `answer` is what it said (`HTTP 404 Not Found`).
    public static func gone(answer: String, candidates: [String], expected: Expectation?) -> DatasetWatch {
        let kept = "the portal answers \(answer); the table is kept"
        guard !candidates.isEmpty else { return DatasetWatch(state: .gone, expected: expected, note: kept) }
        return DatasetWatch(state: .moved, expected: expected, movedTo: candidates,
                            note: kept + "; the catalog lists the same name and publisher as "
                                + candidates.joined(separator: ", ") + " (not followed: to move, give the entry that id and keep "
                                + "its \"table\", or the rows go to a new table)")
    }

    /// The unit a length of time reads best in: minutes, hours, days, months or years.
    static func unit(for seconds: Double) -> (name: String, seconds: Double) {
        if seconds < 2 * UpdateInterval.hour { return ("minute", 60) }
        if seconds < 2 * UpdateInterval.day { return ("hour", UpdateInterval.hour) }
        if seconds < 60 * UpdateInterval.day { return ("day", UpdateInterval.day) }
        if seconds < 2 * UpdateInterval.year { return ("month", UpdateInterval.month) }
        return ("year", UpdateInterval.year)
    }

    /// `3 days`, `5 hours`, `2.5 months`: a length of time as people say it, to a tenth of its
    /// unit (the unit it reads best in, or `unit`), rounded down unless told otherwise.
    public static func span(_ seconds: Double, in unit: (name: String, seconds: Double)? = nil,
                            rounding: FloatingPointRoundingRule = .down) -> String {
        let unit = unit ?? Self.unit(for: seconds)
        let tenths = (seconds / unit.seconds * 10).rounded(rounding) / 10
        let number = tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
        return "\(number) \(unit.name)\(tenths == 1 ? "" : "s")"
    }
}
