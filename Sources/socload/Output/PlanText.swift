import SocloadSocrata

/// A load plan as text for people (`fetch --dry-run`): each table, its key and indexes, and its
/// columns with their logical types and where their values come from.
enum PlanText {
    static func describe(_ plan: LoadPlan) -> String {
        var text = ""
        for table in plan.tables {
            text += "table \(TerminalText.escaped(table.name))\n"
            text += "key \(table.primaryKey.isEmpty ? "(none)" : table.primaryKey.map(TerminalText.escaped).joined(separator: ", "))\n"
            for index in table.indexes {
                text += "index \(TerminalText.escaped(index.name)) (\(index.columns.map(TerminalText.escaped).joined(separator: ", ")))\n"
            }
            for lookup in table.lookups {
                let counts = [lookup.countColumn].compactMap { $0 } + lookup.distinctCounts.map(\.countColumn)
                text += "lookup \(TerminalText.escaped(lookup.table)) (" + ([PlanLookup.keyColumn] + lookup.valueColumns + counts)
                    .map(TerminalText.escaped).joined(separator: ", ") + ")" + (lookup.prune ? " pruned" : "") + "\n"
            }
            let rows = table.storedColumns.map { column -> [String] in
                if let lookup = table.lookups.first(where: { $0.foreignKey == column.name }) {
                    let fields = lookup.columns.map { source($0.source, plan.sourceFields) }.joined(separator: ", ")
                    return [TerminalText.escaped(column.name), column.type.rawValue,
                            "\(fields) → \(TerminalText.escaped(lookup.table)).id"]
                }
                return [TerminalText.escaped(column.name), column.type.rawValue, source(column.source, plan.sourceFields)]
            }
            let widths = (0..<3).map { index in
                max(["column", "type", "from"][index].count, rows.map { $0[index].count }.max() ?? 0)
            }
            for row in [["column", "type", "from"]] + rows {
                text += zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingTrailingSpaces() + "\n"
            }
        }
        return text
    }

    private static func source(_ source: ColumnSource, _ fields: [String]) -> String {
        func field(_ cell: Int) -> String { TerminalText.escaped(cell < fields.count ? fields[cell] : "#\(cell)") }
        switch source {
        case .field(let cell): return field(cell)
        case let .part(cell, part, _): return "\(field(cell)) (\(part.rawValue))"
        case let .rowIdentifier(sid, id):
            return [sid.map(field), id.map(field)].compactMap { $0 }.joined(separator: " or ")
        case .absent: return "(none: kept, gone upstream)"
        }
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
