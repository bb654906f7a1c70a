import Foundation
import SocloadCore

/// Loading through the legacy rows.json export, on two cores: a producer thread reads the bytes
/// (file or network), parses and converts rows into batches; the database queue inserts them.
/// A bounded channel between the two keeps memory flat.
extension DatasetLoader {
    enum RowsOutcome {
        case loaded, notModified
        /// The file is the one the table was last loaded from (`FileSignature`): nothing to do.
        case unchangedFile(CatalogEntry)
    }

    /// What the producer sends the database thread.
    enum PipelineItem: Sendable {
        case plan(LoadPlan, ViewMetadata)
        case batch(RowBatch, bytesRead: Int64, bytesExpected: Int64?)
        case end(HTTPResponseHead?, invalidCells: [InvalidCells])
        case failure(any Error)
    }

    static let batchRows = 1024
    static let batchBytes = 1 << 19

    func loadRowsJSON(_ request: LoadRequest, previous: CatalogEntry?, transaction: any LoadTransaction,
                      state: LoadState) throws -> RowsOutcome {
        switch request.reference.location {
        case .file(let path):
            if let foreign = ForeignDocument.recognise(path: path) { throw DocumentError.inDocument(path, .foreign(foreign)) }
            return try runPipeline(request, headers: [], transaction: transaction, state: state)
        case .url:
            let headers = Self.conditionalHeaders(since: previous)
            // A transfer that fails in a retryable way starts over, after undoing what it wrote.
            return try retry.run(cancellation: cancellation, onRetry: retryNotice) {
                try transaction.withSavepoint {
                    try runPipeline(request, headers: headers, transaction: transaction, state: state)
                }
            }
        }
    }

    /// Starts the producer and inserts what it sends until the end, a failure, or cancellation.
    private func runPipeline(_ request: LoadRequest, headers: [(name: String, value: String)],
                             transaction: any LoadTransaction, state: LoadState) throws -> RowsOutcome {
        state.rowCount = 0
        state.bytesRead = 0
        state.plan = nil
        state.writer = nil
        state.notes = []
        let http = self.http
        return try withProducer({ stop, channel in
            Self.produce(request, headers: headers, http: http, stop: stop, channel: channel)
        }, handle: { (item: PipelineItem) -> RowsOutcome? in
            switch item {
            case let .plan(plan, view):
                // A file whose table was not known before its metadata (no --table, no id in its
                // name) is checked against its table's last load now.
                if let entry = try unchangedFile(request, plan: plan, catalog: transaction.catalog) { return .unchangedFile(entry) }
                state.view = view
                try beginTable(plan, transaction: transaction, state: state)
            case let .batch(batch, bytesRead, bytesExpected):
                try state.writer?.insert(batch)
                state.rowCount += batch.rowCount
                state.bytesRead = bytesRead
                state.bytesExpected = bytesExpected
                reportProgress(state)
            case let .end(head, invalidCells):
                state.head = head
                state.invalidCells = invalidCells
                return head?.statusCode == 304 ? .notModified : .loaded
            case .failure(let error):
                throw error
            }
            return nil
        })
    }

    /// The catalog entry of `plan`'s table when the request's file is the one it was last loaded
    /// from, unchanged (and not `--force`).
    private func unchangedFile(_ request: LoadRequest, plan: LoadPlan, catalog: any CatalogStore) throws -> CatalogEntry? {
        guard !request.force, case .file(let path) = request.reference.location,
              let entry = try catalog.entry(for: plan.mainTable.name, withDescription: false), entry.tableName == plan.mainTable.name,
              entry.sourceURL == request.reference.displaySource, entry.requestSignature == request.signature(api: try request.resolvedAPI()),
              try FileSignature.unchanged(path, since: entry.etag) else { return nil }
        return entry
    }

    /// The producer: bytes → rows.json reader → converter → batches → channel.
    private static func produce(_ request: LoadRequest, headers: [(name: String, value: String)], http: HTTPOptions,
                                stop: LoadCancellation, channel: BoundedChannel<PipelineItem>) {
        struct Stopped: Error {}
        let reader = RowsJSONReader()
        var converter: RowConverter?
        var batch = RowBatch(columnCount: 0, firstRowNumber: 1, expectedRows: 0)
        var rowCount = 0
        var bytesRead: Int64 = 0
        var bytesExpected: Int64?
        var head: HTTPResponseHead?
        var stated: ViewMetadata?

        func flush() throws {
            guard batch.rowCount > 0 else { return }
            guard channel.send(.batch(batch, bytesRead: bytesRead, bytesExpected: bytesExpected)) else { throw Stopped() }
            batch = RowBatch(columnCount: batch.columnCount, firstRowNumber: rowCount + 1, expectedRows: batchRows)
        }

        func onMetadata(_ view: ViewMetadata) throws {
            stated = view
            try view.requireTabular()
            let plan = try request.plan(for: view)
            guard channel.send(.plan(plan, view)) else { throw Stopped() }
            converter = RowConverter(plan: plan, rows: .arrays, strict: request.strict, storable: request.storable)
            batch = RowBatch(columnCount: plan.mainTable.columns.count, firstRowNumber: 1, expectedRows: batchRows)
            if request.limit == 0 { throw LimitReached() }
        }

        func onRow(_ row: RowsJSONReader.RowText) throws -> Int? {
            guard converter != nil else { return nil }
            let end: Int
            if row.isWhole {
                try converter!.append(row: row.bytes, rowNumber: row.number, offset: row.offset, to: &batch)
                end = row.bytes.count
            } else {
                guard let found = try converter!.appendIfComplete(row.bytes, from: row.start, limit: row.bytes.count,
                                                                  rowNumber: row.number, offset: row.offset, to: &batch)
                else { return nil }
                end = found
            }
            rowCount += 1
            if let maximum = request.maxRows, rowCount > maximum { throw LoadError.tooManyRows(maximum: maximum) }
            if let limit = request.limit, rowCount >= limit { throw LimitReached() }
            if batch.rowCount >= batchRows || batch.arena.count >= batchBytes { try flush() }
            return end
        }

        let consume = { (chunk: UnsafeRawBufferPointer) throws in
            try stop.check()
            try reader.feed(chunk, onMetadata: onMetadata, onRow: onRow)
            bytesRead += Int64(chunk.count)
        }

        do {
            do {
                switch request.reference.location {
                case .file(let path):
                    bytesExpected = FileByteSource.size(of: path)
                    try FileByteSource.read(path, cancellation: stop, consume)
                    try reader.finish()
                case .url(let url):
                    if case .cachedCopy(let path, let cachedHead)? = request.prefetched {
                        try GzipFileReader.read(path, cancellation: stop, consume)
                        head = cachedHead
                        try reader.finish()
                        break
                    }
                    // The cache's copy is written before the rows are read, so a body cut short
                    // (--limit) is never kept.
                    var copy = try request.cache?.startCopy()
                    let keeping: (UnsafeRawBufferPointer) throws -> Void = copy == nil ? consume : { chunk in
                        try copy?.write(chunk)
                        try consume(chunk)
                    }
                    if case .download(let spool, _)? = request.prefetched, spool.claim() {
                        // Spooled before the load's turn; read as it grows.
                        head = try spool.read(cancellation: stop, onResponse: { bytesExpected = $0.contentLength }, keeping)
                    } else {
                        let downloader = HTTPDownloader(options: http, cancellation: stop)
                        head = try downloader.download(HTTPRequest(url: url, headers: headers),
                                                       onResponse: { bytesExpected = $0.contentLength }, onChunk: keeping)
                    }
                    if head?.statusCode != 304 {
                        try reader.finish()
                        try copy?.keep(datasetID: request.reference.datasetID ?? stated?.id, rowsUpdatedAt: stated?.rowsUpdatedAtText)
                    }
                    copy = nil
                }
            } catch is LimitReached {}
            try flush()
            _ = channel.send(.end(head, invalidCells: converter?.invalidCells ?? []))
        } catch is Stopped {
            return
        } catch {
            _ = channel.send(.failure(error))
        }
    }
}
