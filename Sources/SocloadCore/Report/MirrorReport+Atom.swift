import Foundation

/// The report as an Atom feed (RFC 4287): one entry per dataset refresh that changed rows or
/// columns, newest first, so feed readers and chat bots follow a mirror. Entry ids are
/// `urn:uuid:` names made from the database, the table and the refresh time, so the same
/// refresh keeps its id in every feed written after it (readers do not show it twice).
extension MirrorReport {
    public func atom(selfURL: String? = nil) -> String {
        // Newest first; refreshes of one second in the order they were made, the last first.
        let entries = datasets.flatMap { dataset in
            dataset.refreshes.enumerated().filter { $0.element.changedSomething }.map { (dataset: dataset, refresh: $0.element, order: $0.offset) }
        }.sorted { ($0.refresh.at, $0.order) > ($1.refresh.at, $1.order) }
        let updated = entries.first?.refresh.at ?? generatedAt
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
        for (dataset, refresh, _) in entries {
            let words = RefreshPlot.changeWords(refresh)
            lines.append("<entry>")
            lines.append("<title>\(MarkupText.escaped(dataset.name)): \(MarkupText.escaped(words))</title>")
            // The refresh's time, and what it found (two refreshes may share a second).
            let name = [databaseName, dataset.table, refresh.at, refresh.kind, refresh.rowsUpdatedAt ?? "", String(refresh.rows),
                        words].joined(separator: "\u{0}")
            lines.append("<id>\(Self.uuid(name))</id>")
            lines.append("<updated>\(MarkupText.escaped(refresh.at))</updated>")
            if let page = MarkupText.link(dataset.page) { lines.append("<link rel=\"alternate\" href=\"\(page)\"/>") }
            var summary = "\(dataset.name) (table \(dataset.table)) at \(refresh.at): \(words); \(RefreshPlot.grouped(refresh.rows)) rows"
            if let stamp = refresh.rowsUpdatedAt { summary += "; the portal changed its rows \(stamp)" }
            if let watch = dataset.watch, [.stale, .gone, .moved].contains(watch.state) {
                summary += "; now \(watch.state.rawValue)" + (watch.note.map { ": " + $0 } ?? "")
            }
            lines.append("<summary type=\"text\">\(MarkupText.escaped(summary))</summary>")
            lines.append("</entry>")
        }
        lines.append("</feed>")
        return lines.joined(separator: "\n") + "\n"
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
