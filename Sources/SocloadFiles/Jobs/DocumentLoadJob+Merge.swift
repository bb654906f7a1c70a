import Foundation
import SocloadCore
import SocloadEngine
import SocloadTransport

/// `socload load --mode append|upsert`: a document's records into a table socload loaded
/// before, in one transaction, without replacing it. The table keeps its columns and types
/// (`TableMerge`): a column whose values the stored type cannot hold is refused by name, a new
/// column is refused or, with `--on-schema-change evolve`, added. Its lookups take the new
/// values and are counted again, an upserted parent's child rows are its record's elements
/// (`ChildRowsRefresh`), its fingerprints, change log and history follow the rows written
/// (`SyncChangeTracker`), and the catalog and refresh log say what was done.
extension DocumentLoadJob {
    /// Nil when the table does not exist yet: the caller makes it, as for replace.
    func merge(plan documentPlan: LoadPlan, described: DescribedDocument,
                       notes: [String], path: String, transaction: any LoadTransaction,
                       start: UInt64) throws -> LoadSummary? {
        let name = documentPlan.mainTable.name
        let mode = request.mode
        guard let entry = try transaction.catalog.entry(for: name), entry.tableName.lowercased() == name.lowercased() else {
            if try transaction.tableExists(name) {
                throw LoadError.tableTaken(name, reason: "it exists and socload did not load it (a table of yours?): "
                                           + "--mode \(mode.rawValue) adds only to tables socload loaded")
            }
            return nil
        }
        guard let stored = entry.plan, let sql = transaction.sql else {
            throw LoadError.unsupported("\(entry.tableName) was loaded by an older socload: load it again with --mode replace first")
        }
        var notes = notes
        if request.keepsHistory, stored.options?.keepsHistory != true {
            notes.append("--history is for a new table: \(entry.tableName) was loaded without it (--mode replace --history keeps it)")
        }
        if !request.extractions.isEmpty || request.geometryColumn != nil || request.distributeBy != nil {
            notes.append("--extract, --geometry and --distribute-by shape a new table: \(entry.tableName) keeps the shape it was loaded with")
        }
        let arriving = try arrivingPlan(documentPlan: documentPlan, stored: stored, table: entry.tableName,
                                        described: described, path: path, notes: &notes)
        let merged = try applyMerges(stored: stored, arriving: arriving, described: described, policy: request.onSchemaChange,
                                     sql: sql)
        let (writtenPlan, keptPlan, changes, missing) = (merged.written, merged.kept, merged.changes, merged.missing)
        notes += changes.map { "\($0.table): \($0.line)" }
        let main = writtenPlan.mainTable
        let complete = missing.isEmpty
        let keepsHistory = stored.options?.keepsHistory == true
        if mode == .upsert, !complete, keepsHistory {
            throw LoadError.unsupported("\(entry.tableName) keeps the history of its rows, whose versions are whole rows: "
                                        + "the records lack \(missing.shortList()) (give every column, or use --mode replace)")
        }
        let refreshedAt = LoadState<Void>.now()
        // An upsert of some columns only cannot fingerprint whole rows: its changes are not counted.
        let tracker = mode == .upsert && !complete ? nil : try SyncChangeTracker(
            sql: sql, table: main, refreshedAt: refreshedAt,
            keptRefreshes: stored.options?.keptChangeRefreshes ?? RowChangeLog.defaultKeptRefreshes, keepsHistory: keepsHistory)
        if tracker == nil, mode == .upsert, !complete, !stored.mainTable.primaryKey.isEmpty,
           try sql.tableExists(RowChangeSQL.fingerprintTables(of: main.name, dialect: sql.dialect).kept) {
            notes.append("the row changes of this upsert are not counted: the records lack \(missing.shortList())")
        }
        let writing = try MergeWriting(plan: writtenPlan, mode: mode, tracker: tracker, sql: sql, transaction: transaction)
        let state = LoadState<Void>()
        state.source = request.displaySource
        state.bytesExpected = FileByteSource.size(of: path)
        let ending = try writeRecords(path, described: described, plan: writtenPlan, request: request, state: state) { batch, index in
            try writing.write(batch, table: index)
            return writing.recordsWritten
        }
        try context.cancellation?.check()
        let written = try writing.finish(strict: request.strict)
        notes += try fieldsNotDescribed(request, ending, records: written.written.records)
        notes += written.notes
        var refreshed = entry
        refreshed.rowCount = try writing.rowCount()
        refreshed.fetchedAt = refreshedAt
        refreshed.planJSON = keptPlan.jsonText
        refreshed.partialReason = "rows were added by load --mode \(mode.rawValue) since the table was loaded "
            + "(the invalid-cell counts are the first load's)"
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let counts = written.written
        try transaction.catalog.recordLoad(refreshed, schemaChanges: changes, refresh: RefreshRecord(
            table: entry.tableName, refreshedAt: refreshedAt, kind: mode.rawValue, source: state.source,
            rowsUpdatedAt: entry.rowsUpdatedAt, rowCount: refreshed.rowCount, schemaChanges: changes.count,
            inserted: counts.inserted, updated: tracker?.counts?.changed ?? (counts.records - counts.inserted),
            unchanged: tracker?.counts?.unchanged, seconds: seconds))
        let invalidCells = ending.invalidCells
        var summary = LoadSummary(tableName: entry.tableName, rowCount: refreshed.rowCount, columnCount: main.storedColumns.count,
                                  source: state.source, elapsed: seconds, catalogEntry: refreshed,
                                  invalidCells: invalidCells.keys.sorted().flatMap { invalidCells[$0] ?? [] }, notes: notes)
        summary.schemaChanges = changes
        summary.rowChanges = tracker?.counts
        summary.childTables = written.childTables
        summary.merged = MergedRows(mode: mode, records: counts.records, inserted: counts.inserted)
        return summary
    }
}
