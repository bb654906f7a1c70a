/// The statements that count and log what a refresh changed, written once against the dialect.
///
/// Each load writes its rows' fingerprints (`RowFingerprinter`: key hash `kh`, content hash `h`,
/// insertion number `r`, key values `k1`...`kn`) to a new fingerprint table beside the rows; the
/// previous load's are kept in the table's fingerprint table. Counting joins the two on the key
/// hash, an integer (or, for a table without a key, matches content hashes as multisets), so
/// the old table is not read again; only the rows that changed are read from the two copies,
/// by their key, for the change log.
public struct RowChangeSQL {
    public let dialect: any SQLDialect
    /// The new copy's key columns (empty: no key).
    public let newKey: [String]
    /// The old copy's key columns, in the same order.
    public let oldKey: [String]
    /// The new and the previous fingerprint tables (names, unquoted).
    public let newFingerprints: String
    public let oldFingerprints: String

    public init(dialect: any SQLDialect, newKey: [String], oldKey: [String], newFingerprints: String, oldFingerprints: String) {
        self.dialect = dialect
        self.newKey = newKey
        self.oldKey = oldKey
        self.newFingerprints = newFingerprints
        self.oldFingerprints = oldFingerprints
    }

    /// Where a destination that keeps the copy a refresh replaced keeps it (SQLite), until the
    /// next refresh drops it.
    public static func previousCopy(of table: String) -> String { "_socload_previous_" + table }

    /// Where a table's fingerprints are kept between refreshes, and where a load writes the new ones.
    public static func fingerprintTables(of table: String, dialect: any SQLDialect) -> (kept: String, new: String) {
        (dialect.kept("_socload_fingerprints_" + table), dialect.kept("_socload_fingerprints_new_" + table))
    }

    /// The fingerprint table's shape as a plan table: the hashes and the insertion number, then
    /// the key's columns (types as in `table`; NOT NULL and compared as the table's key is).
    public static func fingerprintTable(named name: String, for table: PlanTable) -> PlanTable {
        let keyTypes = table.primaryKey.map { name in table.column(named: name)?.type ?? .text }
        let names = RowFingerprinter.columnNames(keyCount: keyTypes.count)
        let columns = zip(names, [.integer, .integer, .integer] + keyTypes).enumerated().map { cell, column in
            PlanColumn(name: column.0, type: column.1, source: .field(cell: cell))
        }
        return PlanTable(name: name, columns: columns, primaryKey: Array(names.dropFirst(3)))
    }

    private var n: String { "\(dialect.table(newFingerprints)) AS \"n\"" }
    private var o: String { "\(dialect.table(oldFingerprints)) AS \"o\"" }
    private var keyCount: Int { newKey.count }
    private var isKeyed: Bool { keyCount > 0 }

    /// The rows are the same row: the key hashes match (an integer comparison).
    private var keysMatch: String { "\"n\".\"kh\" = \"o\".\"kh\"" }

    /// What makes the new fingerprint table quick to join once it is filled: where the database
    /// joins through indexes (SQLite), an index on the key hash and the content hash; else the
    /// table's statistics (`ANALYZE`), without which PostgreSQL misjudges the join and compiles
    /// it (JIT) for longer than it runs.
    public func preparationStatement(indexName: String) -> String {
        guard dialect.joinsThroughIndexes else { return "ANALYZE \(dialect.table(newFingerprints))" }
        return "CREATE INDEX \(dialect.kept(indexName).quotedDatabaseIdentifier) ON \(dialect.table(newFingerprints)) (\"kh\", \"h\")"
    }

    /// One row: the new copy's rows, the old copy's, the rows matched (by key, or by content
    /// without one), and the matched rows whose content is the same.
    public var countStatement: String {
        let counts = "(SELECT count(*) FROM \(dialect.table(newFingerprints))), (SELECT count(*) FROM \(dialect.table(oldFingerprints)))"
        guard isKeyed else {
            return "SELECT \(counts), coalesce(sum(\"g\".\"m\"), 0), coalesce(sum(\"g\".\"m\"), 0) FROM (\(multisetMatches(newRows: "SELECT \"h\" FROM \(dialect.table(newFingerprints))", oldRows: "SELECT \"h\" FROM \(dialect.table(oldFingerprints))"))) AS \"g\""
        }
        return "SELECT \(counts), count(*), coalesce(sum(CASE WHEN \"n\".\"h\" = \"o\".\"h\" THEN 1 ELSE 0 END), 0) "
            + "FROM \(n) JOIN \(o) ON \(keysMatch)"
    }

    /// How many rows of new keys have the content of a row whose key went (a re-issue's sign).
    public var contentMatchStatement: String {
        let added = "SELECT \"n\".\"h\" FROM \(n) WHERE NOT EXISTS (SELECT 1 FROM \(o) WHERE \(keysMatch))"
        let removed = "SELECT \"o\".\"h\" FROM \(o) WHERE NOT EXISTS (SELECT 1 FROM \(n) WHERE \(keysMatch))"
        return "SELECT coalesce(sum(\"g\".\"m\"), 0) FROM (\(multisetMatches(newRows: added, oldRows: removed))) AS \"g\""
    }

    /// Per hash, how many of the two lists' rows pair up (`m`).
    private func multisetMatches(newRows: String, oldRows: String) -> String {
        "SELECT CASE WHEN sum(\"u\".\"s\") < count(*) - sum(\"u\".\"s\") THEN sum(\"u\".\"s\") ELSE count(*) - sum(\"u\".\"s\") END AS \"m\" "
            + "FROM (SELECT \"h\", 1 AS \"s\" FROM (\(newRows)) AS \"a\" UNION ALL SELECT \"h\", 0 AS \"s\" FROM (\(oldRows)) AS \"b\") AS \"u\" "
            + "GROUP BY \"u\".\"h\""
    }

    /// The new copy's row (`"t"`) of the new fingerprint `"n"`: by its insertion number where
    /// rows have one, else by the key.
    var locateNew: String {
        if let order = dialect.insertionOrder(of: "\"t\"") { return "\(order) = \"n\".\"r\"" }
        return newKey.enumerated().map { "\"t\".\($1.quotedDatabaseIdentifier) = \"n\".\"k\($0 + 1)\"" }
            .joined(separator: " AND ")
    }

    /// The old keys whose row went or changed (`k1`...`kn`), for the history to close.
    public var closedKeys: String {
        "SELECT " + (1...max(keyCount, 1)).map { "\"o\".\"k\($0)\"" }.joined(separator: ", ") + " FROM \(o) WHERE NOT EXISTS "
            + "(SELECT 1 FROM \(n) WHERE \"n\".\"kh\" = \"o\".\"kh\" AND \"n\".\"h\" = \"o\".\"h\")"
    }

    /// The new copy's rows (`"t"`) that were added or changed, for the history's new versions.
    /// The fingerprints are filtered in a subquery of their own before the join: Citus joins a
    /// distributed table with local ones (the fingerprints) only that way.
    public func newVersions(in newTable: String) -> String {
        "FROM (SELECT \"n\".* FROM \(n) WHERE NOT EXISTS "
            + "(SELECT 1 FROM \(o) WHERE \"o\".\"kh\" = \"n\".\"kh\" AND \"o\".\"h\" = \"n\".\"h\")) AS \"n\" "
            + "JOIN \(newTable) AS \"t\" ON \(locateNew)"
    }

    /// The change log's rows for this refresh: added, removed, changed (a keyed table only).
    /// `newTable` / `oldTable` are the two copies (relations as the dialect names them) with
    /// their stored columns; bind the table's name and the refresh's time.
    /// `distributed`: the table is spread over a Citus cluster.
    /// `renamed`: old columns that have another name in the new copy (old name → new name); the
    /// old values are logged under the new names, so a changed row lists only what changed.
    /// `types`: the columns' logical types (`SQLDialect.jsonValue`), by name in either copy.
    public func logStatements(newTable: String, newColumns: [String], oldTable: String, oldColumns: [String],
                              renamed: [String: String] = [:], distributed: Bool = false,
                              types: [String: LogicalType] = [:]) -> [String] {
        guard isKeyed else { return [] }
        let log = dialect.table(RowChangeLog.tableName)
        let insert = "INSERT INTO \(log) (\"table_name\", \"refreshed_at\", \"kind\", \"row_key\", \"old_values\", \"new_values\") "
        let head = "SELECT CAST(\(dialect.placeholder(1)) AS TEXT), CAST(\(dialect.placeholder(2)) AS TEXT), "
        func object(_ alias: String, _ columns: [String]) -> String {
            dialect.jsonObject(columns.map { column in
                let value = "\"\(alias)\".\(column.quotedDatabaseIdentifier)"
                return (alias == "p" ? renamed[column] ?? column : column, types[column].map { dialect.jsonValue(value, type: $0) } ?? value)
            })
        }
        let newKeyJSON = object("t", newKey)
        let oldKeyJSON = object("p", oldKey)
        let locateOld = oldKey.enumerated().map { "\"p\".\($1.quotedDatabaseIdentifier) = \"o\".\"k\($0 + 1)\"" }
            .joined(separator: " AND ")
        let none = "CAST(NULL AS TEXT)"
        // Each filters the fingerprints in a subquery of its own before joining a copy of the
        // table (Citus joins local tables, the fingerprints, with a distributed one only so).
        let added = "(SELECT \"n\".* FROM \(n) WHERE NOT EXISTS (SELECT 1 FROM \(o) WHERE \(keysMatch))) AS \"n\""
        let removed = "(SELECT \"o\".* FROM \(o) WHERE NOT EXISTS (SELECT 1 FROM \(n) WHERE \(keysMatch))) AS \"o\""
        var statements = [
            insert + head + "'added', \(newKeyJSON), \(none), \(object("t", newColumns)) FROM \(added) JOIN \(newTable) AS \"t\" "
                + "ON \(locateNew)",
            insert + head + "'removed', \(oldKeyJSON), \(object("p", oldColumns)), \(none) FROM \(removed) JOIN \(oldTable) AS \"p\" "
                + "ON \(locateOld)",
        ]
        guard distributed else {
            return statements + [
                insert + head + "'changed', \(newKeyJSON), \(object("p", oldColumns)), \(object("t", newColumns)) FROM \(n) "
                    + "JOIN \(o) ON \(keysMatch) AND \"n\".\"h\" <> \"o\".\"h\" JOIN \(newTable) AS \"t\" ON \(locateNew) "
                    + "JOIN \(oldTable) AS \"p\" ON \(locateOld)",
            ]
        }
        // Distributed: the two copies are in colocation groups of their own, so each is read
        // alone (materialized) and the two joined on the coordinator by the key hash.
        let changedNew = "(SELECT \"n\".* FROM \(n) JOIN \(o) ON \(keysMatch) AND \"n\".\"h\" <> \"o\".\"h\") AS \"n\""
        let changedOld = "(SELECT \"o\".* FROM \(o) JOIN \(n) ON \(keysMatch) AND \"n\".\"h\" <> \"o\".\"h\") AS \"o\""
        statements.append("WITH \"nv\" AS MATERIALIZED (SELECT \"n\".\"kh\" AS \"kh\", \(newKeyJSON) AS \"key\", "
            + "\(object("t", newColumns)) AS \"v\" FROM \(changedNew) JOIN \(newTable) AS \"t\" ON \(locateNew)), "
            + "\"ov\" AS MATERIALIZED (SELECT \"o\".\"kh\" AS \"kh\", \(object("p", oldColumns)) AS \"v\" FROM \(changedOld) "
            + "JOIN \(oldTable) AS \"p\" ON \(locateOld)) "
            + insert + head + "'changed', \"nv\".\"key\", \"ov\".\"v\", \"nv\".\"v\" FROM \"nv\" JOIN \"ov\" ON \"nv\".\"kh\" = \"ov\".\"kh\"")
        return statements
    }
}
