import Foundation
import SocloadCore

/// The condition options of `select` made into one `RowFilter`.
extension SelectCommand {
    /// The AND of every condition option, for a table loaded with the plan `table` (nil: not
    /// loaded by socload). `--eq`, `--in` and `--contains` also take `RELATION.COLUMN`: a column
    /// of one of the table's lookups, through its foreign key. `--eq` on a timestamp column
    /// with a date (or any period) means `--on`: the instants stored there are never a bare day.
    func predicate(_ table: PlanTable? = nil) throws -> SocloadCore.RowFilter {
        let lookups = table?.lookups ?? []
        let timed = Set((table?.storedColumns ?? []).filter { $0.type == .timestamp || $0.type == .floatingTimestamp }
            .map { $0.name.lowercased() })
        func condition(_ column: String, _ make: (String) -> SocloadCore.RowFilter) throws -> SocloadCore.RowFilter {
            guard let (lookup, inner) = try Self.lookupColumn(column, lookups: lookups) else {
                // A name in double quotes, as in SQL, is the name inside them.
                var scanner = QuotedNameScanner(column, separators: [])
                if column.hasPrefix("\""), let name = scanner.name(), scanner.isAtEnd { return make(name) }
                return make(column)
            }
            return .related(lookup.foreignKey, to: lookup.table, key: PlanLookup.keyColumn, where: make(inner))
        }
        var parts: [SocloadCore.RowFilter] = []
        var periods = from + on
        var ends = to + on
        parts += try eq.compactMap { option in
            if timed.contains(option.column.lowercased()), let period = DatePeriod(option.value) {
                periods.append(ColumnPeriod(column: option.column, period: period))
                ends.append(ColumnPeriod(column: option.column, period: period))
                return nil
            }
            return try condition(option.column) { .equals($0, option.value) }
        }
        parts += try Self.inLists(oneOf).map { column, values in try condition(column) { .in($0, values) } }
        parts += try contains.map { option in
            try condition(option.column) { .contains($0, option.value, caseInsensitive: true, diacriticInsensitive: true) }
        }
        for bound in periods {
            parts.append(.greaterThanOrEqual(bound.column, bound.period.start))
        }
        // A period that ends after 9999 has no upper bound: every stored date is before it.
        for bound in ends {
            if let end = bound.period.end { parts.append(.lessThan(bound.column, end)) }
        }
        parts += null.map { .isNull($0) }
        return .all(parts)
    }

    /// `RELATION.COLUMN` (names quoted as in SQL when they hold a dot) where RELATION is one of
    /// the table's lookups: that lookup and its column. nil for a plain column name.
    static func lookupColumn(_ text: String, lookups: [PlanLookup]) throws -> (PlanLookup, String)? {
        guard !lookups.isEmpty, text.contains(".") else { return nil }
        var scanner = QuotedNameScanner(text, separators: ["."])
        guard let relation = scanner.name(), scanner.separator() == ".", let column = scanner.name(), scanner.isAtEnd,
              let lookup = lookups.first(where: { $0.table == relation }) ?? lookups.first(where: {
                  $0.table.lowercased() == relation.lowercased() }) else { return nil }
        return (lookup, column)
    }

    /// `--in` values per column, in the order the columns first appear. One option for a column
    /// splits on commas; several options for the same column each give one whole value.
    static func inLists(_ options: [ColumnValue]) throws -> [(String, [String])] {
        var order: [String] = []
        var raw: [String: [String]] = [:]
        for option in options {
            if raw[option.column] == nil { order.append(option.column) }
            raw[option.column, default: []].append(option.value)
        }
        return try order.map { column in
            let given = raw[column] ?? []
            var values: [String] = []
            for value in given {
                if value.hasPrefix("@") {
                    values += try lines(ofFile: String(value.dropFirst()))
                } else if given.count == 1 {
                    values += value.isEmpty ? [] : value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                } else {
                    values.append(value)
                }
            }
            return (column, values)
        }
    }

    /// One value per line (LF or CRLF); blank lines are skipped.
    static func lines(ofFile path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read the values file '\(path)'", exitCode: .noInput)
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }

    /// For a column `extract` moved into a lookup: where it went and how to reach it.
    static func lookupHint(_ error: SelectError, plan: PlanTable?) -> String {
        guard case let .unknownColumn(name, table, _) = error,
              let lookup = plan?.lookups.first(where: { $0.valueColumns.contains { $0.lowercased() == name.lowercased() } })
        else { return "" }
        return " (\(name) was extracted into the lookup \(lookup.table), which \(table).\(lookup.foreignKey) references: "
            + "--eq \(lookup.table).\(name)=VALUE filters by it, and socload query can join it)"
    }
}
