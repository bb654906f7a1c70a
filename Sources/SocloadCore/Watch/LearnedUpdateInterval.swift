import Foundation

/// The usual gap between a portal's updates of a dataset, learned from the refresh log: the
/// median gap between the distinct `rowsUpdatedAt` its loads recorded, once there are at least
/// `leastUpdates` of them (fewer say too little: one late update would set the pace).
///
///     let stamps = ["2026-01-01T00:00:00Z", "2026-01-08T00:00:00Z", "2026-01-15T00:00:00Z", "2026-01-22T00:00:00Z"]
///     print(LearnedUpdateInterval.from(stamps: stamps)?.label ?? "too few")   // about 7 days
public enum LearnedUpdateInterval {
    /// The portal updates a log must show before socload learns an interval from it.
    public static let leastUpdates = 4

    /// The median gap between the distinct stamps (ISO 8601), or nil with too few.
    public static func from(stamps: [String]) -> UpdateInterval? {
        let times = Set(stamps.compactMap(ISO8601Timestamp.parse).map(\.timeIntervalSince1970)).sorted()
        guard times.count >= leastUpdates else { return nil }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        let median = gaps.count % 2 == 1 ? gaps[gaps.count / 2] : (gaps[gaps.count / 2 - 1] + gaps[gaps.count / 2]) / 2
        guard median > 0 else { return nil }
        return UpdateInterval(seconds: median, label: "about " + DatasetWatch.span(median))
    }
}
