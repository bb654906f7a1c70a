/// What one refresh did to a table's rows against the copy it replaced (or, for a sync, the
/// rows it touched): counted by the table's key, or by the rows' content when it has none.
public struct RowChangeCounts: Sendable, Equatable, Codable {
    public var added: Int
    public var changed: Int
    public var removed: Int
    public var unchanged: Int
    /// When the publisher re-issued the dataset (at least 90% of the keys new, at least 90% of
    /// the new rows' content matching removed rows): how many rows came back under a new key.
    /// They are not counted as added or removed.
    public var reissued: Int?

    public init(added: Int = 0, changed: Int = 0, removed: Int = 0, unchanged: Int = 0, reissued: Int? = nil) {
        self.added = added
        self.changed = changed
        self.removed = removed
        self.unchanged = unchanged
        self.reissued = reissued
    }

    /// The share of new keys and of content matches from which a refresh is a re-issue.
    public static let reissueShare = 0.9

    /// The counts a comparison of fingerprints gives: `newRows` and `oldRows` in the two copies,
    /// `matched` rows whose key is in both, `unchanged` of those with the same content, and
    /// `contentMatches`, the new-key rows whose content equals a removed row's.
    public static func from(newRows: Int, oldRows: Int, matched: Int, unchanged: Int, contentMatches: Int) -> RowChangeCounts {
        var counts = RowChangeCounts(added: newRows - matched, changed: matched - unchanged, removed: oldRows - matched,
                                     unchanged: unchanged)
        if newRows > 0, counts.added > 0, Double(counts.added) >= reissueShare * Double(newRows),
           Double(contentMatches) >= reissueShare * Double(counts.added) {
            counts.reissued = contentMatches
            counts.added -= contentMatches
            counts.removed -= contentMatches
        }
        return counts
    }

    /// `12 added, 3 changed, 5 removed, 9,980 unchanged`; a re-issue first says so:
    /// `ids re-issued: 1,071 rows, 0 changed`.
    public var summary: String {
        let counts = "\(Self.grouped(added)) added, \(Self.grouped(changed)) changed, \(Self.grouped(removed)) removed, "
            + "\(Self.grouped(unchanged)) unchanged"
        guard let reissued else { return counts }
        return "ids re-issued: \(Self.grouped(reissued)) rows, \(Self.grouped(added)) changed; "
            + "\(Self.grouped(removed)) removed"
    }

    /// 9980 as `9,980`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }
}
