import SocloadCore

/// Where the next SODA page starts: after the last row of the page before (by key, the default),
/// or at an offset where no key can be written — decided once the first page is in (its columns
/// known), and again should a later page's last row give no key.
struct PageCursor {
    /// How the pages go on; nil until the first page is in.
    private(set) var paging: SoQLKeyset.Paging?
    /// The condition for the rows after the page before (by key); nil for the first page and by offset.
    private(set) var after: String?

    /// True once the pages go by offset.
    var byOffset: Bool {
        if case .byOffset = paging { return true }
        return false
    }

    /// Moves past a full page whose last row is `lastRow` (its JSON text), for `query` over rows
    /// of the columns `columnTypes` names. Returns the note to make when the pages have just
    /// turned to going by offset, saying why.
    mutating func advance(pastLastRow lastRow: [UInt8], query: SoQLQuery, columnTypes: @autoclosure () -> [String: String]) -> String? {
        let wasByOffset = paging != nil && byOffset
        if paging == nil { paging = SoQLKeyset.paging(for: query, columnTypes: columnTypes()) }
        if case .byKey(let keyset) = paging {
            switch keyset.condition(after: (try? JSONValueParser.parse(lastRow)) ?? .null) {
            case .success(let condition): after = condition
            case .failure(let problem): paging = .byOffset(why: problem.reason)
            }
        }
        guard case .byOffset(let why) = paging, !wasByOffset else { return nil }
        after = nil
        return "paged by offset, not by key: \(why), so the portal skips every earlier row again for each page "
            + "(slower page by page on a large dataset)"
    }
}
