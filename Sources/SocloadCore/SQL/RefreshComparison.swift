/// What a refresh changed, counted set-based inside its transaction against the copy it
/// replaces, by the table's key: the rows added, changed (any stored value differs, NULLs
/// compared as values) and removed, and those unchanged.
public struct RefreshCounts: Sendable, Equatable, Codable {
    public var added: Int
    public var changed: Int
    public var removed: Int
    public var unchanged: Int

    public init(added: Int, changed: Int, removed: Int, unchanged: Int) {
        self.added = added
        self.changed = changed
        self.removed = removed
        self.unchanged = unchanged
    }

    /// `12 added, 3 changed, 5 removed, 9,980 unchanged`.
    public var line: String {
        func grouped(_ count: Int) -> String {
            let digits = String(count.magnitude)
            var text = ""
            for (index, digit) in digits.enumerated() {
                if index > 0, (digits.count - index) % 3 == 0 { text += "," }
                text.append(digit)
            }
            return (count < 0 ? "-" : "") + text
        }
        return "\(grouped(added)) added, \(grouped(changed)) changed, \(grouped(removed)) removed, \(grouped(unchanged)) unchanged"
    }
}

/// The statement that counts a refresh's changes, written once for every database. The new
/// rows are probed against the old copy's key (its index), so it costs two passes over the new
/// rows; only the columns both copies store with the same type are compared.
public struct RefreshComparison {
    public let dialect: any SQLDialect
    public let table: PlanTable
    public let previous: PlanTable

    public init(dialect: any SQLDialect, table: PlanTable, previous: PlanTable) {
        self.dialect = dialect
        self.table = table
        self.previous = previous
    }

    /// True when the two copies can be compared row by row: both keyed by the same columns.
    public var isComparable: Bool {
        !table.primaryKey.isEmpty
            && table.primaryKey.map { $0.lowercased() } == previous.primaryKey.map { $0.lowercased() }
            && table.primaryKey.allSatisfy { key in previous.storedColumn(named: key)?.type == table.storedColumn(named: key)?.type }
    }

    /// The columns compared: stored by both with the same type, the key aside.
    public var comparedColumns: [String] {
        let key = Set(table.primaryKey.map { $0.lowercased() })
        return table.storedColumns.filter { column in
            !key.contains(column.name.lowercased()) && previous.storedColumn(named: column.name)?.type == column.type
        }.map(\.name)
    }

    /// One row: the new rows, the old rows, the new rows whose key the old copy has, and those
    /// of them with a value that differs. `newTable` and `oldTable` as the database names them.
    public func statement(newTable: String, oldTable: String) -> String {
        let match = table.primaryKey.map { key -> String in
            let name = key.quotedDatabaseIdentifier
            return "\"o\".\(name) = \"n\".\(name)"
        }.joined(separator: " AND ")
        let differs = comparedColumns.map { column -> String in
            let name = column.quotedDatabaseIdentifier
            return "\"n\".\(name) IS DISTINCT FROM \"o\".\(name)"
        }
        let changed = differs.isEmpty ? "0"
            : "(SELECT count(*) FROM \(newTable) AS \"n\" JOIN \(oldTable) AS \"o\" ON \(match) WHERE \(differs.joined(separator: " OR ")))"
        return "SELECT (SELECT count(*) FROM \(newTable)), (SELECT count(*) FROM \(oldTable)), "
            + "(SELECT count(*) FROM \(newTable) AS \"n\" WHERE EXISTS (SELECT 1 FROM \(oldTable) AS \"o\" WHERE \(match))), "
            + changed
    }

    /// The counts from the statement's four numbers.
    public static func counts(new: Int, old: Int, matched: Int, changed: Int) -> RefreshCounts {
        RefreshCounts(added: new - matched, changed: changed, removed: max(0, old - matched), unchanged: matched - changed)
    }
}
