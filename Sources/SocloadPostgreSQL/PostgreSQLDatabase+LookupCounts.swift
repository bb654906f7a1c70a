import SocloadCore

/// The counts a table's lookups keep, checked against the rows (`verify`) and made again from
/// them (`socload recount`), with the SQL both databases share (`LookupStatements`).
extension PostgreSQLDatabase {
    /// True when the schema has a table of that name.
    public func tableExists(_ name: String) throws -> Bool {
        try connection.value("SELECT to_regclass($1) IS NOT NULL", [qualified(name)]) == "t"
    }

    /// The kept counts of `table`'s lookups that differ from its rows now.
    public func driftedCounts(of table: PlanTable) throws -> [KeptCountDrift] {
        try LookupWriting(table: table, dialect: dialect).driftQueries().compactMap { query in
            let rows = Int(try connection.value(query.sql) ?? "0") ?? 0
            return rows > 0 ? KeptCountDrift(lookupTable: query.lookupTable, countColumn: query.countColumn, rows: rows) : nil
        }
    }

    /// Every kept count of `table`'s lookups made again from its rows (pruning lookups pruned),
    /// in one transaction; returns the drifts it repaired.
    @discardableResult
    public func recount(_ table: PlanTable) throws -> [KeptCountDrift] {
        try connection.execute("BEGIN")
        do {
            // Citus: the reads of the distributed table and the writes to its reference lookups
            // on one connection per worker, as in a load.
            if table.distributionColumn != nil { try connection.execute("SET LOCAL citus.multi_shard_modify_mode TO 'sequential'") }
            let drifts = try driftedCounts(of: table)
            for sql in LookupWriting(table: table, dialect: dialect).recountStatements() { try connection.execute(sql) }
            try connection.execute("COMMIT")
            return drifts
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
