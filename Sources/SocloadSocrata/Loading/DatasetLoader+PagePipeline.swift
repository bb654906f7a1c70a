import SocloadCore
import Foundation

/// One SODA page on two cores, as rows.json loads (`withProducer`): a producer thread downloads
/// the page and converts its rows into batches; the calling (database) thread inserts them.
extension DatasetLoader {
    enum PageItem: Sendable {
        case batch(RowBatch, bytesRead: Int64)
        case end(rows: Int, converter: RowConverter)
        case failure(any Error)
    }

    /// Reads one page into `sink`, converting on another thread; returns its row count. On any
    /// failure nothing of the page is kept in `sink` (the caller's savepoint undoes the rows).
    /// More than `maximum` rows in the page is `LoadError.pageTooLong`.
    func readPagePipelined(_ pageRequest: HTTPRequest, sink: ObjectRowSink, offset: Int, limit: Int, maximum: Int,
                           state: LoadState) throws -> Int {
        let http = self.http
        let converter = sink.converter
        var rows = 0
        return try withProducer({ stop, channel in
            Self.producePage(pageRequest, http: http, converter: converter, offset: offset, limit: limit, maximum: maximum,
                             stop: stop, channel: channel)
        }, handle: { (item: PageItem) -> Int? in
            switch item {
            case let .batch(batch, bytesRead):
                try sink.deliver(batch)
                rows += batch.rowCount
                state.bytesRead += bytesRead
                progress?(LoadProgress(bytesRead: state.bytesRead, bytesExpected: nil, rowsLoaded: offset + rows,
                                       elapsed: state.elapsed))
                return nil
            case let .end(count, converter):
                try sink.endPage(converter: converter)
                return count
            case .failure(let error):
                throw error
            }
        })
    }

    /// The producer: the page's bytes → array reader → converter → batches → channel.
    private static func producePage(_ pageRequest: HTTPRequest, http: HTTPOptions, converter: RowConverter, offset: Int,
                                    limit: Int, maximum: Int, stop: LoadCancellation, channel: BoundedChannel<PageItem>) {
        struct Stopped: Error {}
        var converter = converter
        let columns = converter.table.columns.count
        var batch = RowBatch(columnCount: columns, firstRowNumber: offset + 1, expectedRows: batchRows)
        var count = 0
        var beyondLimit = 0
        var bytesRead: Int64 = 0
        let reader = JSONArrayReader()
        func flush() throws {
            guard batch.rowCount > 0 else { return }
            guard channel.send(.batch(batch, bytesRead: bytesRead)) else { throw Stopped() }
            bytesRead = 0
            batch = RowBatch(columnCount: columns, firstRowNumber: offset + count + 1, expectedRows: batchRows)
        }
        do {
            let downloader = HTTPDownloader(options: http, cancellation: stop)
            try downloader.download(pageRequest, onResponse: { _ in }, onChunk: { chunk in
                try stop.check()
                try reader.feed(chunk) { element in
                    guard count < limit else {
                        if element.isWhole { beyondLimit += 1 }
                        if count + beyondLimit > maximum { throw LoadError.pageTooLong(page: 0, limit: maximum) }
                        return nil
                    }
                    let end: Int
                    if element.isWhole {
                        try converter.append(row: element.bytes, rowNumber: offset + count + 1, offset: element.offset,
                                             to: &batch)
                        end = element.bytes.count
                    } else {
                        // In place in the chunk when the whole object is there: no copy, one pass.
                        guard let found = try converter.appendIfComplete(element.bytes, from: element.start,
                                                                         limit: element.bytes.count,
                                                                         rowNumber: offset + count + 1,
                                                                         offset: element.offset, to: &batch) else { return nil }
                        end = found
                    }
                    count += 1
                    if batch.rowCount >= batchRows || batch.arena.count >= batchBytes { try flush() }
                    return end
                }
                bytesRead += Int64(chunk.count)
            })
            try reader.finish()
            try flush()
            _ = channel.send(.end(rows: count, converter: converter))
        } catch is Stopped {
            return
        } catch {
            _ = channel.send(.failure(error))
        }
    }
}
