import Foundation
import SocloadDatabase

/// Loading through the legacy rows.json export, on two cores: a producer thread reads the bytes
/// (file or network), parses and converts rows into batches; the database queue inserts them.
/// A bounded channel between the two keeps memory flat.
extension DatasetLoader {
    enum RowsOutcome { case loaded, notModified }

    /// What the producer sends the database thread.
    enum PipelineItem: Sendable {
        case schema(TableSchema, ViewMetadata)
        case batch(RowBatch, bytesRead: Int64, bytesExpected: Int64?)
        case end(HTTPResponseHead?)
        case failure(any Error)
    }

    static let batchRows = 1024
    static let batchBytes = 1 << 19

    func loadRowsJSON(_ request: LoadRequest, previous: CatalogEntry?, session: any LoadSession,
                      state: LoadState) throws -> RowsOutcome {
        switch request.reference.location {
        case .file:
            return try runPipeline(request, headers: [], session: session, state: state)
        case .url:
            var headers: [(name: String, value: String)] = []
            if let etag = previous?.etag { headers.append(("If-None-Match", etag)) }
            if let lastModified = previous?.lastModified { headers.append(("If-Modified-Since", lastModified)) }
            // A transfer that fails in a retryable way starts over, after undoing what it wrote.
            return try retry.run(cancellation: cancellation, onRetry: retryNotice) {
                try session.withSavepoint {
                    try runPipeline(request, headers: headers, session: session, state: state)
                }
            }
        }
    }

    /// Starts the producer and inserts what it sends until the end, a failure, or cancellation.
    private func runPipeline(_ request: LoadRequest, headers: [(name: String, value: String)],
                             session: any LoadSession, state: LoadState) throws -> RowsOutcome {
        state.rowCount = 0
        state.bytesRead = 0
        state.schema = nil
        let channel = BoundedChannel<PipelineItem>(capacity: 4)
        let stop = LoadCancellation()
        let finished = DispatchSemaphore(value: 0)
        let http = self.http
        Thread.detachNewThread {
            Self.produce(request, headers: headers, http: http, stop: stop, channel: channel)
            finished.signal()
        }
        defer {
            channel.close()
            finished.wait()
        }
        do {
            while true {
                if let signal = cancellation?.signal {
                    stop.cancel(signal: signal)
                    throw LoadError.interrupted(signal: signal)
                }
                guard let item = channel.receive(timeout: 0.1) else { continue }
                switch item {
                case let .schema(schema, view):
                    try session.replaceTable(schema)
                    state.schema = schema
                    state.view = view
                case let .batch(batch, bytesRead, bytesExpected):
                    try session.insert(batch)
                    state.rowCount += batch.rowCount
                    state.bytesRead = bytesRead
                    state.bytesExpected = bytesExpected
                    reportProgress(state)
                case .end(let head):
                    state.head = head
                    return head?.statusCode == 304 ? .notModified : .loaded
                case .failure(let error):
                    throw error
                }
            }
        } catch {
            stop.cancel(signal: cancellation?.signal ?? -1)
            throw error
        }
    }

    /// The producer: bytes → rows.json reader → batches of converted rows → channel.
    private static func produce(_ request: LoadRequest, headers: [(name: String, value: String)], http: HTTPOptions,
                                stop: LoadCancellation, channel: BoundedChannel<PipelineItem>) {
        struct Stopped: Error {}
        let reader = RowsJSONReader()
        reader.deliversRawRows = true
        var converter: FastRowConverter?
        var batch: RowBatch?
        var rowCount = 0
        var bytesRead: Int64 = 0
        var bytesExpected: Int64?
        var head: HTTPResponseHead?

        reader.inPlaceRowHandler = { bytes, start, rowNumber, offset in
            guard converter != nil, batch != nil else { return nil }
            guard let end = try converter!.appendIfComplete(bytes, from: start, limit: bytes.count,
                                                            rowNumber: rowNumber, to: &batch!) else { return nil }
            rowCount += 1
            if let limit = request.limit, rowCount >= limit { throw LimitReached() }
            if batch!.rowCount >= batchRows || batch!.arena.count >= batchBytes { try flush() }
            return end
        }

        func flush() throws {
            guard let full = batch, full.rowCount > 0 else { return }
            guard channel.send(.batch(full, bytesRead: bytesRead, bytesExpected: bytesExpected)) else { throw Stopped() }
            batch = RowBatch(columnCount: full.columnCount, firstRowNumber: rowCount + 1, expectedRows: batchRows)
        }

        let consume = { (chunk: UnsafeRawBufferPointer) throws in
            try stop.check()
            try reader.feed(chunk) { event in
                switch event {
                case .metadata(let view):
                    try view.requireTabular()
                    let schema = try schema(for: view, request: request)
                    guard channel.send(.schema(schema, view)) else { throw Stopped() }
                    converter = FastRowConverter(schema: schema)
                    batch = RowBatch(columnCount: schema.columns.count, firstRowNumber: 1, expectedRows: batchRows)
                    if request.limit == 0 { throw LimitReached() }
                case .rawRow(let bytes):
                    guard converter != nil, batch != nil else { return }
                    try converter!.append(row: bytes, rowNumber: reader.rowsRead, offset: reader.currentRowOffset, to: &batch!)
                    rowCount += 1
                    if let limit = request.limit, rowCount >= limit { throw LimitReached() }
                    if batch!.rowCount >= batchRows || batch!.arena.count >= batchBytes { try flush() }
                case .row:
                    break
                }
            }
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
                    let downloader = HTTPDownloader(options: http, cancellation: stop)
                    head = try downloader.download(HTTPRequest(url: url, headers: headers),
                                                   onResponse: { bytesExpected = $0.contentLength }, onChunk: consume)
                    if head?.statusCode != 304 { try reader.finish() }
                }
            } catch is LimitReached {}
            try flush()
            _ = channel.send(.end(head))
        } catch is Stopped {
            return
        } catch {
            _ = channel.send(.failure(error))
        }
    }
}
