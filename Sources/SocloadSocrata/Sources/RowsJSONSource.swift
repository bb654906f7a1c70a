import SocloadCore
import SocloadEngine
import SocloadTransport

/// The legacy rows.json export as a row source: bytes (a file, the download cache's copy, a
/// spooled or live download) → `RowsJSONReader` → the plan from the metadata, then rows
/// converted into batches. The metadata comes before the rows in the export, so the plan is sent
/// (`Described`) before any batch.
struct RowsJSONSource: RowSource {
    /// The plan made from the export's metadata, and the metadata.
    struct Description: Sendable {
        let plan: LoadPlan
        let view: ViewMetadata
    }

    /// The response's head (nil for a file; a 304 when the portal had nothing new), the
    /// cells that were not of their column's type, and a file's signature made as it was read
    /// (nil unless the whole file was).
    struct Ending: Sendable {
        let head: HTTPResponseHead?
        let invalidCells: [InvalidCells]
        var fileSignature: String?
    }

    let request: LoadRequest
    /// Conditional request headers (`If-None-Match`...), for a download.
    let headers: [(name: String, value: String)]
    let http: HTTPOptions

    func produce(into output: RowSourceOutput<Self>) throws -> Ending {
        let stop = output.cancellation
        let reader = RowsJSONReader()
        var rows = RowsJSONRows(request: request, output: output)
        var bytesRead: Int64 = 0
        var bytesExpected: Int64?
        var head: HTTPResponseHead?
        var signature: FileSignature.Reading?
        let consume = { (chunk: UnsafeRawBufferPointer) throws in
            signature?.add(chunk)
            try stop.check()
            try reader.feed(chunk, onMetadata: { try rows.start($0) },
                            onRow: { try rows.append($0, bytesRead: bytesRead, bytesExpected: bytesExpected) })
            bytesRead += Int64(chunk.count)
        }
        do {
            switch request.reference.location {
            case .file(let path):
                bytesExpected = FileByteSource.size(of: path)
                signature = FileSignature.Reading(path: path)
                try FileByteSource.read(path, cancellation: stop, consume)
                try reader.finish()
            case .url(let url):
                head = try download(url, cancellation: stop, consume: consume, onResponse: { bytesExpected = $0.contentLength },
                                    finish: { try reader.finish() }, stated: { rows.stated })
            }
        } catch is RowsJSONRows.LimitReached {
            signature = nil // not read to its end
        }
        try rows.flush(bytesRead: bytesRead, bytesExpected: bytesExpected)
        return Ending(head: head, invalidCells: rows.invalidCells, fileSignature: signature?.text)
    }

    /// The export from the download cache, a spool, or the portal; the cache's copy is written
    /// as the bytes arrive and kept only once the whole body was read (never a body cut short by
    /// `--limit`).
    private func download(_ url: String, cancellation stop: LoadCancellation,
                          consume: @escaping (UnsafeRawBufferPointer) throws -> Void,
                          onResponse: @escaping (HTTPResponseHead) -> Void, finish: () throws -> Void, stated: () -> ViewMetadata?) throws -> HTTPResponseHead? {
        if case .cachedCopy(let path, let cachedHead)? = request.prefetched {
            try GzipFileReader.read(path, cancellation: stop, consume)
            try finish()
            return cachedHead
        }
        var copy = try request.cache?.startCopy()
        let keeping: (UnsafeRawBufferPointer) throws -> Void = copy == nil ? consume : { chunk in
            try copy?.write(chunk)
            try consume(chunk)
        }
        let head: HTTPResponseHead
        if case .download(let spool, _)? = request.prefetched, spool.claim() {
            // Spooled before the load's turn; read as it grows.
            head = try spool.read(cancellation: stop, onResponse: onResponse, keeping)
        } else {
            let downloader = HTTPDownloader(options: http, cancellation: stop)
            head = try downloader.download(HTTPRequest(url: url, headers: headers),
                                           onResponse: onResponse, onChunk: keeping)
        }
        if head.statusCode != 304 {
            try finish()
            try copy?.keep(datasetID: request.reference.datasetID ?? stated()?.id, rowsUpdatedAt: stated()?.rowsUpdatedAtText,
                           description: stated()?.descriptionJSON ?? [], head: head)
        }
        copy = nil
        return head
    }
}
