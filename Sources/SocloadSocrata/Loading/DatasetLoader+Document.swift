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
        try reportingCancellation {
            let start = DispatchTime.now().uptimeNanoseconds
            let spool = try DocumentSpool.open(request.source, http: http, retry: retry, cancellation: cancellation,
                                               onRetry: retryNotice, onSpool: onSpool, onBytes: { _ in })
            defer { spool.close() }
            let described = try documentView(request, spool: spool)
            var notes: [String] = []
            var plan = try documentPlan(request, described: described, notes: &notes)
            if let limit = destination.maximumNameBytes { plan = plan.withNamesShortened(toBytes: limit) }
            try destination.columnLimit?.check(plan)
            let columnsJSON = described.view?.columnsJSON ?? "[]"
            let bytesExpected = FileByteSource.size(of: spool.path)
            return try destination.performLoad { transaction in
                let state = LoadState()
                state.source = request.displaySource
                state.bytesExpected = bytesExpected
                state.schemaPolicy = request.onSchemaChange
                state.keptChangeRefreshes = request.keptChangeRefreshes
                state.keepsHistory = request.keepsHistory
                state.view = described.view
                let previousPlan = try transaction.catalog.entry(for: plan.mainTable.name)
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
                let (invalidCells, skipped) = try withProducer({ stop, channel in
                    DocumentRowProducer.produce(path: path, plan: plan, request: request, flattenedNames: flattenedNames,
                                                storable: storable, stop: stop, channel: channel)
                }, handle: { (item: DocumentRowProducer.Item) -> ([Int: [InvalidCells]], [Int: Int])? in
                    switch item {
                    case let .batch(index, batch, bytesRead):
                        try writers[index]?.insert(batch)
                        rowCounts[index, default: 0] += batch.rowCount
                        state.rowCount = rowCounts[0] ?? 0
                        state.bytesRead = bytesRead
                        reportProgress(state)
                    case let .end(invalidCells, skipped):
                        return (invalidCells, skipped)
                    case .failure(let error):
                        throw error
                    }
                    return nil
                })
                try cancellation?.check()
                notes += state.notes + (try writer.finish(strict: request.strict))
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
                    if let count = skipped[index], let glue = table.glue, let field = table.nesting?.arrayField {
                        notes.append("\(table.name): \(count) element\(count == 1 ? "" : "s") of \(field) "
                                     + "without \(glue.idField) skipped (not links)")
                    }
                }
                let entry = CatalogEntry(
                    tableName: plan.mainTable.name, datasetID: nil, domain: nil, name: nil, sourceURL: state.source,
                    fetchedAt: state.refreshedAt, rowsUpdatedAt: nil, rowCount: state.rowCount, columnsJSON: columnsJSON,
                    columnMappingJSON: plan.columnMappingJSON, etag: nil, lastModified: nil,
                    requestSignature: "load", planJSON: plan.jsonText,
                    invalidCellsJSON: LoadPlan.encode(invalidCells[0] ?? []), partialReason: nil,
                    dictionaryJSON: described.view?.dictionaryJSON(domain: nil))
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

    /// What the document's records hold: the columns (from `--metadata`, as SODA gives them, or
    /// inferred from every record, `:id`, `:created_at` and `:updated_at` being the system
    /// fields as in SODA), the inferred type of each other field, and the fields that hold
    /// arrays of objects with what those objects hold.
    struct DescribedDocument {
        /// The description `--metadata` gave (nil: the records describe themselves).
        var view: ViewMetadata?
        /// Without `--metadata`: the records' fields in cell order, system fields first.
        var fields: [String] = []
        var types: [String: LogicalType] = [:]
        var arraysOfObjects: [(field: String, elements: FieldTypeInference)] = []
        /// Fields whose every value is a decimal number written as a string (SODA 2's numbers).
        var numbersAsText: [String] = []
        /// With `--flatten`: each nested path's column name (see `JSONFlattening`).
        var flattenedNames: [String: String] = [:]
    }

    private func documentView(_ request: DocumentLoadRequest, spool: DocumentSpool) throws -> DescribedDocument {
        if let metadata = request.metadata {
            let bytes = try readMetadata(metadata)
            let view = try ViewMetadata(description: bytes, source: metadata)
            try view.requireTabular()
            // Only the system fields the records carry are columns: a page saved the ordinary
            // way has no `:id`, whatever system columns the description lists. A page's records
            // all carry the same ones (its `$select` asked for them or not): the first tells.
            return DescribedDocument(view: SODARowLayout(view: view, systemFields: try systemFieldsOfFirstRecord(request, spool: spool)).view)
        }
        let inference = try inferFields(request, spool: spool)
        let system = SODARowLayout.systemFields.filter { inference.fields.contains($0) }
        // Flattened, every path's column name is decided once for the whole document.
        let names = request.flatten ? JSONFlattening.columnNames(forPaths: inference.fields) : [:]
        func name(_ field: String) -> String { names[field] ?? field }
        let types = Dictionary(inference.types.map { (name($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        // Flattened, an object that is null in some records leaves no column of its own.
        let flattenedAway = Set(request.flatten ? inference.fields.filter { field in
            inference.isAlwaysNull(field) && inference.fields.contains { $0.hasPrefix(field + JSONFlattening.pathSeparator) }
        } : [])
        let fields = system + inference.fields.filter { !system.contains($0) && !flattenedAway.contains($0) }.map(name)
        return DescribedDocument(view: nil, fields: fields, types: types,
                                 arraysOfObjects: inference.arraysOfObjects.map { (name($0.field), $0.elements) },
                                 numbersAsText: inference.fieldsOfNumbersAsText.map(name), flattenedNames: names)
    }

    /// The system fields (`:id`, `:created_at`, `:updated_at`) the document's first record has;
    /// only that record is read.
    private func systemFieldsOfFirstRecord(_ request: DocumentLoadRequest, spool: DocumentSpool) throws -> Set<String> {
        struct FirstRecordRead: Error {}
        var inference = FieldTypeInference()
        do {
            try readRecords(spool.path, layout: request.layout, state: LoadState()) { record in
                try inference.observe(text: record.bytes, record: record.number, line: record.line)
                throw FirstRecordRead()
            }
        } catch is FirstRecordRead {}
        return Set(SODARowLayout.systemFields.filter { inference.fields.contains($0) })
    }

    /// The inference pass: every record read once, each field's kinds noted.
    private func inferFields(_ request: DocumentLoadRequest, spool: DocumentSpool) throws -> FieldTypeInference {
        var inference = FieldTypeInference()
        inference.referenceFields = Dictionary(request.glues.map { ($0.arrayField, $0.idField) }, uniquingKeysWith: { _, last in last })
        let state = LoadState()
        var flattener = FlattenedRecordBytes(names: [:], keepsPaths: true)
        try readRecords(spool.path, layout: request.layout, state: state) { record in
            guard request.flatten else {
                return try inference.observe(text: record.bytes, record: record.number, line: record.line)
            }
            // From the bytes, flattened under their paths; a record that is no object, or is
            // malformed, is parsed whole below for the error that says why.
            do {
                return try flattener.flatten(record.bytes) { flat in
                    try inference.observe(text: flat, record: record.number, line: record.line)
                }
            } catch is RawArrayParser.Malformed {
            } catch is FlattenedRecordBytes.TooDeep {}
            let value: JSONValue
            do {
                value = try JSONValueParser.parse(record.bytes)
            } catch {
                throw DocumentError.badRecord(record: record.number, line: record.line, detail: "\(error)")
            }
            if case .object(let members) = value {
                try inference.observe(.object(JSONFlattening.flattenPaths(members)), record: record.number, line: record.line)
            } else {
                try inference.observe(value, record: record.number, line: record.line)
            }
        }
        return inference
    }

    /// The plan: the main table of the view's columns, each inferred field typed as inferred,
    /// then the request's own `--type`s; a child table for each field of arrays of objects, when
    /// the main table has a key (else the arrays stay JSON text, and a note says why).
    private func documentPlan(_ request: DocumentLoadRequest, described: DescribedDocument,
                              notes: inout [String]) throws -> LoadPlan {
        let name = try request.targetTable()
        let lowered = name.lowercased()
        if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("_socload_") || name.isEmpty {
            throw LoadError.reservedTableName(name)
        }
        if name.contains("\u{0}") { throw LoadError.badName("the table name \(JSONValue.quoted(name))") }
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
        var plan: LoadPlan
        if var view = described.view {
            // A real description: typed as fetch types it.
            view.columns = view.columns.filter { !childFields.contains($0.fieldName ?? "") }
            plan = try LoadPlan.socrata(view: view, options: options)
        } else {
            plan = try LoadPlan.document(fields: described.fields.filter { !childFields.contains($0) }, types: described.types,
                                         options: options)
        }
        if plan.mainTable.columns.isEmpty { throw LoadError.noColumns(name) }
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

    /// Every record of the file, in order.
    private func readRecords(_ path: String, layout: JSONRecordReader.Layout, state: LoadState,
                             _ handle: @escaping (JSONRecordReader.Record) throws -> Void) throws {
        let reader = JSONRecordReader(layout: layout, handle)
        try FileByteSource.read(path, cancellation: cancellation) { chunk in
            try reader.feed(chunk)
            state.bytesRead += Int64(chunk.count)
        }
        try reader.finish()
    }

    /// A view description from a file or a URL.
    private func readMetadata(_ source: String) throws -> [UInt8] {
        if DocumentSpool.isURL(source) { return try downloadDescription(source) }
        var bytes: [UInt8] = []
        try FileByteSource.read(source, cancellation: cancellation) { chunk in
            bytes.append(contentsOf: chunk)
            if bytes.count > 64 << 20 { throw LoadError.unreadableFile(path: source, reason: "larger than 64 MB for a description") }
        }
        return bytes
    }
}
