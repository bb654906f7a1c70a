import Foundation
import SocloadCore
import SocloadEngine
import SocloadTransport

/// `socload load`: a plain JSON document (an array of objects, NDJSON, a saved SODA response) or
/// a CSV file into one typed table, in one transaction, with the same plan, converter and
/// destinations as a Socrata fetch. One job with its request: the document is spooled, described
/// (`+Description`: from `--metadata`, else inferred from every value), planned, then replaces
/// its table or is merged into it (`+Merge`: `--mode append|upsert`).
package struct DocumentLoadJob {
    let context: LoadContext
    let request: DocumentLoadRequest
    /// Reads a `--metadata` description (a portal's: the job knows none).
    let describe: DocumentDescriber

    package init(context: LoadContext, request: DocumentLoadRequest, describe: @escaping DocumentDescriber) {
        self.context = context
        self.request = request
        self.describe = describe
    }

    /// Runs the load; a `DocumentError` is said with the file it is in.
    package func run(onSpool: () -> Void) throws -> LoadSummary {
        do {
            return try loadDocumentRecords(request, onSpool: onSpool)
        } catch let error as DocumentError {
            // Said with the file it is in (standard input is just "line N").
            if request.source == FileByteSource.standardInput { throw error }
            throw DocumentError.inDocument(request.displaySource, error)
        }
    }

    private func loadDocumentRecords(_ request: DocumentLoadRequest, onSpool: () -> Void) throws -> LoadSummary {
        try context.reportingCancellation {
            let start = DispatchTime.now().uptimeNanoseconds
            let spool = try DocumentSpool.open(request.source, http: context.http, retry: context.retry, cancellation: context.cancellation,
                                               onRetry: context.retryNotice, onSpool: onSpool, onBytes: { _ in })
            defer { spool.close() }
            let (described, planned, plannedNotes): (DescribedDocument, LoadPlan, [String])
            do {
                (described, planned, plannedNotes) = try DocumentRecordSource.sayingWhyCSV(source: request.source, format: request.document.format,
                                                                                          path: spool.path) {
                    let described = try describedDocument(request, spool: spool)
                    var notes: [String] = []
                    return (described, try documentPlan(request, described: described, notes: &notes), notes)
                }
            } catch let error as LoadError where request.mode != .replace {
                guard case .noFields(let table, _) = error else { throw error }
                return try mergeNothing(request, into: table, start: start, otherwise: error)
            }
            let notes = plannedNotes
            var plan = planned
            if let limit = context.destination.maximumNameBytes { plan = plan.withNamesShortened(toBytes: limit) }
            try context.destination.columnLimit?.check(plan)
            return try context.destination.performLoad { transaction in
                if request.mode != .replace, let merged = try merge(
                    plan: plan, described: described, notes: notes, path: spool.path, transaction: transaction, start: start) {
                    return merged
                }
                return try replaceDocument(request, plan: plan, described: described, notes: notes, path: spool.path,
                                           transaction: transaction, start: start)
            }
        }
    }

    /// The replace job of a document: a new copy of its table and of its child tables, its glue
    /// tables' links upserted, in the load's transaction.
    private func replaceDocument(_ request: DocumentLoadRequest, plan: LoadPlan, described: DescribedDocument, notes: [String],
                                 path: String, transaction: any LoadTransaction, start: UInt64) throws -> LoadSummary {
        let state = LoadState<Void>(schemaPolicy: request.onSchemaChange, keptChangeRefreshes: request.keptChangeRefreshes,
                              keepsHistory: request.keepsHistory)
        state.source = request.displaySource
        state.bytesExpected = FileByteSource.size(of: path)
        let table = try TableReplacement(plan, columns: described.portalDescription?.columns ?? [], options: state.options,
                                         capabilities: context.destination.capabilities, transaction: transaction, rowsFollowThePlan: true)
        state.table = table
        let writing = try ReplaceWriting(table, transaction: transaction)
        let ending = try writeRecords(path, described: described, plan: table.plan, request: request, state: state) { batch, index in
            try writing.write(batch, table: index)
            return writing.mainRows
        }
        try context.cancellation?.check()
        let unmatched = described.records.unmatchedNames.value
        var notes = notes + (try fieldsNotDescribed(request, ending, records: state.rowCount, saidElsewhere: unmatched))
        notes += state.allNotes + (try writing.finishMainTable(strict: request.strict))
        if !unmatched.isEmpty, let metadata = request.document.metadata {
            notes.append("\(unmatched.shortList()): not \(unmatched.count == 1 ? "a column" : "columns") of "
                         + "\(CredentialRedaction.withoutCredentials(metadata)) (by field name or display name), not loaded")
        }
        notes += try writing.finishNestedTables(strict: request.strict, skipped: ending.skipped)
        let entry = documentEntry(table.plan, described: described, rowCount: state.rowCount, source: state.source,
                                  refreshedAt: state.refreshedAt, invalidCells: ending.invalidCells[0] ?? [])
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        try transaction.catalog.recordLoad(entry, schemaChanges: state.schemaChanges,
                                           refresh: state.refreshRecord(entry, kind: "load", seconds: seconds))
        let invalidCells = ending.invalidCells
        var summary = LoadSummary(tableName: entry.tableName, rowCount: state.rowCount,
                                  columnCount: table.plan.mainTable.storedColumns.count, source: state.source, elapsed: seconds,
                                  catalogEntry: entry, invalidCells: invalidCells.keys.sorted().flatMap { invalidCells[$0] ?? [] },
                                  notes: notes)
        summary.schemaChanges = state.schemaChanges
        summary.rowChanges = table.changeTracker?.counts
        summary.childTables = writing.childTables
        return summary
    }

    /// Reads the document's records on the pipeline into `write` (a batch, its table's place in
    /// the plan; it returns the main table's rows so far), with the load's progress.
    func writeRecords(_ path: String, described: DescribedDocument, plan: LoadPlan, request: DocumentLoadRequest, state: LoadState<Void>,
                     write: (RowBatch, Int) throws -> Int) throws -> DocumentRowSource.Ending {
        let source = DocumentRowSource(path: path, records: described.records, plan: plan, flatten: request.document.flatten,
                                       strict: request.strict,
                                       flattenedNames: described.flattenedNames, storable: context.destination.storableValues)
        return try RowPipeline(cancellation: context.cancellation).run(source) { event -> DocumentRowSource.Ending? in
            switch event {
            case let .batch(index, batch, bytesRead, _):
                state.rowCount = try write(batch, index)
                state.bytesRead = bytesRead
                context.reportProgress(state)
            case .end(let ending):
                return ending
            }
            return nil
        }
    }

    /// The catalog entry of a document's load. A page is often a slice (`$where`, `$limit`): when
    /// its rows are not the ones the description counts, verify says it cannot be compared
    /// rather than that it differs.
    private func documentEntry(_ plan: LoadPlan, described: DescribedDocument, rowCount: Int, source: String,
                               refreshedAt: String, invalidCells: [InvalidCells]) -> CatalogEntry {
        // A platform's whole dataset is compared by verify (its key's count); only a slice is partial.
        let partial = described.portalDescription?.statedRowCount.flatMap { stated -> String? in
            guard stated != rowCount else { return nil }
            guard let origin = request.origin else {
                return "the document holds \(rowCount) row\(rowCount == 1 ? "" : "s"), the description counts \(stated)"
            }
            return origin.isSlice ? "\(rowCount) row\(rowCount == 1 ? " was" : "s were") loaded (--limit), the portal counts \(stated)" : nil
        }
        return CatalogEntry(
            tableName: plan.mainTable.name, datasetID: request.origin?.datasetID ?? described.portalDescription?.datasetID,
            domain: request.origin?.domain,
            name: described.portalDescription?.name, sourceURL: source, fetchedAt: refreshedAt,
            rowsUpdatedAt: request.origin?.dataUpdatedAt, rowCount: rowCount,
            columnsJSON: described.portalDescription?.columnsJSON ?? "[]", columnMappingJSON: plan.columnMappingJSON, etag: nil,
            lastModified: nil, requestSignature: request.origin?.requestSignature ?? "load", planJSON: plan.jsonText, invalidCellsJSON: LoadPlan.encode(invalidCells),
            partialReason: partial, dictionaryJSON: described.portalDescription?.dictionaryJSON,
            datasetDescription: described.portalDescription?.datasetDescription)
    }

    /// With `--metadata`, the records' fields the description lacks, in a note (their values are
    /// not loaded); records none of whose data fields it describes are refused, since the
    /// description is not theirs (the load is undone).
    /// `saidElsewhere`: fields another note names already (a CSV's header names that are no
    /// column of the description), left out of this one.
    func fieldsNotDescribed(_ request: DocumentLoadRequest, _ ending: DocumentRowSource.Ending,
                            records: Int, saidElsewhere: [String] = []) throws -> [String] {
        guard let metadata = request.document.metadata.map(CredentialRedaction.withoutCredentials) else { return [] }
        let outside = ending.fieldsOutsidePlan.filter { !ColumnMetadata.isSystemField($0) }
        if records > 0, !ending.metPlanDataField, !outside.isEmpty {
            throw DocumentError.notDescribed(fields: outside, metadata: metadata)
        }
        guard !outside.isEmpty else { return [] }
        func note(_ fields: [String]) -> String {
            "\(fields.shortList()): \(fields.count == 1 ? "a field" : "fields") of the records that \(metadata) "
                + "does not describe, not loaded"
        }
        if request.strict { throw DocumentError.undescribed(note(outside) + " (--strict)") }
        let unsaid = outside.filter { !saidElsewhere.contains($0) }
        return unsaid.isEmpty ? [] : [note(unsaid)]
    }

    /// The plan: the main table of the view's columns, each inferred field typed as inferred,
    /// then the request's own `--type`s; a child table for each field of arrays of objects, when
    /// the main table has a key (else the arrays stay JSON text, and a note says why).
    func documentPlan(_ request: DocumentLoadRequest, described: DescribedDocument,
                              notes: inout [String]) throws -> LoadPlan {
        let name = try request.targetTable()
        let lowered = name.lowercased()
        if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("_socload_") || name.isEmpty {
            throw LoadError.reservedTableName(name)
        }
        if name.contains("\u{0}") { throw LoadError.badName("the table name \(JSONValue.quoted(name))") }
        // No record with a field: nothing to plan (options naming columns cannot be checked).
        if described.portalDescription == nil, described.fields.isEmpty {
            throw LoadError.noFields(table: name, source: request.displaySource)
        }
        let hasKey = request.primaryKey != nil || described.fields.contains(":id")
            || (described.portalDescription?.columns.contains { $0.fieldName == ":id" } ?? false)
        var children = described.arraysOfObjects.filter { request.typeOverrides[$0.field] == nil }
        if !hasKey, !children.isEmpty {
            notes.append("\(children.map(\.field).joined(separator: ", ")) hold\(children.count == 1 ? "s" : "") arrays of objects, "
                         + "kept as JSON text: child tables need the key of \(name) (--pk, or :id in the records)")
            children = []
        }
        if let unknown = request.document.childKeys.keys.sorted().first(where: { field in !children.contains { $0.field == field } }) {
            throw PlanError("--child-key \(unknown):...: \(unknown) is not a field of arrays of objects in the records")
        }
        if let glue = request.document.glues.first(where: { glue in !children.contains { $0.field == glue.arrayField } }) {
            throw PlanError("--glue \(glue.arrayField):...: \(glue.arrayField) is not a field of arrays of objects in the records"
                            + (hasKey ? "" : " (or \(name) has no key: --pk)"))
        }
        let childFields = Set(children.map(\.field))
        let numbersAsText = described.numbersAsText.filter { field in
            (request.typeOverrides[field] ?? described.types[field] ?? .text) == .text && request.typeOverrides[field] == nil
        }
        if !numbersAsText.isEmpty {
            let one = numbersAsText.count == 1
            notes.append("\(numbersAsText.shortList()): every value \(one ? "is a number" : "of these is a number") written as a "
                         + "string (as SODA 2 sends numbers), stored as text; --metadata VIEW.json types \(one ? "it" : "them") as "
                         + "fetch does, or --type \(numbersAsText[0])=decimal")
        }
        let options = request.tableOptions.planOptions(tableName: name)
        var plan: LoadPlan
        if let given = described.portalDescription {
            // A real description: typed as fetch types it.
            plan = try given.plan(excluding: childFields, options: options)
        } else {
            plan = try LoadPlan.document(fields: described.fields.filter { !childFields.contains($0) }, types: described.types,
                                         options: options)
        }
        if plan.mainTable.columns.isEmpty {
            // Without a description the columns are the records' fields: there were none.
            throw described.portalDescription == nil ? LoadError.noFields(table: name, source: request.displaySource)
                : LoadError.noColumns(name)
        }
        if let column = plan.mainTable.columns.first(where: { $0.name.contains("\u{0}") }) {
            throw LoadError.badName("the column name \(JSONValue.quoted(column.name))")
        }
        for child in children {
            if let glue = request.document.glues.first(where: { $0.arrayField == child.field }) {
                try plan.addGlueTable(glue, elementFields: child.elements.fields, types: child.elements.types)
            } else {
                try plan.addChildTable(arrayField: child.field, elementFields: child.elements.fields, types: child.elements.types,
                                       childKey: request.document.childKeys[child.field])
            }
        }
        try plan.distributeNestedTables()
        return plan
    }
}
