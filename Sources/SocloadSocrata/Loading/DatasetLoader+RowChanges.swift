import Foundation
import SocloadCore

extension DatasetLoader {
    /// Starts the new copy of the plan's main table, counting what it changes against the old
    /// copy where the destination runs SQL (`RowChangeTracker`); `--keep-changes` is kept in the
    /// plan for later refreshes.
    func replaceTable(_ plan: inout LoadPlan, previous: LoadPlan?, transaction: any LoadTransaction,
                      state: LoadState) throws -> any TableWriter {
        if let kept = state.keptChangeRefreshes ?? previous?.options?.keptChangeRefreshes {
            plan.options?.keptChangeRefreshes = kept
        }
        if plan.tables[0].geometryColumn == nil, let kept = previous?.mainTable.geometryColumn {
            // --geometry is kept while the place is there.
            try? plan.tables[0].chooseGeometry(kept)
            plan.options?.geometryColumn = plan.tables[0].geometryColumn
        }
        let keepsHistory = state.keepsHistory || previous?.options?.keepsHistory == true
        if keepsHistory {
            guard !plan.mainTable.primaryKey.isEmpty else {
                throw PlanError("--history needs a key to follow each row by: \(plan.mainTable.name) has none (give --pk)")
            }
            plan.options?.keepsHistory = true
        }
        guard let sql = transaction.sql else {
            if keepsHistory { throw LoadError.unsupported("--history needs a SQL database") }
            return try transaction.replaceTable(plan.mainTable, previous: previous?.mainTable)
        }
        // For benchmarks: nothing counted, and no fingerprints kept that would go stale.
        if !keepsHistory, ProcessInfo.processInfo.environment["SOCLOAD_COUNT_CHANGES"] == "0" {
            let kept = RowChangeSQL.fingerprintTables(of: plan.mainTable.name, dialect: sql.dialect).kept
            try sql.dropTable(kept)
            return try transaction.replaceTable(plan.mainTable, previous: previous?.mainTable)
        }
        let tracker = try RowChangeTracker(sql: sql, table: plan.mainTable, previous: previous?.mainTable,
                                           refreshedAt: state.refreshedAt,
                                           keptRefreshes: plan.options?.keptChangeRefreshes ?? RowChangeLog.defaultKeptRefreshes,
                                           keepsHistory: keepsHistory)
        state.changeTracker = tracker
        return tracker.writer(wrapping: try transaction.replaceTable(plan.mainTable, previous: previous?.mainTable,
                                                                     comparison: tracker))
    }
}
