import SocloadCore
import SocloadDatabase

/// The counts a table's lookups keep, checked against the rows (`verify`) and made again from
/// them (`socload recount`), with the SQL both databases share (`LookupStatements`).
public struct SQLiteLookupCounts {
    let db: Database
    let table: PlanTable

    private var writing: LookupWriting { LookupWriting(table: table, dialect: SQLiteDialect()) }

    public init(db: Database, table: PlanTable) {
        self.db = db
        self.table = table
    }

    /// The kept counts that differ from the rows now.
    public func drifted() throws -> [KeptCountDrift] {
        try writing.driftQueries().compactMap { query in
            let rows = try db.fetchOne(Int.self, sql: query.sql) ?? 0
            return rows > 0 ? KeptCountDrift(lookupTable: query.lookupTable, countColumn: query.countColumn, rows: rows) : nil
        }
    }

    /// Every kept count made again from the rows, and pruning lookups pruned; in the caller's
    /// transaction.
    public func recount() throws {
        for sql in writing.recountStatements() { try db.execute(sql: sql) }
    }
}
