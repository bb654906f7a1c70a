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
        guard let entry = try SQLiteCatalog(db: db).entry(for: tableOrDatasetID, withDescription: false) else { return nil }
        return try PortalMeasurement(dialect: SQLiteDialect()).verify(entry, tableExists: db.tableExists, value: { statement in
            switch try db.fetchValue(sql: statement.sql, arguments: StatementArguments(positional: statement.arguments)) {
            case .integer(let number)?: return String(number)
            case .real(let number)?: return String(number)
            case .text(let text)?: return text
            default: return nil
            }
        }, driftedCounts: { table in try SQLiteLookupCounts(db: db, table: table).drifted() })
    }

    /// How many cells of each of the plan's columns are set; a column extracted into a lookup is
    /// counted through its foreign key.
    ///
    ///     let counts = try queue.read { db in try SQLiteVerifier.nonNullCounts(of: "n5m4_mism", db: db) }
    public static func nonNullCounts(of table: String, db: Database) throws -> [String: Int] {
        guard let entry = try SQLiteCatalog(db: db).entry(for: table, withDescription: false), let plan = entry.plan else { return [:] }
        return try nonNullCounts(of: entry.tableName, columns: plan.mainTable.columns.map(\.name), db: db)
    }

    /// How many cells of each of `columns` are set, counted through the lookups the catalog
    /// records for the table.
    static func nonNullCounts(of table: String, columns: [String], db: Database) throws -> [String: Int] {
        guard !columns.isEmpty else { return [:] }
        let plan = try SQLiteCatalog(db: db).entry(for: table, withDescription: false).flatMap { $0.tableName.lowercased() == table.lowercased() ? $0.plan : nil }
        let measurement = PortalMeasurement(dialect: SQLiteDialect())
        let row = try db.fetchRows(sql: measurement.nonNullCounts(of: columns, in: measurement.relation(of: table, plan: plan)).sql).first
        var counts: [String: Int] = [:]
        for (index, column) in columns.enumerated() {
            if case .integer(let count)? = row?[index] { counts[column] = Int(count) }
        }
        return counts
    }
}
