import Foundation
import SocloadCore

/// `socload load`: a plain JSON document (an array of objects, NDJSON, a saved SODA response)
/// into one typed table, in one transaction, with the same plan, converter and destinations as a
/// Socrata fetch.
extension DatasetLoader {
    /// Loads the document `request` names, replacing its table. Without `metadata` the column types
    /// are inferred from every value (see `FieldTypeInference`), which reads the document once
    /// before loading it; a URL or standard input is first copied to a temporary file (`onSpool`
    /// is told), so the types never depend on a sample.
    ///
    ///     let summary = try loader.loadDocument(DocumentLoadRequest(source: "committees.json"))
    public func loadDocument(_ request: DocumentLoadRequest, onSpool: () -> Void = {}) throws -> LoadSummary {
        do {
            return try loadDocumentRecords(request, onSpool: onSpool)
        } catch let error as DocumentError {
            // Said with the file it is in (standard input is just "line N").
            if request.source == FileByteSource.standardInput { throw error }
            throw DocumentError.inDocument(request.displaySource, error)
        }
    }

    private func loadDocumentRecords(_ request: DocumentLoadRequest, onSpool: () -> Void) throws -> LoadSummary {
        try reportingCancellation {
            let start = DispatchTime.now().uptimeNanoseconds
            let spool = try DocumentSpool.open(request.source, http: http, retry: retry, cancellation: cancellation,
                                               onRetry: retryNotice, onSpool: onSpool, onBytes: { _ in })
            defer { spool.close() }
            let (described, planned, plannedNotes): (DescribedDocument, LoadPlan, [String])
            do {
                (described, planned, plannedNotes) = try DocumentRecordSource.sayingWhyCSV(request, path: spool.path) {
                    let described = try documentView(request, spool: spool)
                    var notes: [String] = []
                    return (described, try documentPlan(request, described: described, notes: &notes), notes)
                }
            } catch let error as LoadError where request.mode != .replace {
                guard case .noFields(let table, _) = error else { throw error }
                return try mergeNothing(request, into: table, start: start, otherwise: error)
            }
            var notes = plannedNotes
            var plan = planned
            if let limit = destination.maximumNameBytes { plan = plan.withNamesShortened(toBytes: limit) }
            try destination.columnLimit?.check(plan)
            let columnsJSON = described.view?.columnsJSON ?? "[]"
            let bytesExpected = FileByteSource.size(of: spool.path)
            return try destination.performLoad { transaction in
                if request.mode != .replace, let merged = try mergeDocument(
                    request, plan: plan, described: described, notes: notes, path: spool.path, transaction: transaction, start: start) {
                    return merged
                }
                let state = LoadState()
                state.source = request.displaySource
                state.bytesExpected = bytesExpected
                state.schemaPolicy = request.onSchemaChange
                state.keptChangeRefreshes = request.keptChangeRefreshes
                state.keepsHistory = request.keepsHistory
                state.view = described.view
                let previousPlan = try transaction.catalog.entry(for: plan.mainTable.name, withDescription: false)
                    .flatMap { $0.tableName.lowercased() == plan.mainTable.name.lowercased() ? $0.plan : nil }
                try beginTable(plan, transaction: transaction, state: state, rowsFollowThePlan: true)
                guard let plan = state.plan, let writer = state.writer else { throw RowsJSONError.missingMetadata }
                // Every table's writer, by the table's place in the plan: the document's, then its
                // child tables (new copies) and glue tables (upserted).
                var writers: [Int: any TableWriter] = [0: writer]
                for index in plan.tables.indices.dropFirst() where plan.tables[index].nesting != nil {
                    let table = plan.tables[index]
                    let old = previousPlan?.tables.first { $0.name.lowercased() == table.name.lowercased() }
                    writers[index] = table.glue == nil ? try transaction.replaceTable(table, previous: old)
                        : try transaction.glueWriter(for: table)
                }
                var rowCounts: [Int: Int] = [:]
                let path = spool.path
                let storable = destination.storableValues
                let flattenedNames = described.flattenedNames
                let records = described.records
                let ending = try withProducer({ stop, channel in
                    DocumentRowProducer.produce(path: path, records: records, plan: plan, request: request,
                                                flattenedNames: flattenedNames, storable: storable, stop: stop, channel: channel)
                }, handle: { (item: DocumentRowProducer.Item) -> DocumentRowProducer.Ending? in
                    switch item {
                    case let .batch(index, batch, bytesRead):
                        try writers[index]?.insert(batch)
                        rowCounts[index, default: 0] += batch.rowCount
                        state.rowCount = rowCounts[0] ?? 0
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
                let (invalidCells, skipped) = (ending.invalidCells, ending.skipped)
                notes += try fieldsNotDescribed(request, ending, records: state.rowCount)
                notes += state.notes + (try writer.finish(strict: request.strict))
                let unmatched = described.records.unmatchedNames.value
                if !unmatched.isEmpty, let metadata = request.metadata {
                    notes.append("\(unmatched.shortList()): not \(unmatched.count == 1 ? "a column" : "columns") of \(DatasetReference.withoutCredentials(metadata)) "
                                 + "(by field name or display name), not loaded")
                }
                // The child tables of an earlier load whose fields are gone go too.
                let current = Set(plan.tables.map { $0.name.lowercased() })
                for old in previousPlan?.tables.dropFirst() ?? [] where old.nesting != nil && old.glue == nil
                    && !current.contains(old.name.lowercased()) {
                    do {
                        try transaction.withSavepoint { try transaction.dropTable(old.name) }
                    } catch {
                        notes.append("the child table \(old.name) of an earlier load could not be dropped (\(error))")
                    }
                }
                for index in writers.keys.sorted() where index > 0 {
                    let table = plan.tables[index]
                    notes += try writers[index]?.finish(strict: request.strict) ?? []
                    if let count = skipped[index], count > 0, let glue = table.glue, let field = table.nesting?.arrayField {
                        notes.append("\(table.name): \(count) element\(count == 1 ? "" : "s") of \(field) "
                                     + "without \(glue.idField) skipped (not links)")
                    }
                }
                // A page is often a slice (`$where`, `$limit`): when its rows are not the ones the
                // description counts, verify says it cannot be compared rather than that it differs.
                let partial = described.view?.statedRowCount.flatMap { stated in
                    stated == state.rowCount ? nil
                        : "the document holds \(state.rowCount) row\(state.rowCount == 1 ? "" : "s"), the description counts \(stated)"
                }
                let entry = CatalogEntry(
                    tableName: plan.mainTable.name, datasetID: described.view?.id, domain: nil, name: described.view?.name,
                    sourceURL: state.source, fetchedAt: state.refreshedAt, rowsUpdatedAt: nil, rowCount: state.rowCount,
                    columnsJSON: columnsJSON, columnMappingJSON: plan.columnMappingJSON, etag: nil, lastModified: nil,
                    requestSignature: "load", planJSON: plan.jsonText,
                    invalidCellsJSON: LoadPlan.encode(invalidCells[0] ?? []), partialReason: partial,
                    dictionaryJSON: described.view?.dictionaryJSON(domain: nil),
                    datasetDescription: described.view?.dictionary.description)
                try transaction.catalog.record(entry)
                try transaction.catalog.recordSchemaChanges(state.schemaChanges, at: entry.fetchedAt)
                try transaction.catalog.recordRefresh(.of(entry, kind: "load", state: state,
                                                          seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
                var summary = LoadSummary(tableName: plan.mainTable.name, rowCount: state.rowCount,
                                          columnCount: plan.mainTable.storedColumns.count, source: state.source,
                                          elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9,
                                          catalogEntry: entry,
                                          invalidCells: invalidCells.keys.sorted().flatMap { invalidCells[$0] ?? [] },
                                          notes: notes)
                summary.schemaChanges = state.schemaChanges
                summary.rowChanges = state.changeTracker?.counts
                summary.childTables = writers.keys.sorted().dropFirst().map {
                    ChildTableCount(plan.tables[$0].name, rowCounts[$0] ?? 0)
                }
                return summary
            }
        }
    }

    /// With `--metadata`, the records' fields the description lacks, in a note (their values are
    /// not loaded); records none of whose data fields it describes are refused, since the
    /// description is not theirs (the load is undone).
    func fieldsNotDescribed(_ request: DocumentLoadRequest, _ ending: DocumentRowProducer.Ending,
                            records: Int) throws -> [String] {
        guard let metadata = request.metadata.map(DatasetReference.withoutCredentials) else { return [] }
        let outside = ending.fieldsOutsidePlan.filter { !ColumnMetadata.isSystemField($0) }
        if records > 0, !ending.metPlanDataField, !outside.isEmpty {
            throw DocumentError.notDescribed(fields: outside, metadata: metadata)
        }
        guard !outside.isEmpty else { return [] }
        let note = "\(outside.shortList()): \(outside.count == 1 ? "a field" : "fields") of the records that \(metadata) "
            + "does not describe, not loaded"
        if request.strict { throw DocumentError.undescribed(note + " (--strict)") }
        return [note]
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
        if described.view == nil, described.fields.isEmpty {
            throw LoadError.noFields(table: name, source: request.displaySource)
        }
        let hasKey = request.primaryKey != nil || described.fields.contains(":id")
            || (described.view?.columns.contains { $0.fieldName == ":id" } ?? false)
        var children = described.arraysOfObjects.filter { request.typeOverrides[$0.field] == nil }
        if !hasKey, !children.isEmpty {
            notes.append("\(children.map(\.field).joined(separator: ", ")) hold\(children.count == 1 ? "s" : "") arrays of objects, "
                         + "kept as JSON text: child tables need the key of \(name) (--pk, or :id in the records)")
            children = []
        }
        if let unknown = request.childKeys.keys.sorted().first(where: { field in !children.contains { $0.field == field } }) {
            throw PlanError("--child-key \(unknown):...: \(unknown) is not a field of arrays of objects in the records")
        }
        if let glue = request.glues.first(where: { glue in !children.contains { $0.field == glue.arrayField } }) {
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
        var options = PlanOptions(tableName: name, typeOverrides: request.typeOverrides, indexes: request.indexes,
                                  distributeBy: request.distributeBy, primaryKey: request.primaryKey, extractions: request.extractions)
        options.geometryColumn = request.geometryColumn
        options.fullTextColumns = request.fullTextColumns
        var plan: LoadPlan
        if var view = described.view {
            // A real description: typed as fetch types it.
            view.columns = view.columns.filter { !childFields.contains($0.fieldName ?? "") }
            plan = try LoadPlan.socrata(view: view, options: options)
        } else {
            plan = try LoadPlan.document(fields: described.fields.filter { !childFields.contains($0) }, types: described.types,
                                         options: options)
        }
        if plan.mainTable.columns.isEmpty {
            // Without a description the columns are the records' fields: there were none.
            throw described.view == nil ? LoadError.noFields(table: name, source: request.displaySource)
                : LoadError.noColumns(name)
        }
        if let column = plan.mainTable.columns.first(where: { $0.name.contains("\u{0}") }) {
            throw LoadError.badName("the column name \(JSONValue.quoted(column.name))")
        }
        for child in children {
            if let glue = request.glues.first(where: { $0.arrayField == child.field }) {
                try plan.addGlueTable(glue, elementFields: child.elements.fields, types: child.elements.types)
            } else {
                try plan.addChildTable(arrayField: child.field, elementFields: child.elements.fields, types: child.elements.types,
                                       childKey: request.childKeys[child.field])
            }
        }
        try plan.distributeNestedTables()
        return plan
    }
}
