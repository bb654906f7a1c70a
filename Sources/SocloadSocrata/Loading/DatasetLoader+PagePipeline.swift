import SocloadCore
import Foundation

/// One SODA page on two cores, as rows.json loads: the page's source (`SODAPageSource`) downloads
/// and converts on its thread; the calling (database) thread inserts (`RowPipeline`).
extension DatasetLoader {
    /// Reads one page into `sink`, converting on another thread. On any
    /// failure nothing of the page is kept in `sink` (the caller's savepoint undoes the rows).
    /// Returns its row count and last row.
    /// More than `maximum` rows in the page is `LoadError.pageTooLong`.
    func readPagePipelined(_ body: SODAPageSource.Body, sink: ObjectRowSink, offset: Int, limit: Int, maximum: Int,
                           state: LoadState, copy: DownloadCache.PageFile? = nil) throws -> PageRead {
        let source = SODAPageSource(body: body, http: http, copy: copy, converter: sink.converter, offset: offset, limit: limit,
                                    maximum: maximum)
        var rows = 0
        return try RowPipeline(cancellation: cancellation).run(source) { event -> PageRead? in
            switch event {
            case .described: return nil
            case let .batch(_, batch, bytesRead, _):
                try sink.deliver(batch)
                rows += batch.rowCount
                state.bytesRead += bytesRead
                progress?(LoadProgress(bytesRead: state.bytesRead, bytesExpected: nil, rowsLoaded: offset + rows,
                                       elapsed: state.elapsed))
                return nil
            case .end(let ending):
                try sink.endPage(converter: ending.converter)
                return PageRead(rows: ending.rows, lastRow: ending.lastRow)
            }
        }
    }
}
