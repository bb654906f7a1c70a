import SocloadCore
import SocloadDatabase

/// Measures a SQLite table for the portal's checks (`PortalCheck`): counts, bounds, membership.
public enum SQLiteVerifier {
    /// Holds the table of `tableOrDatasetID` against the statistics its catalog entry recorded;
    /// nil when the catalog has no such table.
    ///
    ///     let verification = try queue.read { db in try SQLiteVerifier.verify("n5m4_mism", db: db) }
    ///     for line in verification?.differenceLines ?? [] { print(line) }
    public static func verify(_ tableOrDatasetID: String, db: Database) throws -> PortalVerification? {
        guard let entry = try SQLiteCatalog(db: db).entry(for: tableOrDatasetID) else { return nil }
        guard let plan = entry.plan else {
            return PortalVerification(tableName: entry.tableName, partialReason: "loaded by an older socload, without a plan",
                                      results: [])
        }
        guard try db.tableExists(entry.tableName) else { throw LoadError.tableMissing(entry.tableName) }
        let checks = PortalCheck.checks(plan: plan, columns: entry.columns, invalidCells: entry.invalidCells)
        let table = relation(of: entry.tableName, plan: plan)
        var results: [PortalCheckResult] = []
        for check in checks {
            let answer = try measure(check, table: table, db: db)
            results.append(PortalCheckResult(check: check, answer: answer))
        }
        var verification = PortalVerification(tableName: entry.tableName, partialReason: entry.partialReason, results: results)
        verification.driftedCounts = try SQLiteLookupCounts(db: db, table: plan.mainTable).drifted()
        return verification
    }

    /// The table with the value columns of its lookups beside its own (see
    /// `LookupStatements.relationWithValues`), quoted.
    static func relation(of table: String, plan: LoadPlan?) -> String {
        LookupStatements.relationWithValues(
            of: table.quotedDatabaseIdentifier, key: PlanLookup.keyColumn.quotedDatabaseIdentifier,
            lookups: (plan?.mainTable.lookups ?? []).map { lookup in
                (lookup.table.quotedDatabaseIdentifier, lookup.foreignKey.quotedDatabaseIdentifier,
                 lookup.valueColumns.map(\.quotedDatabaseIdentifier))
            })
    }

    /// How many cells of each of the plan's columns are set; a column extracted into a lookup is
    /// counted through its foreign key.
    ///
    ///     let counts = try queue.read { db in try SQLiteVerifier.nonNullCounts(of: "n5m4_mism", db: db) }
    public static func nonNullCounts(of table: String, db: Database) throws -> [String: Int] {
        guard let entry = try SQLiteCatalog(db: db).entry(for: table), let plan = entry.plan else { return [:] }
        let columns = plan.mainTable.columns.map(\.name)
        guard !columns.isEmpty else { return [:] }
        let row = try db.fetchRows(sql: "SELECT " + columns.map { "count(\($0.quotedDatabaseIdentifier))" }.joined(separator: ", ")
                                        + " FROM " + relation(of: entry.tableName, plan: plan)).first
        var counts: [String: Int] = [:]
        for (index, column) in columns.enumerated() {
            if case .integer(let count)? = row?[index] { counts[column] = Int(count) }
        }
        return counts
    }

    /// The table's answer to one check, as text (nil for NULL).
    static func measure(_ check: PortalCheck, table: String, db: Database) throws -> String? {
        let columns = check.columns.map(\.quotedDatabaseIdentifier)
        let column = columns[0]
        let value: DatabaseValue?
        switch check.question {
        case .nonNullCount:
            let anySet = columns.map { "\($0) IS NOT NULL" }.joined(separator: " OR ")
            value = try db.fetchValue(sql: "SELECT count(*) FROM \(table) WHERE \(anySet)")
        case .smallest:
            value = try db.fetchValue(sql: "SELECT min(\(column)) FROM \(table)")
        case .largest:
            value = try db.fetchValue(sql: "SELECT max(\(column)) FROM \(table)")
        case .contains(let probe):
            value = try db.fetchValue(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(column) = ?)",
                                      arguments: [databaseValue(probe)])
        }
        switch value {
        case .integer(let number)?: return String(number)
        case .real(let number)?: return String(number)
        case .text(let text)?: return text
        default: return nil
        }
    }

    private static func databaseValue(_ cell: CellValue) -> DatabaseValue {
        switch cell {
        case .null: return .null
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .text(let value), .decimal(let value): return .text(value)
        }
    }
}
