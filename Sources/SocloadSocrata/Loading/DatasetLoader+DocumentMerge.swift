import Foundation
import SocloadCore

/// `socload load --mode append|upsert`: a document's records into a table socload loaded
/// before, in one transaction, without replacing it. The table keeps its columns and types
/// (`TableMerge`): a column whose values the stored type cannot hold is refused by name, a new
/// column is refused or, with `--on-schema-change evolve`, added. Its lookups take the new
/// values and are counted again, an upserted parent's child rows are its record's elements
/// (`ChildRowsRefresh`), its fingerprints, change log and history follow the rows written
/// (`SyncChangeTracker`), and the catalog and refresh log say what was done.
extension DatasetLoader {
    /// Nil when the table does not exist yet: the caller makes it, as for replace.
    func mergeDocument(_ request: DocumentLoadRequest, plan documentPlan: LoadPlan, described: DescribedDocument,
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
        let storedKey = stored.mainTable.primaryKey
        if let key = request.primaryKey, key.map({ $0.lowercased() }) != storedKey.map({ $0.lowercased() }) {
            throw LoadError.recordsDoNotFit(table: entry.tableName, differences: [
                "key: \(entry.tableName) is keyed by \(storedKey.isEmpty ? "nothing" : storedKey.joined(separator: ", ")), "
                + "--pk asks for \(key.joined(separator: ", "))"])
        }
        var arriving = documentPlan
        let shaped = Self.shapedAsStored(request, stored: stored)
        if arriving.mainTable.primaryKey.isEmpty && !storedKey.isEmpty || shaped.glues != request.glues
            || shaped.childKeys != request.childKeys {
            // Keyed as the table is, so that child rows name their parents, and with its glue
            // tables and child keys.
            var keyed = shaped
            if arriving.mainTable.primaryKey.isEmpty, !storedKey.isEmpty { keyed.primaryKey = storedKey }
            var keyedNotes: [String] = []
            do {
                arriving = try self.documentPlan(keyed, described: described, notes: &keyedNotes)
                notes = keyedNotes
            } catch is PlanError {
                throw LoadError.recordsDoNotFit(table: entry.tableName, differences: [
                    "the records do not have \(storedKey.joined(separator: ", ")), the key of \(entry.tableName)"])
            }
            if let limit = destination.maximumNameBytes { arriving = arriving.withNamesShortened(toBytes: limit) }
        }
        if mode == .upsert, described.view != nil {
            // A description lists every column: the upsert writes only those the records have.
            arriving.tables[0].columns = try columnsPresent(in: arriving, path: path, records: described.records)
        }
        if mode == .upsert, storedKey.isEmpty {
            throw LoadError.unsupported("\(entry.tableName) has no key to upsert by: --mode append adds rows, "
                                        + "or load it again with --pk")
        }
        let merges = try mergePlans(stored: stored, arriving: arriving, described: described, policy: request.onSchemaChange)
        var writtenPlan = arriving
        var keptPlan = stored
        var changes: [SchemaChange] = []
        for (index, var merge) in merges {
            let storedIndex = stored.tables.firstIndex { $0.name.lowercased() == arriving.tables[index].name.lowercased() } ?? 0
            for column in merge.added {
                try sql.execute(sql.dialect.addColumnStatement(table: merge.table.name, column: column.name, type: column.type), [])
                keptPlan.tables[storedIndex].columns.append(PlanColumn(name: column.name, type: column.type, source: .absent))
                changes.append(SchemaChange(table: merge.table.name, kind: .columnAdded, name: column.name, after: column.type.rawValue))
            }
            merge.addColumns()
            var table = merge.table
            table.nesting = arriving.tables[index].nesting
            writtenPlan.tables[index] = table
        }
        notes += changes.map { "\($0.table): \($0.line)" }
        let main = writtenPlan.mainTable
        let missing = merges.first { $0.index == 0 }?.merge.missing ?? []
        let complete = missing.isEmpty
        let keepsHistory = stored.options?.keepsHistory == true
        if mode == .upsert, !complete, keepsHistory {
            throw LoadError.unsupported("\(entry.tableName) keeps the history of its rows, whose versions are whole rows: "
                                        + "the records lack \(missing.shortList()) (give every column, or use --mode replace)")
        }
        let refreshedAt = Self.now()
        // An upsert of some columns only cannot fingerprint whole rows: its changes are not counted.
        let tracker = mode == .upsert && !complete ? nil : try SyncChangeTracker(
            sql: sql, table: main, refreshedAt: refreshedAt,
            keptRefreshes: stored.options?.keptChangeRefreshes ?? RowChangeLog.defaultKeptRefreshes, keepsHistory: keepsHistory)
        if tracker == nil, mode == .upsert, !complete, !storedKey.isEmpty,
           try sql.tableExists(RowChangeSQL.fingerprintTables(of: main.name, dialect: sql.dialect).kept) {
            notes.append("the row changes of this upsert are not counted: the records lack \(missing.shortList())")
        }
        let baseUpserter = try transaction.upserter(for: main)
        let upserter = tracker?.upserter(wrapping: baseUpserter) ?? baseUpserter
        var children: [Int: (upserter: any RowUpserter, refresh: ChildRowsRefresh?)] = [:]
        for index in writtenPlan.tables.indices.dropFirst() where writtenPlan.tables[index].nesting != nil
            && writtenPlan.tables[index].glue == nil {
            let child = writtenPlan.tables[index]
            children[index] = (try transaction.upserter(for: child),
                               mode == .upsert ? try ChildRowsRefresh(sql: sql, parent: main, child: child) : nil)
        }
        // A glue table's links are upserted as on a replace, but only the links of the rows
        // written are withdrawn first: the parents' keys are noted as they go by.
        var glues: [Int: (writer: any TableWriter, parents: NotedKeys)] = [:]
        for index in writtenPlan.tables.indices.dropFirst() where writtenPlan.tables[index].glue != nil {
            let table = writtenPlan.tables[index]
            guard main.primaryKey.count == 1, let position = main.columns.firstIndex(where: { $0.name == main.primaryKey[0] }) else {
                throw LoadError.unsupported("\(table.name): a glue table needs a one-column key of \(main.name)")
            }
            let parents = try NotedKeys(sql: sql, name: "_socload_glue_parents_" + table.name, columns: [main.columns[position]],
                                        positions: [position])
            glues[index] = (try transaction.glueWriter(for: table, onlyFor: parents), parents)
        }
        let state = LoadState()
        state.source = request.displaySource
        state.bytesExpected = FileByteSource.size(of: path)
        var counts: [Int: (records: Int, inserted: Int)] = [:]
        func write(_ batch: RowBatch, into index: Int) throws {
            if let glue = glues[index] {
                try glue.writer.insert(batch)
                counts[index, default: (0, 0)].records += batch.rowCount
                return
            }
            let upserting = index == 0 ? upserter : children[index]?.upserter
            guard let upserting else { return }
            if index == 0 {
                for child in children.values { try child.refresh?.noteParents(batch) }
                for glue in glues.values { try glue.parents.note(batch) }
            }
            try children[index]?.refresh?.noteChildren(batch)
            let inserted = try upserting.upsert(batch)
            if mode == .append, inserted < batch.rowCount {
                let table = writtenPlan.tables[index]
                throw LoadError.keysAlreadyPresent(table: table.name, key: table.primaryKey, count: batch.rowCount - inserted,
                                                   firstRecord: batch.firstRowNumber,
                                                   lastRecord: batch.firstRowNumber + batch.rowCount - 1)
            }
            counts[index, default: (0, 0)].records += batch.rowCount
            counts[index, default: (0, 0)].inserted += inserted
        }
        // The main table's batches are gathered to 16,384 rows: each one costs the upserter and
        // the change tracker a few statements of their own (200 small ones made a 200,000-row
        // upsert into PostgreSQL take 14 s, large ones 4 s).
        var gathered: RowBatch?
        func gather(_ batch: RowBatch) throws {
            if gathered == nil { gathered = batch } else { gathered?.append(batch) }
            if let full = gathered, full.rowCount >= 16_384 || full.arena.count >= 8 << 20 { try flushGathered() }
        }
        func flushGathered() throws {
            guard let batch = gathered else { return }
            gathered = nil
            try write(batch, into: 0)
        }
        let storable = destination.storableValues
        let flattenedNames = described.flattenedNames
        let records = described.records
        let planned = writtenPlan
        let ending = try withProducer({ stop, channel in
            DocumentRowProducer.produce(path: path, records: records, plan: planned, request: request,
                                        flattenedNames: flattenedNames, storable: storable, stop: stop, channel: channel)
        }, handle: { (item: DocumentRowProducer.Item) -> DocumentRowProducer.Ending? in
            switch item {
            case let .batch(index, batch, bytesRead):
                try index == 0 ? gather(batch) : write(batch, into: index)
                state.rowCount = counts[0]?.records ?? 0
                state.bytesRead = bytesRead
                reportProgress(state)
            case let .end(ending):
                return ending
            case .failure(let error):
                throw error
            }
            return nil
        })
        try cancellation?.check()
        let invalidCells = ending.invalidCells
        try flushGathered()
        notes += try fieldsNotDescribed(request, ending, records: counts[0]?.records ?? 0)
        try upserter.finish()
        var childCounts: [ChildTableCount] = []
        for index in children.keys.sorted() {
            try children[index]?.upserter.finish()
            let removed = try children[index]?.refresh?.finish() ?? 0
            let table = writtenPlan.tables[index]
            childCounts.append(ChildTableCount(table.name, counts[index]?.records ?? 0))
            if removed > 0 { notes.append("\(table.name): \(removed) element\(removed == 1 ? "" : "s") of the upserted rows removed") }
        }
        for index in glues.keys.sorted() {
            notes += try glues[index]?.writer.finish(strict: request.strict) ?? []
            childCounts.append(ChildTableCount(writtenPlan.tables[index].name, counts[index]?.records ?? 0))
        }
        let written = counts[0] ?? (0, 0)
        var refreshed = entry
        refreshed.rowCount = try upserter.rowCount()
        refreshed.fetchedAt = refreshedAt
        refreshed.planJSON = keptPlan.jsonText
        refreshed.partialReason = "rows were added by load --mode \(mode.rawValue) since the table was loaded "
            + "(the invalid-cell counts are the first load's)"
        try transaction.catalog.record(refreshed)
        try transaction.catalog.recordSchemaChanges(changes, at: refreshedAt)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        try transaction.catalog.recordRefresh(RefreshRecord(
            table: entry.tableName, refreshedAt: refreshedAt, kind: mode.rawValue, source: state.source,
            rowsUpdatedAt: entry.rowsUpdatedAt, rowCount: refreshed.rowCount, schemaChanges: changes.count,
            inserted: written.inserted, updated: tracker?.counts?.changed ?? (written.records - written.inserted),
            unchanged: tracker?.counts?.unchanged, seconds: seconds))
        var summary = LoadSummary(tableName: entry.tableName, rowCount: refreshed.rowCount, columnCount: main.storedColumns.count,
                                  source: state.source, elapsed: seconds, catalogEntry: refreshed,
                                  invalidCells: invalidCells.keys.sorted().flatMap { invalidCells[$0] ?? [] }, notes: notes)
        summary.schemaChanges = changes
        summary.rowChanges = tracker?.counts
        summary.childTables = childCounts
        summary.merged = MergedRows(mode: mode, records: written.records, inserted: written.inserted)
        return summary
    }

    /// An append or upsert of a document with no record (an empty array, a CSV of a header alone)
    /// into a table socload loaded: nothing to add, the table as it was, `0 records`. Into any
    /// other table, `otherwise` (there are no columns to make one of).
    func mergeNothing(_ request: DocumentLoadRequest, into table: String, start: UInt64, otherwise: any Error) throws -> LoadSummary {
        try destination.performLoad { transaction in
            guard let entry = try transaction.catalog.entry(for: table, withDescription: false),
                  entry.tableName.lowercased() == table.lowercased() else { throw otherwise }
            var summary = LoadSummary(tableName: entry.tableName, rowCount: entry.rowCount,
                                      columnCount: entry.plan?.mainTable.storedColumns.count ?? 0, source: request.displaySource,
                                      elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, catalogEntry: entry)
            summary.merged = MergedRows(mode: request.mode, records: 0, inserted: 0)
            return summary
        }
    }
}
