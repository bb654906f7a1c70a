import Foundation
import SocloadCore

extension TableReplacement {
    /// Starts the new copy of the plan's main table, counting what it changes against the old
    /// copy where the destination runs SQL (`RowChangeTracker`); `--keep-changes`, `--geometry`
    /// and `--history` are kept in the plan for later refreshes.
    static func startCopy(_ plan: inout LoadPlan, previous: LoadPlan?, options: Options,
                          transaction: any LoadTransaction) throws -> (any TableWriter, (any RowChangeCounting)?) {
        if let kept = options.keptChangeRefreshes ?? previous?.options?.keptChangeRefreshes {
            plan.options?.keptChangeRefreshes = kept
        }
        if plan.tables[0].geometryColumn == nil, let kept = previous?.mainTable.geometryColumn {
            // --geometry is kept while the place is there.
            try? plan.tables[0].chooseGeometry(kept)
            plan.options?.geometryColumn = plan.tables[0].geometryColumn
        }
        let keepsHistory = options.keepsHistory || previous?.options?.keepsHistory == true
        if keepsHistory {
            guard !plan.mainTable.primaryKey.isEmpty else {
                throw PlanError("--history needs a key to follow each row by: \(plan.mainTable.name) has none (give --pk)")
            }
            plan.options?.keepsHistory = true
        }
        guard let sql = transaction.sql else {
            if keepsHistory { throw LoadError.unsupported("--history needs a SQL database") }
            return (try transaction.replaceTable(plan.mainTable, previous: previous?.mainTable), nil)
        }
        // For benchmarks: nothing counted, and no fingerprints kept that would go stale.
        if !keepsHistory, ProcessInfo.processInfo.environment["SOCLOAD_COUNT_CHANGES"] == "0" {
            let kept = RowChangeSQL.fingerprintTables(of: plan.mainTable.name, dialect: sql.dialect).kept
            try sql.dropTable(kept)
            return (try transaction.replaceTable(plan.mainTable, previous: previous?.mainTable), nil)
        }
        let keptRefreshes = plan.options?.keptChangeRefreshes ?? RowChangeLog.defaultKeptRefreshes
        let settled = plan
        let newCopy = { () throws -> (writer: any TableWriter, tracker: RowChangeTracker) in
            let tracker = try RowChangeTracker(sql: sql, table: settled.mainTable, previous: previous?.mainTable,
                                               refreshedAt: options.refreshedAt, keptRefreshes: keptRefreshes, keepsHistory: keepsHistory)
            let writer = try transaction.replaceTable(settled.mainTable, previous: previous?.mainTable, comparison: tracker)
            return (tracker.writer(wrapping: writer), tracker)
        }
        if options.refreshesInPlace, !keepsHistory, let previous,
           let inPlace = try InPlaceRefresh(table: plan.mainTable, previous: previous, plan: plan, sql: sql,
                                            upserter: { try transaction.upserter(for: settled.mainTable) },
                                            refreshedAt: options.refreshedAt, keptRefreshes: keptRefreshes, fullCopy: newCopy) {
            return (inPlace, inPlace)
        }
        let (writer, tracker) = try newCopy()
        return (writer, tracker)
    }
}
