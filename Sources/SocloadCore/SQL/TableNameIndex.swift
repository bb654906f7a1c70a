/// `_socload_table_names`: every table name a loaded dataset claims — its own table, its child and
/// glue tables, its lookups, SQLite's full-text table — beside the dataset's table, one row each,
/// indexed by name. A load asks it which plans it could clash with (`CatalogStore.plans(claiming:)`)
/// instead of reading and decoding every plan in the catalog, so its cost does not grow with the
/// number of datasets the database holds. Written with each catalog entry, in the same transaction.
///
///     let index = TableNameIndex(dialect: SQLiteDialect())
///     let claimed = TableNameIndex.names(claimedBy: plan)   // lowercased
///     _ = (index.createStatements, claimed)
public struct TableNameIndex {
    public static let tableName = "_socload_table_names"
    public let dialect: any SQLDialect

    public init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    /// The table and its indexes, by name and by dataset (a catalog's migration makes them, and
    /// fills them from every plan when they are new).
    public var createStatements: [String] {
        let table = dialect.table(Self.tableName)
        return ["CREATE TABLE IF NOT EXISTS \(table) (\"name_key\" TEXT NOT NULL, \"table_name\" TEXT NOT NULL)",
                "CREATE INDEX IF NOT EXISTS \"_socload_table_names_by_name\" ON \(table) (\"name_key\")",
                "CREATE INDEX IF NOT EXISTS \"_socload_table_names_by_table\" ON \(table) (lower(\"table_name\"))"]
    }

    /// Forgets what a table claimed; bind its name. Names are compared lowercased, as the claim
    /// checks compare them.
    public var deleteStatement: String {
        "DELETE FROM \(dialect.table(Self.tableName)) WHERE lower(\"table_name\") = lower(\(dialect.placeholder(1)))"
    }

    /// One claim; bind the claimed name (lowercased) and the dataset's table.
    public var insertStatement: String {
        "INSERT INTO \(dialect.table(Self.tableName)) (\"name_key\", \"table_name\") "
            + "VALUES (\(dialect.placeholder(1)), \(dialect.placeholder(2)))"
    }

    /// The tables that claim any of `count` names; bind the names lowercased.
    public func ownersStatement(count: Int) -> String {
        "SELECT DISTINCT \"table_name\" FROM \(dialect.table(Self.tableName)) WHERE \"name_key\" IN ("
            + (1...max(count, 1)).map(dialect.placeholder).joined(separator: ", ") + ")"
    }

    /// The names a plan claims, lowercased: every table of it, every lookup of its tables, and
    /// the full-text table SQLite keeps beside its main table.
    public static func names(claimedBy plan: LoadPlan) -> Set<String> {
        var names = Set(plan.tables.map { $0.name.lowercased() })
        for table in plan.tables {
            names.formUnion(table.lookups.map { $0.table.lowercased() })
        }
        if plan.mainTable.fullText != nil {
            names.insert(PlanFullText.sqliteTable(of: plan.mainTable.name).lowercased())
        }
        return names
    }

    /// The rows of `insertStatement` for one plan.
    public static func rows(of plan: LoadPlan) -> [[DatabaseValue]] {
        names(claimedBy: plan).sorted().map { [.text($0), .text(plan.mainTable.name)] }
    }
}
