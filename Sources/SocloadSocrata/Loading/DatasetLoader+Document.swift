import Foundation

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
            let (view, inferred) = try documentView(request, spool: spool)
            var plan = try documentPlan(request, view: view, inferred: inferred)
            if let limit = destination.maximumNameBytes { plan = plan.withNamesShortened(toBytes: limit) }
            let bytesExpected = FileByteSource.size(of: spool.path)
            return try destination.performLoad { transaction in
                let state = LoadState()
                state.source = request.displaySource
                state.bytesExpected = bytesExpected
                state.view = view
                try beginTable(plan, transaction: transaction, state: state)
                guard let plan = state.plan, let writer = state.writer else { throw RowsJSONError.missingMetadata }
                let sink = PageRowSink(plan: plan, strict: request.strict, storable: destination.storableValues) { batch in
                    try writer.insert(batch)
                    state.rowCount += batch.rowCount
                    self.reportProgress(state)
                }
                try readRecords(spool.path, layout: request.layout, state: state) { record in
                    do {
                        try sink.append(record.bytes, rowNumber: record.number, offset: 0)
                    } catch let error as RowsJSONError {
                        throw DocumentError.badRecord(record: record.number, line: record.line, detail: error.description)
                    }
                }
                try sink.endPage()
                try cancellation?.check()
                let notes = state.notes + (try writer.finish(strict: request.strict))
                let entry = CatalogEntry(
                    tableName: plan.mainTable.name, datasetID: nil, domain: nil, name: nil, sourceURL: state.source,
                    fetchedAt: Self.now(), rowsUpdatedAt: nil, rowCount: state.rowCount, columnsJSON: view.columnsJSON,
                    columnMappingJSON: plan.columnMappingJSON, etag: nil, lastModified: nil,
                    requestSignature: "load", planJSON: plan.jsonText,
                    invalidCellsJSON: LoadPlan.encode(sink.converter.invalidCells), partialReason: nil)
                try transaction.catalog.record(entry)
                return LoadSummary(tableName: plan.mainTable.name, rowCount: state.rowCount,
                                   columnCount: plan.mainTable.storedColumns.count, source: state.source,
                                   elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9,
                                   catalogEntry: entry, invalidCells: sink.converter.invalidCells, notes: notes)
            }
        }
    }

    /// The columns of the document: from `--metadata`, as SODA gives them, or inferred from every
    /// record (`:id`, `:created_at` and `:updated_at` are the system fields, as in SODA), with the
    /// inferred type of each other field.
    private func documentView(_ request: DocumentLoadRequest,
                              spool: DocumentSpool) throws -> (ViewMetadata, [String: LogicalType]) {
        if let metadata = request.metadata {
            let bytes = try readMetadata(metadata)
            let view = try ViewMetadata(description: bytes, source: metadata)
            try view.requireTabular()
            return (SODARowLayout(view: view).view, [:])
        }
        var inference = FieldTypeInference()
        let state = LoadState()
        try readRecords(spool.path, layout: request.layout, state: state) { record in
            let value: JSONValue
            do {
                value = try JSONValueParser.parse(record.bytes)
            } catch {
                throw DocumentError.badRecord(record: record.number, line: record.line, detail: "\(error)")
            }
            try inference.observe(value, record: record.number, line: record.line)
        }
        let types = inference.types
        let system = SODARowLayout.systemFields.filter { inference.fields.contains($0) }
        let columns = system.map { ColumnMetadata(name: String($0.dropFirst()), fieldName: $0, dataTypeName: "meta_data") }
            + inference.fields.filter { !system.contains($0) }.map { field in
                ColumnMetadata(name: field, fieldName: field, dataTypeName: "text")
            }
        // Keyed as the plan names a field's column: an empty key is `column_N`, N its position.
        var typesByColumn: [String: LogicalType] = [:]
        for (index, column) in columns.enumerated() where !column.isSystemColumn {
            let field = column.fieldName ?? ""
            typesByColumn[field.isEmpty ? "column_\(index + 1)" : field] = types[field] ?? .text
        }
        return (ViewMetadata(columns: columns), typesByColumn)
    }

    /// The plan: the view's columns, each inferred field typed as inferred, then the request's
    /// own `--type`s.
    private func documentPlan(_ request: DocumentLoadRequest, view: ViewMetadata,
                              inferred: [String: LogicalType]) throws -> LoadPlan {
        let name = try request.targetTable()
        let lowered = name.lowercased()
        if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("_socload_") || name.isEmpty {
            throw LoadError.reservedTableName(name)
        }
        if name.contains("\u{0}") { throw LoadError.badName("the table name \(JSONValue.quoted(name))") }
        let types = inferred.merging(request.typeOverrides) { _, given in given }
        let plan = try LoadPlan.socrata(view: view, options: PlanOptions(
            tableName: name, typeOverrides: types, indexes: request.indexes, primaryKey: request.primaryKey,
            extractions: request.extractions))
        if plan.mainTable.columns.isEmpty { throw LoadError.noColumns(name) }
        if let column = plan.mainTable.columns.first(where: { $0.name.contains("\u{0}") }) {
            throw LoadError.badName("the column name \(JSONValue.quoted(column.name))")
        }
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
        var bytes: [UInt8] = []
        if DocumentSpool.isURL(source) {
            let downloader = HTTPDownloader(options: http, cancellation: cancellation)
            bytes = try retry.run(cancellation: cancellation, onRetry: retryNotice) { () throws -> [UInt8] in
                var body: [UInt8] = []
                _ = try downloader.download(source) { chunk in
                    body.append(contentsOf: chunk)
                    if body.count > 64 << 20 { throw HTTPError.bodyTooLarge(limit: 64 << 20, url: source) }
                }
                return body
            }
        } else {
            try FileByteSource.read(source, cancellation: cancellation) { chunk in
                bytes.append(contentsOf: chunk)
                if bytes.count > 64 << 20 { throw LoadError.unreadableFile(path: source, reason: "larger than 64 MB for a description") }
            }
        }
        return bytes
    }
}
