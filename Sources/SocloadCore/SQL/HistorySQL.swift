/// `T_history` (`--history`): every version of every row of a keyed table, with `_valid_from`
/// (the time of the refresh that wrote it, its row in `_socload_refreshes`) and `_valid_to`
/// (when a later refresh changed or removed the row; NULL while it is current). A refresh closes
/// the versions of the rows it changed or removed and adds the new versions of the rows it
/// added or changed, found from the fingerprints; one that changed nothing writes nothing.
///
///     SELECT * FROM t_history WHERE _valid_from <= '2026-06-01' AND (_valid_to IS NULL OR _valid_to > '2026-06-01')
public struct HistorySQL {
    public static let validFrom = "_valid_from"
    public static let validTo = "_valid_to"
    public let dialect: any SQLDialect
    public let table: PlanTable

    public init(dialect: any SQLDialect, table: PlanTable) {
        self.dialect = dialect
        self.table = table
    }

    /// `t_history`, shortened as the database needs.
    public static func historyTable(of table: String, dialect: any SQLDialect) -> String {
        dialect.kept(table + "_history")
    }

    public var name: String { Self.historyTable(of: table.name, dialect: dialect) }
    private var history: String { dialect.table(name) }
    private var columns: [String] { table.storedColumns.map(\.name) }
    private var time: String { "CAST(CAST(\(dialect.placeholder(1)) AS TEXT) AS \(dialect.declaredType(.timestamp)))" }

    /// The table and its index on the key (a row's versions, the open one found at once).
    public var createStatements: [String] {
        let definitions = table.storedColumns.map { "\($0.name.quotedDatabaseIdentifier) \(dialect.declaredType($0.type))" }
            + ["\(Self.validFrom.quotedDatabaseIdentifier) \(dialect.declaredType(.timestamp)) NOT NULL",
               "\(Self.validTo.quotedDatabaseIdentifier) \(dialect.declaredType(.timestamp))"]
        let key = (table.primaryKey + [Self.validTo]).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        return ["CREATE TABLE \(history) (\(definitions.joined(separator: ", ")))",
                "CREATE INDEX \(dialect.kept("_socload_history_key_" + table.name).quotedDatabaseIdentifier) ON \(history) (\(key))"]
    }

    /// The table's columns the history does not have yet (added by a schema change).
    public func addColumnStatements(missingFrom existing: Set<String>) -> [String] {
        table.storedColumns.filter { !existing.contains(dialect.namesIgnoreCase ? $0.name.lowercased() : $0.name) }.map {
            "ALTER TABLE \(history) ADD COLUMN \($0.name.quotedDatabaseIdentifier) \(dialect.declaredType($0.type))"
        }
    }

    /// A column retyped upstream (its type in `previous` differs) becomes text in the history,
    /// which keeps the old versions' values and takes the new ones (any value is assigned to a
    /// text column).
    public func retypeStatements(from previous: PlanTable?) -> [String] {
        guard let previous else { return [] }
        return table.storedColumns.compactMap { column in
            guard let old = previous.column(named: column.name), old.type != column.type else { return nil }
            return dialect.columnToTextStatement(table: name, column: column.name)
        }
    }

    /// Every row of `relation` as its first version (a first load, or history asked for now);
    /// bind the time.
    public func insertAllStatement(from relation: String) -> String {
        let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        return "INSERT INTO \(history) (\(list), \(Self.validFrom.quotedDatabaseIdentifier)) SELECT \(list), \(time) FROM \(relation)"
    }

    /// Closes the open versions of the keys `keys` selects (a query of the key's values, in key
    /// order); bind the time.
    public func closeStatement(keys: String) -> String {
        let key = table.primaryKey.map { "\(history).\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        return "UPDATE \(history) SET \(Self.validTo.quotedDatabaseIdentifier) = \(time) WHERE "
            + "\(history).\(Self.validTo.quotedDatabaseIdentifier) IS NULL AND (\(key)) IN (\(keys))"
    }

    /// Every open version closed (a refresh whose rows could not be compared by key); bind the time.
    public var closeAllStatement: String {
        "UPDATE \(history) SET \(Self.validTo.quotedDatabaseIdentifier) = \(time) WHERE \(Self.validTo.quotedDatabaseIdentifier) IS NULL"
    }

    /// New versions: the rows `rows` selects (`FROM ... JOIN relation AS "t"`); bind the time.
    public func insertVersionsStatement(rows: String) -> String {
        let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        return "INSERT INTO \(history) (\(list), \(Self.validFrom.quotedDatabaseIdentifier)) SELECT "
            + columns.map { "\"t\".\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ") + ", \(time) \(rows)"
    }
}
