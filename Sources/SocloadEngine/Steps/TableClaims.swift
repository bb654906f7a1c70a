import SocloadCore

/// The tables a load makes besides its own — child tables, glue tables, SQLite's full-text
/// index — and the table itself
/// may never take a table that is another loaded dataset's or a user's: such a load is refused
/// before anything is written (`LoadError.tableTaken`, exit 64).
enum TableClaims {
    /// Refuses `plan` when one of its tables is another dataset's or a user's; `previous` is the
    /// plan of the table's last load (its child and glue tables are its own).
    static func check(_ plan: LoadPlan, previous: LoadPlan?, transaction: any LoadTransaction) throws {
        let main = plan.mainTable.name.lowercased()
        let others = try transaction.catalog.plans(claiming: TableNameIndex.names(claimedBy: plan)).filter { $0.mainTable.name.lowercased() != main }
        func childOwner(_ name: String) -> String? {
            others.first { $0.tables.dropFirst().contains { $0.nesting != nil && $0.glue == nil && $0.name.lowercased() == name } }?
                .mainTable.name
        }
        if let owner = childOwner(main) {
            throw LoadError.tableTaken(plan.mainTable.name, reason: "it is a child table of \(owner)")
        }
        // SQLite keeps a full-text index in a table of its own, T_fts.
        if plan.mainTable.fullText != nil, let sql = transaction.sql, sql.dialect.fullTextColumn == nil {
            let index = PlanFullText.sqliteTable(of: plan.mainTable.name)
            if others.contains(where: { $0.mainTable.name.lowercased() == index.lowercased() }) {
                throw LoadError.tableTaken(index, reason: "it is the table of another loaded dataset (\(index))")
            }
            if previous?.mainTable.fullText == nil, try transaction.tableExists(index) {
                throw LoadError.tableTaken(index, reason: "it exists and is not the full-text index of \(plan.mainTable.name) (a table of yours?)")
            }
        }
        for table in plan.tables.dropFirst() where table.nesting != nil {
            let name = table.name.lowercased()
            // `sqlite` + `master` is `sqlite_master`; `_socload` + `datasets` the catalog.
            if name.hasPrefix("sqlite_") || name.hasPrefix("_socload_") { throw LoadError.reservedTableName(table.name) }
            if let other = others.first(where: { $0.mainTable.name.lowercased() == name }) {
                throw LoadError.tableTaken(table.name, reason: "it is the table of another loaded dataset (\(other.mainTable.name))")
            }
            if table.glue != nil {
                let isGlue = (others + (previous.map { [$0] } ?? [])).contains { plan in
                    plan.tables.contains { $0.glue != nil && $0.name.lowercased() == name }
                }
                if !isGlue, try transaction.tableExists(table.name) {
                    throw LoadError.tableTaken(table.name, reason: "it exists and is not a glue table (a table of yours?)")
                }
                continue
            }
            if let owner = childOwner(name) {
                throw LoadError.tableTaken(table.name, reason: "it is a child table of \(owner)")
            }
            let ours = previous?.tables.dropFirst().contains { $0.nesting != nil && $0.glue == nil && $0.name.lowercased() == name } ?? false
            if !ours, try transaction.tableExists(table.name) {
                throw LoadError.tableTaken(table.name, reason: "it exists and is not a child table of \(plan.mainTable.name) (a table of yours?)")
            }
        }
    }
}
