import Foundation
import SocloadCore

/// What a load found out, or started, before its turn at the database (`DatasetLoader.prefetch`).
package enum PrefetchedSource: Sendable {
    /// The portal's description, read to compare its rowsUpdatedAt with the last load's. The
    /// load compares it again with what its transaction sees, without asking the portal again.
    case description(ViewMetadata)
    /// The rows.json body, being downloaded into a temporary file (conditionally, as the load
    /// would have asked for it), because the dataset changed since the load of `since` (the
    /// `fetchedAt` of the catalog entry compared with; nil: there was none). When the load's
    /// transaction finds another entry (an earlier dataset of the batch loaded the same
    /// table meanwhile), it asks the portal again.
    case download(SpooledDownload, since: String?)
    /// A copy from the download cache, read instead of the portal; `head` stands for the
    /// response it was (its ETag and Last-Modified, recorded as a download's would be).
    case cachedCopy(path: String, head: HTTPResponseHead)
    /// A query API's pages from the download cache (`DownloadCache.Version.pages`), with the
    /// description kept beside them, read instead of the portal.
    case cachedPages(directory: String)
    /// A query API's pages downloaded ahead of the writer's turn (`spoolingPages`), laid out as
    /// the cache keeps pages, in `directory` under the temporary folder `root` (removed after), of
    /// the version `view` describes: a load that finds its table already at that version (an
    /// earlier dataset of the batch loaded it meanwhile) writes nothing.
    case spooledPages(directory: String, root: String, view: ViewMetadata)
}

extension DatasetLoader {
    /// Does what a load of `request` can do before it may write, so that datasets waiting for
    /// one writer (SQLite) are not waiting on the network too: the portal's description is
    /// read to see whether the dataset changed since `previous` (the catalog entry of the
    /// table, read by the caller, which needs no turn), and when it did, or cannot tell, the
    /// rows.json download starts into a temporary file in `directory`. The request that comes
    /// back carries what was found (`prefetched`); load it when its turn comes.
    ///
    /// A rows.json fetch from a portal is downloaded ahead, and so are a whole dataset's query
    /// pages (`spoolingPages`); a file comes back as it was.
    package static func prefetch(_ request: LoadRequest, previous: (String) throws -> CatalogEntry?,
                                http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
                                cancellation: LoadCancellation? = nil, onRetry: (@Sendable (String) -> Void)? = nil,
                                directory: String = NSTemporaryDirectory()) throws -> LoadRequest {
        guard case .url(let url) = request.reference.location, request.prefetched == nil else { return request }
        let entry = try previousEntry(for: request, lookup: previous)
        var request = describedAhead(request, since: entry, http: http, retry: retry, cancellation: cancellation, onRetry: onRetry)
        if request.isSettled(since: entry) { return request }
        let api = try request.resolvedAPI(hasCredentials: http.hasCredentials)
        guard api == .rows else {
            // A query API's pages are downloaded ahead too, when the dataset is described.
            var described: ViewMetadata?
            if case .description(let view)? = request.prefetched {
                described = view
            } else if let portal = SocrataPortal(reference: request.reference) {
                let loader = DatasetLoader(destination: NoDestination(), http: http, retry: retry, cancellation: cancellation,
                                           onRetry: onRetry)
                described = try? loader.viewIfAvailable(portal)
            }
            guard let view = described else { return request }
            return try spoolingPages(request, view: view, api: api, http: http, retry: retry, cancellation: cancellation,
                                     onRetry: onRetry, directory: directory)
        }
        let download = HTTPRequest(url: url, headers: conditionalHeaders(since: entry))
        request.prefetched = .download(try SpooledDownload(download, http: http, cancellation: cancellation, directory: directory),
                                       since: entry?.fetchedAt)
        return request
    }

    /// `request` with the portal's description read ahead (`prefetched`), when there is a last
    /// load to compare it with (`entry`): the load compares its rowsUpdatedAt without asking
    /// again, and a batch settles an unchanged dataset by it without the writer's turn
    /// (`isSettled(since:)`). A description that cannot be read is left to the load to ask for.
    package static func describedAhead(_ request: LoadRequest, since entry: CatalogEntry?, http: HTTPOptions,
                                       retry: RetryPolicy, cancellation: LoadCancellation? = nil,
                                       onRetry: (@Sendable (String) -> Void)? = nil) -> LoadRequest {
        guard request.prefetched == nil, case .url = request.reference.location, let entry, entry.rowsUpdatedAt != nil,
              let portal = SocrataPortal(reference: request.reference) else { return request }
        let loader = DatasetLoader(destination: NoDestination(), http: http, retry: retry, cancellation: cancellation,
                                   onRetry: onRetry)
        guard let view = try? loader.fetchView(portal), view.rowsUpdatedAtText != nil else { return request }
        var request = request
        request.prefetched = .description(view)
        return request
    }

    /// The catalog entry a refresh of `request` compares with: the same table, dataset, portal
    /// and request; nil when there is none (or `--force`).
    package static func previousEntry(for request: LoadRequest,
                              lookup: (String) throws -> CatalogEntry?) throws -> CatalogEntry? {
        guard !request.force, request.tableName != nil || request.reference.datasetID != nil else { return nil }
        let table = request.targetTable(view: nil)
        guard let entry = try lookup(table), entry.tableName == table,
              request.isSignature(of: entry.requestSignature) else { return nil }
        switch request.reference.location {
        case .url:
            guard entry.datasetID == request.reference.datasetID, entry.domain == request.reference.domain else { return nil }
        case .file:
            // The same file (its signature, in `etag`, says whether it changed since).
            guard entry.sourceURL == request.reference.displaySource, entry.etag?.hasPrefix(FileSignature.prefix) == true else {
                return nil
            }
        }
        return entry
    }

    /// If-None-Match and If-Modified-Since from the last load's response.
    static func conditionalHeaders(since previous: CatalogEntry?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let etag = previous?.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = previous?.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        return headers
    }
}

extension LoadRequest {
    /// True when the description read ahead says the dataset is as it was at the load of
    /// `entry`: the load would write nothing, so a batch settles it without the writer's turn.
    package func isSettled(since entry: CatalogEntry?) -> Bool {
        guard let recorded = entry?.rowsUpdatedAt, case .description(let view)? = prefetched else { return false }
        return view.rowsUpdatedAtText == recorded
    }

    /// Returns when a download started ahead has ended (at once when there is none), so that a
    /// dataset takes its turn at the database only when it can write without waiting on the
    /// network: a slow download does not hold the others up.
    package func waitForPrefetch(cancellation: LoadCancellation?) throws {
        if case .download(let spool, _)? = prefetched { try spool.waitForEnd(cancellation: cancellation) }
    }

    /// Stops a download started ahead (`DatasetLoader.prefetch`) that the load no longer reads:
    /// call it when the load has ended, whichever way.
    package func abandonPrefetch() {
        switch prefetched {
        case .download(let spool, _)?: spool.abandon()
        case .spooledPages(_, let root, _)?: try? FileManager.default.removeItem(atPath: root)
        default: break
        }
    }
}
