import Foundation
import SocloadCore

/// A whole dataset's query pages downloaded ahead of the writer's turn (`refresh --jobs` on
/// SQLite), as the download cache keeps pages (`DownloadCache.PagesWriter`, in a temporary
/// folder): the load then reads them in its turn without waiting on the network, and a page that
/// fails and waits out its retries holds nobody's turn.
extension DatasetLoader {
    /// `request` with its pages spooled (`PrefetchedSource.spooledPages`) when it is a plain
    /// whole-dataset query fetch (no SoQL option, limit, maximum or download cache) of a
    /// described dataset. A page that cannot be had after its retries fails the dataset as the
    /// load would (`PageError`). What the spool cannot page by key — a server that ignores the
    /// key, rows without `:id` — or a dataset that changed while its pages were read leaves the
    /// request as it was, for the load to read in its turn as before.
    package static func spoolingPages(_ request: LoadRequest, view: ViewMetadata, api: DatasetAPI, http: HTTPOptions,
                                      retry: RetryPolicy, cancellation: LoadCancellation?,
                                      onRetry: (@Sendable (String) -> Void)?, directory: String) throws -> LoadRequest {
        guard api != .rows, request.query.isEmpty, request.limit == nil, request.maxRows == nil, request.cache == nil,
              request.partialReason == nil, let portal = SocrataPortal(reference: request.reference),
              let stamp = view.rowsUpdatedAtText else { return request }
        let root = (directory as NSString).appendingPathComponent("socload-pages-\(getpid())-\(UUID().uuidString)")
        let loader = DatasetLoader(destination: NoDestination(), http: http, retry: retry, cancellation: cancellation, onRetry: onRetry)
        AbandonedFiles.remove(in: directory, prefix: "socload-pages-")
        let kept: Bool
        do {
            // Failures read as a load's would (the hint about anonymous throttling among them).
            kept = try loader.explainingThrottling {
                // Pages are not a snapshot: the description once more after the last of several.
                guard let (pages, count) = try loader.spool(request, portal: portal, api: api, view: view,
                                                           into: DownloadCache(directory: root)),
                      try count == 1 || loader.viewIfAvailable(portal)?.rowsUpdatedAtText == stamp else { return false }
                try pages.keep(datasetID: portal.datasetID, rowsUpdatedAt: stamp, description: view.descriptionJSON)
                return true
            }
        } catch {
            try? FileManager.default.removeItem(atPath: root)
            throw error
        }
        guard kept else {
            try? FileManager.default.removeItem(atPath: root)
            return request
        }
        guard case .pages(let pages)? = DownloadCache(directory: root).version(datasetID: portal.datasetID, rowsUpdatedAt: stamp) else {
            try? FileManager.default.removeItem(atPath: root)
            return request
        }
        var spooled = request
        spooled.prefetched = .spooledPages(directory: pages, root: root, view: view)
        return spooled
    }

    /// Every page, by key, into `cache`'s pages writer (stored, not compressed: read back at
    /// once), with the number of pages; nil when the pages cannot be had by key.
    private func spool(_ request: LoadRequest, portal: SocrataPortal, api: DatasetAPI, view: ViewMetadata,
                       into cache: DownloadCache) throws -> (DownloadCache.PagesWriter, pages: Int)? {
        let writer = try cache.startPages(level: 0)
        let downloader = HTTPDownloader(options: http, cancellation: cancellation)
        let pageSize = max(1, request.pageSize)
        var cursor = PageCursor()
        var previousLastRow: [UInt8] = []
        var number = 0
        while true {
            number += 1
            let pageRequest = api == .soda3
                ? portal.soda3PageRequest(query: request.query, after: cursor.after, pageNumber: 1, pageSize: pageSize)
                : HTTPRequest(url: portal.soda2PageURL(query: request.query, after: cursor.after, offset: nil, limit: pageSize))
            var (rows, lastRow) = (0, [UInt8]())
            do {
                try retry.run(cancellation: cancellation, onRetry: retryNotice) {
                    rows = 0
                    lastRow.removeAll(keepingCapacity: true)
                    let file = try writer.page(number)
                    let reader = JSONArrayReader()
                    try downloader.download(pageRequest, onResponse: { _ in }, onChunk: { chunk in
                        try file.write(chunk)
                        try reader.feed(chunk) { element in
                            guard element.isWhole else { return nil }
                            rows += 1
                            // One buffer for the page, not an array a row.
                            lastRow.removeAll(keepingCapacity: true)
                            lastRow.append(contentsOf: element.bytes[element.start...])
                            return nil
                        }
                    })
                    try reader.finish()
                    try writer.finish(file, page: number, rows: rows)
                }
            } catch let error as HTTPError {
                throw PageError(number: number, underlying: error)
            }
            if rows < pageSize { return (writer, number) }
            // A page that ends where the one before did: a server that ignores the key.
            if lastRow == previousLastRow { return nil }
            previousLastRow = lastRow
            if cursor.advance(pastLastRow: lastRow, query: request.query, columnTypes: Self.fieldTypes(of: view)) != nil
                || cursor.byOffset { return nil }
        }
    }
}
