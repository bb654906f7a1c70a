import SocloadCore
import SocloadDatabase

/// The counts a table's lookups keep, checked against the rows (`verify`) and made again from
/// them (`socload recount`), with the SQL both databases share (`LookupStatements`).
public struct SQLiteLookupCounts {
    let db: Database
    let table: PlanTable

    public init(db: Database, table: PlanTable) {
        self.db = db
        self.table = table
    }

    /// The kept counts that differ from the rows now.
    public func drifted() throws -> [KeptCountDrift] {
        var drifts: [KeptCountDrift] = []
        let quotedTable = table.name.quotedDatabaseIdentifier
        for lookup in table.lookups {
            let statements = SQLiteLookups.statements(lookup)
            for (column, distinct) in lookup.keptCounts {
                let rows = try db.fetchOne(Int.self, sql: statements.driftedRows(
                    table: quotedTable, foreignKey: lookup.foreignKey.quotedDatabaseIdentifier,
                    countColumn: column.quotedDatabaseIdentifier, distinct: distinct?.quotedDatabaseIdentifier)) ?? 0
                if rows > 0 { drifts.append(KeptCountDrift(lookupTable: lookup.table, countColumn: column, rows: rows)) }
            }
        }
        return drifts
    }

    /// Every kept count made again from the rows, and pruning lookups pruned; in the caller's
    /// transaction.
    public func recount() throws {
        let quotedTable = table.name.quotedDatabaseIdentifier
        for lookup in table.lookups {
            for sql in lookup.recountStatements(SQLiteLookups.statements(lookup), table: quotedTable) { try db.execute(sql: sql) }
        }
    }
}
