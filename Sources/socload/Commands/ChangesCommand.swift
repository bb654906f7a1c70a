import SocloadCore

/// `socload changes TABLE`: the rows the last refreshes added, removed and changed.
struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "changes",
        abstract: "Show the rows refreshes added, removed and changed, with the changed columns' old and new values.",
        discussion: """
            One output row per added or removed row (its values as JSON in new or old) and one per
            changed column of a changed row (old and new value), from the change log each fetch and
            load keeps for a keyed table's last 10 refreshes (--keep-changes N on fetch and load).
            Without --since or --last: the last refresh that changed something. A re-issue (every
            row under a new id, the same content) is counted, not logged row by row.
            """)

    @Argument(name: "table-or-id", help: "A table name (n5m4_mism) or a dataset id (n5m4-mism).") var tableOrID: String
    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()
    @Option(valueName: "time", help: "The changes of the refreshes at or after this time (2026-12-01, 2026-12-01T06:00:00Z; UTC).")
    var since: String?
    @Option(valueName: "n", help: "The changes of the last N refreshes that changed rows.") var last: Int?

    func run(context: CommandContext) throws {
        if since != nil, last != nil { throw UsageError("--since and --last choose the same thing: give one", command: Self.spec) }
        if let last, last < 1 { throw UsageError("--last needs a positive number of refreshes, not \(last)", command: Self.spec) }
        if let since, !Self.isTime(since) {
            throw UsageError("--since needs a UTC date or time such as 2026-12-01 or 2026-12-01T06:00:00Z, not "
                             + "'\(TerminalText.escaped(since))'", command: Self.spec)
        }
        let loaded = try database.openLoaded(context, command: Self.spec)
        let tableOrID = try database.loadedName(tableOrID, in: loaded)
        let database = loaded
        guard let entry = try database.entry(for: tableOrID, withDescription: false) else {
            throw CommandFailure.notInCatalog(tableOrID, in: database.place)
        }
        var changes = try database.rowChanges(of: entry.tableName, since: Self.sortableTime(since ?? ""))
        if since == nil {
            let times = Array(Set(changes.map(\.refreshedAt))).sorted().suffix(last ?? 1)
            changes = changes.filter { times.contains($0.refreshedAt) }
        }
        let writer = output.writer(context)
        writer.begin(columns: ["refreshed_at", "change", "key", "column", "old", "new"])
        let columns = entry.plan?.mainTable.storedColumns.map(\.name) ?? []
        let keyColumns = entry.plan?.mainTable.primaryKey ?? []
        for change in changes {
            let key = DatabaseValue.text(change.keyValues(inOrderOf: keyColumns).map { "\($0.column)=\(Self.text($0.value))" }
                .joined(separator: ","))
            switch change.kind {
            case .added, .removed:
                writer.write([.text(change.refreshedAt), .text(change.kind.rawValue), key, .null,
                              change.values(old: true, inOrderOf: columns).map { .text($0) } ?? .null,
                              change.values(old: false, inOrderOf: columns).map { .text($0) } ?? .null])
            case .changed:
                for column in change.columnChanges(inOrderOf: columns) {
                    writer.write([.text(change.refreshedAt), .text("changed"), key, .text(column.column),
                                  Self.value(column.old), Self.value(column.new)])
                }
            }
        }
        writer.finish()
    }

    /// A JSON value as the output shows it: text as it is, NULL as NULL, others as JSON.
    static func value(_ value: JSONValue?) -> DatabaseValue {
        guard let value, !value.isNull else { return .null }
        return .text(text(value))
    }

    static func text(_ value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return value.jsonText
    }

    /// `YYYY-MM-DD`, optionally followed by a time.
    static func isTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
    }

    /// A time as the log writes it (`T` between date and time, `Z` dropped where given as `+00:00`).
    static func sortableTime(_ text: String) -> String {
        text.replacingOccurrences(of: " ", with: "T").replacingOccurrences(of: "+00:00", with: "Z")
    }
}
