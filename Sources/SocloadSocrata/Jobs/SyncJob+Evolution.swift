import SocloadCore

/// `sync --on-schema-change evolve`: the table keeps the columns it had, so a sync can go on
/// when the portal added, removed or renamed columns: a new column is added to the table
/// (NULL in the rows not synced), a removed one stays and is NULL in the synced rows, a renamed
/// one keeps its old name. A retyped column cannot change in place: that still stops the sync.
extension SyncJob {
    struct SyncEvolution {
        /// The plan the table has now (its columns kept), which the upserter writes.
        var plan: LoadPlan
        /// How each batch made for the portal's plan becomes one of `plan` (nil: the same).
        var sources: [Int?]?
        /// The changes this sync made or kept for the first time, logged and said.
        var changes: [SchemaChange]
    }

    func evolveForSync(_ arriving: LoadPlan, stored: inout LoadPlan, changes: [SchemaChange], policy: SchemaChangePolicy,
                       transaction: any LoadTransaction) throws -> SyncEvolution {
        let table = stored.mainTable.name
        guard policy == .evolve else {
            throw LoadError.schemaChanged(table: table, differences: changes.map(\.line))
        }
        let retyped = changes.filter { $0.kind == .columnRetyped }
        guard retyped.isEmpty else {
            throw LoadError.schemaChanged(table: table, differences: retyped.map(\.line)
                                          + ["a sync cannot retype a column in place"])
        }
        guard let sql = transaction.sql else { throw LoadError.unsupported("--on-schema-change evolve needs a SQL database") }
        let evolved = arriving.evolved(keepingColumnsOf: stored, changes: changes)
        for column in evolved.mainTable.columns where stored.mainTable.column(named: column.name) == nil {
            try sql.execute(sql.dialect.addColumnStatement(table: table, column: column.name, type: column.type), [])
        }
        let said = changes.filter { !evolved.isAlreadyKept($0, in: stored) }
        stored.tables[0].columns = evolved.mainTable.columns
        var plan = arriving
        plan.tables[0] = stored.mainTable
        return SyncEvolution(plan: plan, sources: ReshapingTableWriter.sources(for: plan.mainTable, arriving: arriving.mainTable),
                             changes: said)
    }
}
