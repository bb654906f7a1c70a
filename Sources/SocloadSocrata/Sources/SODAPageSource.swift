import SocloadCore
import SocloadEngine
import SocloadTransport

/// One SODA page (a JSON array of row objects) as a row source, once its columns are known: the
/// page's bytes (from the portal, copied into the download cache when it keeps versions, or from
/// the cache) → `JSONArrayReader` → the converter → batches. Rows past `limit` are counted, not
/// converted; more than `maximum` rows in the page is `LoadError.pageTooLong` (its page number
/// is filled in by the caller).
struct SODAPageSource: RowSource {
    /// The page's row count, the converter after it (its invalid cells and counts) and the JSON
    /// text of its last row (the key a page paged by key continues after).
    struct Ending: Sendable {
        let rows: Int
        let converter: RowConverter
        let lastRow: [UInt8]
    }

    /// Where the page's bytes come from.
    enum Body: Sendable {
        /// A page asked of the portal.
        case request(HTTPRequest)
        /// A page the download cache kept (gzip).
        case cachedPage(path: String)
    }

    let body: Body
    let http: HTTPOptions
    /// Where the page is copied as it arrives (the download cache), if anywhere.
    var copy: DownloadCache.PageFile?
    /// The converter as the previous page left it.
    let converter: RowConverter
    /// The rows before this page.
    let offset: Int
    let limit: Int
    let maximum: Int

    func produce(into output: RowSourceOutput<Self>) throws -> Ending {
        let stop = output.cancellation
        var converter = converter
        let columns = converter.table.columns.count
        var batch = RowBatch(columnCount: columns, firstRowNumber: offset + 1, expectedRows: RowBatch.sendingRows)
        var count = 0
        var beyondLimit = 0
        var bytesRead: Int64 = 0
        var lastRow: [UInt8] = []
        let reader = JSONArrayReader()
        func flush() throws {
            guard batch.rowCount > 0 else { return }
            try output.send(batch, bytesRead: bytesRead)
            bytesRead = 0
            batch = RowBatch(columnCount: columns, firstRowNumber: offset + count + 1, expectedRows: RowBatch.sendingRows)
        }
        let consume: (UnsafeRawBufferPointer) throws -> Void = { chunk in
            try stop.check()
            try copy?.write(chunk)
            try reader.feed(chunk) { element in
                guard count < limit else {
                    if element.isWhole { beyondLimit += 1 }
                    if count + beyondLimit > maximum { throw LoadError.pageTooLong(page: 0, limit: maximum) }
                    return nil
                }
                let end: Int
                if element.isWhole {
                    try converter.append(row: element.bytes, rowNumber: offset + count + 1, offset: element.offset, to: &batch)
                    end = element.bytes.count
                } else {
                    // In place in the chunk when the whole object is there: no copy, one pass.
                    guard let found = try converter.appendIfComplete(element.bytes, from: element.start,
                                                                     limit: element.bytes.count, rowNumber: offset + count + 1,
                                                                     offset: element.offset, to: &batch) else { return nil }
                    end = found
                }
                count += 1
                lastRow.removeAll(keepingCapacity: true)
                lastRow.append(contentsOf: element.bytes[element.start..<end])
                if batch.isReadyToSend { try flush() }
                return end
            }
            bytesRead += Int64(chunk.count)
        }
        switch body {
        case .request(let request):
            try HTTPDownloader(options: http, cancellation: stop).download(request, onResponse: { head in copy?.head = head },
                                                                           onChunk: consume)
        case .cachedPage(let path):
            try GzipFileReader.read(path, cancellation: stop, consume)
        }
        try reader.finish()
        try flush()
        return Ending(rows: count, converter: converter, lastRow: lastRow)
    }
}
