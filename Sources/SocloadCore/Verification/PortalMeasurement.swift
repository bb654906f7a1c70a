/// The SQL that holds a loaded table against the portal's statistics, written once for every
/// database (`SQLDialect`): what `verify` and `info --columns` run.
public struct PortalMeasurement: Sendable {
    public let dialect: any SQLDialect

    public init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    /// The table with the value columns of its lookups beside its own (see
    /// `LookupStatements.relationWithValues`): what counts through a foreign key read.
    public func relation(of table: String, plan: LoadPlan?) -> String {
        LookupStatements.relationWithValues(
            of: dialect.table(table), key: PlanLookup.keyColumn.quotedDatabaseIdentifier,
            lookups: (plan?.mainTable.lookups ?? []).map { lookup in
                (dialect.table(lookup.table), lookup.foreignKey.quotedDatabaseIdentifier, lookup.valueColumns.map(\.quotedDatabaseIdentifier))
            })
    }

    /// One row: the number of set cells of each column, in order.
    public func nonNullCounts(of columns: [String], in relation: String) -> SQLFragment {
        SQLFragment(sql: "SELECT " + columns.map { "count(\($0.quotedDatabaseIdentifier))" }.joined(separator: ", ")
                       + " FROM \(relation)", arguments: [])
    }

    /// The statement whose one value answers `check` (nil read as NULL).
    public func statement(for check: PortalCheck, in relation: String) -> SQLFragment {
        let column = check.columns[0].quotedDatabaseIdentifier
        switch check.question {
        case .nonNullCount:
            let anySet = check.columns.map { "\($0.quotedDatabaseIdentifier) IS NOT NULL" }.joined(separator: " OR ")
            return SQLFragment(sql: "SELECT " + dialect.text("count(*)") + " FROM \(relation) WHERE \(anySet)", arguments: [])
        case .smallest:
            return SQLFragment(sql: "SELECT " + dialect.text("min(\(dialect.measured(column, type: check.type)))")
                                  + " FROM \(relation)", arguments: [])
        case .largest:
            return SQLFragment(sql: "SELECT " + dialect.text("max(\(dialect.measured(column, type: check.type)))")
                                  + " FROM \(relation)", arguments: [])
        case .contains(let probe):
            let exists = "CASE WHEN EXISTS (SELECT 1 FROM \(relation) WHERE \(dialect.comparable(column)) = "
                + "\(dialect.placeholder(1))) THEN 1 ELSE 0 END"
            return SQLFragment(sql: "SELECT " + dialect.text(exists), arguments: [Self.argument(probe)])
        }
    }

    /// Holds the table of `entry` against the statistics recorded with it. `tableExists` and
    /// `value` (the first value of a statement's first row, as text) reach the database;
    /// `driftedCounts` measures the counts the table's lookups keep.
    public func verify(_ entry: CatalogEntry, tableExists: (String) throws -> Bool,
                       value: (SQLFragment) throws -> String?,
                       driftedCounts: (PlanTable) throws -> [KeptCountDrift]) throws -> PortalVerification {
        guard let plan = entry.plan else {
            return PortalVerification(tableName: entry.tableName, partialReason: "loaded by an older socload, without a plan",
                                      results: [])
        }
        guard try tableExists(entry.tableName) else { throw LoadError.tableMissing(entry.tableName) }
        let relation = relation(of: entry.tableName, plan: plan)
        let results = try PortalCheck.checks(plan: plan, columns: entry.columns, invalidCells: entry.invalidCells).map { check in
            PortalCheckResult(check: check, answer: try value(statement(for: check, in: relation)))
        }
        var verification = PortalVerification(tableName: entry.tableName, partialReason: entry.partialReason, results: results)
        verification.driftedCounts = try driftedCounts(plan.mainTable)
        verification.hasPortalDescription = !entry.columns.isEmpty
        return verification
    }

    static func argument(_ cell: CellValue) -> DatabaseValue {
        switch cell {
        case .null: return .null
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .text(let value), .decimal(let value): return .text(value)
        }
    }
}
