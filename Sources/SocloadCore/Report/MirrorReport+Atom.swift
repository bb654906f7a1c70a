import Foundation

/// The report as an Atom feed (RFC 4287): one entry per dataset refresh that changed rows or
/// columns, and one when a dataset went stale, gone or moved, newest first, so feed readers and
/// chat bots follow a mirror. Entry ids are
/// `urn:uuid:` names made from the database, the table and the refresh time, so the same
/// refresh keeps its id in every feed written after it (readers do not show it twice).
extension MirrorReport {
    public func atom(selfURL: String? = nil) -> String {
        let entries = feedEntries()
        let updated = entries.first?.updated ?? generatedAt
        var lines = [
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\">",
            "<title>\(MarkupText.escaped(title))</title>",
            "<subtitle>\(MarkupText.escaped(summaryLine))</subtitle>",
            "<id>\(Self.uuid(databaseName))</id>",
            "<updated>\(MarkupText.escaped(updated))</updated>",
            "<author><name>socload</name></author>",
            "<generator>socload</generator>",
        ]
        if let link = MarkupText.link(selfURL) { lines.append("<link rel=\"self\" href=\"\(link)\"/>") }
        for entry in entries {
            lines.append("<entry>")
            lines.append("<title>\(MarkupText.escaped(entry.title))</title>")
            lines.append("<id>\(Self.uuid(entry.name))</id>")
            lines.append("<updated>\(MarkupText.escaped(entry.updated))</updated>")
            if let page = MarkupText.link(entry.page) { lines.append("<link rel=\"alternate\" href=\"\(page)\"/>") }
            lines.append("<summary type=\"text\">\(MarkupText.escaped(entry.summary))</summary>")
            lines.append("</entry>")
        }
        lines.append("</feed>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One entry of the feed: what it says, the name its id is made from, and when.
    struct FeedEntry {
        var title: String
        var name: String
        var updated: String
        var page: String?
        var summary: String
        var order: Int
    }

    /// Every refresh that changed rows or columns, and every dataset that went stale, gone or
    /// moved (at the refresh that first judged it so), newest first; entries of one second in the
    /// order they happened, the last first.
    func feedEntries() -> [FeedEntry] {
        var entries: [FeedEntry] = []
        for dataset in datasets {
            for (order, refresh) in dataset.refreshes.enumerated() where refresh.changedSomething {
                let words = RefreshPlot.changeWords(refresh)
                var summary = "\(dataset.name) (table \(dataset.table)) at \(refresh.at): \(words); \(RefreshPlot.rowsText(refresh.rows))"
                if let stamp = refresh.rowsUpdatedAt { summary += "; the portal changed its rows \(stamp)" }
                // The refresh's time, and what it found (two refreshes may share a second).
                let name = [databaseName, dataset.table, refresh.at, refresh.kind, refresh.rowsUpdatedAt ?? "", String(refresh.rows),
                            words].joined(separator: "\u{0}")
                entries.append(FeedEntry(title: "\(dataset.name): \(words)", name: name, updated: refresh.at, page: dataset.page,
                                         summary: summary, order: order))
            }
            // The watches judged before the current one stay in the feed, with their ids.
            let current = dataset.watchCheckedAt.flatMap { since in dataset.watch.map { MirrorReport.JudgedWatch(checkedAt: since, watch: $0) } }
            for judged in dataset.earlierWatches + (current.map { [$0] } ?? []) where [.stale, .gone, .moved].contains(judged.watch.state) {
                let (watch, since) = (judged.watch, judged.checkedAt)
                let name = [databaseName, dataset.table, "watch", watch.state.rawValue, since].joined(separator: "\u{0}")
                entries.append(FeedEntry(title: "\(dataset.name) is \(watch.state.rawValue)", name: name, updated: since, page: dataset.page,
                                         summary: "\(dataset.name) (table \(dataset.table)) is \(watch.state.rawValue)"
                                            + (watch.note.map { ": " + $0 } ?? ""),
                                         order: dataset.refreshes.count))
            }
        }
        return entries.sorted { ($0.updated, $0.order) > ($1.updated, $1.order) }
    }

    /// The database as entry ids name it: a SQLite file by its file name (however the path to it
    /// is spelled), a PostgreSQL database by its URL and schema as `database` says them.
    var databaseName: String {
        database.contains("://") ? database : (database as NSString).lastPathComponent
    }

    /// `urn:uuid:` of a name: two 64-bit stable hashes laid out as a UUID of version 8 (RFC 9562's
    /// custom layout), the same for the same name on every machine.
    static func uuid(_ name: String) -> String {
        let bytes = Array(name.utf8)
        func hash(_ seed: UInt64) -> UInt64 {
            var hasher = StableHasher(seed: seed)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(UInt64(bytes.count))
            return hasher.finalize()
        }
        var high = hash(0x736F_636C_6F61_6401)
        var low = hash(0x6174_6F6D_6665_6564)
        high = (high & ~UInt64(0xF000)) | UInt64(0x8000)                // version 8
        low = (low & ~(UInt64(0xC) << 60)) | (UInt64(0x8) << 60)        // the RFC's variant
        let hex = String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16)
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return "urn:uuid:" + parts.map(String.init).joined(separator: "-")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
