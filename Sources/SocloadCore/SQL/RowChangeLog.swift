/// `_socload_row_changes`: the rows each refresh added, removed and changed, for
/// `socload changes TABLE`: the refresh's time, the kind, the row's key, and its values before
/// and after (JSON objects of column → value; a changed row keeps both whole, the changed
/// columns are found by comparing them). Kept for a table's last refreshes (`--keep-changes`).
public struct RowChangeLog {
    public static let tableName = "_socload_row_changes"
    /// How many refreshes' changes a table keeps unless told otherwise.
    public static let defaultKeptRefreshes = 10
    public let dialect: any SQLDialect

    public init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    public var createStatement: String {
        """
        CREATE TABLE IF NOT EXISTS \(dialect.table(Self.tableName)) ("table_name" TEXT NOT NULL, "refreshed_at" TEXT NOT NULL,
          "kind" TEXT NOT NULL, "row_key" TEXT NOT NULL, "old_values" TEXT, "new_values" TEXT)
        """
    }

    /// `"table_name" = $1`, compared as the database compares names.
    func tableMatch(_ position: Int) -> String {
        dialect.namesIgnoreCase ? "lower(\"table_name\") = lower(\(dialect.placeholder(position)))"
            : "\"table_name\" = \(dialect.placeholder(position))"
    }

    /// A table's changes at or after a time, in order; bind the table's name and the time.
    public var selectStatement: String {
        "SELECT \"refreshed_at\", \"kind\", \"row_key\", \"old_values\", \"new_values\" FROM \(dialect.table(Self.tableName)) "
            + "WHERE \(tableMatch(1)) AND \"refreshed_at\" >= \(dialect.placeholder(2)) ORDER BY \"refreshed_at\", \"kind\", \"row_key\""
    }

    /// Forgets a table's changes but those of its last `kept` refreshes; bind the table's name twice.
    public func pruneStatement(keeping kept: Int) -> String {
        let table = dialect.table(Self.tableName)
        return "DELETE FROM \(table) WHERE \(tableMatch(1)) AND \"refreshed_at\" NOT IN (SELECT \"refreshed_at\" FROM "
            + "(SELECT DISTINCT \"refreshed_at\" FROM \(table) WHERE \(tableMatch(2)) ORDER BY \"refreshed_at\" DESC "
            + "LIMIT \(max(kept, 0))) AS \"kept\")"
    }

    /// A row of `selectStatement` (as text, NULL as nil).
    public static func change(fromRow row: [String?]) -> RecordedRowChange? {
        guard row.count >= 5, let time = row[0], let kind = row[1].flatMap(RecordedRowChange.Kind.init(rawValue:)),
              let key = row[2] else { return nil }
        return RecordedRowChange(refreshedAt: time, kind: kind, key: key, oldValues: row[3], newValues: row[4])
    }
}

/// One row a refresh added, removed or changed, as the change log keeps it.
public struct RecordedRowChange: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case added, removed, changed
    }

    public var refreshedAt: String
    public var kind: Kind
    /// The row's key, a JSON object of the key columns.
    public var key: String
    /// The row before the refresh, a JSON object (nil for an added row).
    public var oldValues: String?
    /// The row after it (nil for a removed row).
    public var newValues: String?

    public init(refreshedAt: String, kind: Kind, key: String, oldValues: String?, newValues: String?) {
        self.refreshedAt = refreshedAt
        self.kind = kind
        self.key = key
        self.oldValues = oldValues
        self.newValues = newValues
    }
}
