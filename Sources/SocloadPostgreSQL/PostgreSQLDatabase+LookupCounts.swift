import SocloadCore

/// The counts a table's lookups keep, checked against the rows (`verify`) and made again from
/// them (`socload recount`), with the SQL both databases share (`LookupStatements`).
extension PostgreSQLDatabase {
    /// True when the schema has a table of that name.
    public func tableExists(_ name: String) throws -> Bool {
        try connection.value("SELECT to_regclass($1) IS NOT NULL", [qualified(name)]) == "t"
    }

    private func statements(_ lookup: PlanLookup) -> LookupStatements {
        LookupStatements(lookupTable: qualified(lookup.table), key: PlanLookup.keyColumn.quotedDatabaseIdentifier,
                         values: lookup.columns.map { ($0.name.quotedDatabaseIdentifier, PostgreSQLLookups.nullStandIn($0.type)) })
    }

    /// The kept counts of `table`'s lookups that differ from its rows now.
    public func driftedCounts(of table: PlanTable) throws -> [KeptCountDrift] {
        var drifts: [KeptCountDrift] = []
        for lookup in table.lookups {
            for (column, distinct) in lookup.keptCounts {
                let sql = statements(lookup).driftedRows(table: qualified(table.name), foreignKey: lookup.foreignKey.quotedDatabaseIdentifier,
                                                         countColumn: column.quotedDatabaseIdentifier,
                                                         distinct: distinct?.quotedDatabaseIdentifier)
                let rows = Int(try connection.value(sql) ?? "0") ?? 0
                if rows > 0 { drifts.append(KeptCountDrift(lookupTable: lookup.table, countColumn: column, rows: rows)) }
            }
        }
        return drifts
    }

    /// Every kept count of `table`'s lookups made again from its rows (pruning lookups pruned),
    /// in one transaction; returns the drifts it repaired.
    @discardableResult
    public func recount(_ table: PlanTable) throws -> [KeptCountDrift] {
        try connection.execute("BEGIN")
        do {
            let drifts = try driftedCounts(of: table)
            let target = qualified(table.name)
            for lookup in table.lookups {
                for sql in lookup.recountStatements(statements(lookup), table: target) { try connection.execute(sql) }
            }
            try connection.execute("COMMIT")
            return drifts
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
