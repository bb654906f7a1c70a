import Foundation
import SocloadCore

/// Loads a dataset into a destination: reads the rows as they arrive (rows.json, or SODA pages),
/// plans the table from the column metadata, converts and writes every row, builds the key and
/// indexes, and records the catalog entry — all in ONE transaction, so any failure (network, bad
/// data, duplicate key, interruption) leaves the previous copy of the table untouched.
///
/// The façade of the jobs (`FetchJob`, `SyncJob`, `DocumentLoadJob`): it holds what they share
/// (the destination, HTTP options, retries, cancellation, progress) and the SODA paging the fetch
/// and the sync both read through.
///
///     let queue = try DatabaseQueue(path: "socload.sqlite")
///     let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))
///     let summary = try loader.load(LoadSpec(dataset: "n5m4-mism"))
public final class DatasetLoader: @unchecked Sendable {
    // @unchecked Sendable: its properties never change after init, and a load runs on one thread
    // at a time (the async `load` hands the loader to a thread of its own and waits for it).
    /// The destination, HTTP options, retries, cancellation, progress and retry notices every job
    /// runs with.
    package let context: LoadContext
    var destination: any LoadDestination { context.destination }
    var http: HTTPOptions { context.http }
    var retry: RetryPolicy { context.retry }
    var cancellation: LoadCancellation? { context.cancellation }
    var progress: (@Sendable (LoadProgress) -> Void)? { context.progress }
    /// What the portal said during the load running now, for its refresh log.
    let heard: HeardNotices

    /// `progress` and `onRetry` are called on the thread that runs the load (the database's), not
    /// the caller's: they are `@Sendable`, so a closure that touches `@MainActor` state must hop
    /// to it (`Task { @MainActor in ... }`). `cancellation` is optional: `cancel(signal:)` works
    /// on any loader.
    public init(destination: any LoadDestination, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
                cancellation: LoadCancellation? = nil, progress: (@Sendable (LoadProgress) -> Void)? = nil,
                onRetry: (@Sendable (String) -> Void)? = nil) {
        var http = http
        let (caller, heard) = (http.onResponseHead, HeardNotices())
        self.heard = heard
        http.onResponseHead = { head, url in
            caller?(head, url)
            heard.observe(head, url: url)
        }
        context = LoadContext(destination: destination, http: http, retry: retry, cancellation: cancellation ?? LoadCancellation(),
                              progress: progress, onRetry: onRetry)
    }

    /// Stops the load running now, from any thread (a signal handler, say): a blocked read,
    /// network wait, database statement or lock wait ends within a second, the load rolls back
    /// and fails with `LoadError.interrupted(signal:)`. Afterwards the loader and its database
    /// work as before: the next load runs normally.
    public func cancel(signal: Int32) {
        cancellation?.cancel(signal: signal)
        destination.interrupt()
    }

    /// Loads the dataset `request` names, replacing its table, in one transaction. In async code
    /// use `await load(_:)`, which a cancelled `Task` stops (this one would block the task).
    @available(*, noasync, message: "in async code write `try await loader.load(request)`: a Task cancel can stop it")
    package func load(_ request: LoadRequest) throws -> LoadSummary {
        try loadNow(request)
    }

    func loadNow(_ request: LoadRequest) throws -> LoadSummary {
        var request = request
        request.storable = destination.storableValues
        request.maximumNameBytes = destination.maximumNameBytes
        request.columnLimit = destination.columnLimit
        // The whole call, waits for another connection's lock included.
        let start = DispatchTime.now().uptimeNanoseconds
        var summary = try explainingThrottling {
            try reportingCancellation { try fallingBackToRowsJSON(request) { try startingOverOnce($0) } }
        }
        summary.elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return summary
    }

    /// Runs the fetch; when the dataset changed on the portal while its pages were read, once
    /// more from the start (said through `onRetry`), asking the portal afresh.
    private func startingOverOnce(_ request: LoadRequest) throws -> LoadSummary {
        do {
            return try FetchJob(loader: self, request: request).run()
        } catch LoadError.changedWhileRead(let before, let after) {
            context.onRetry?("\(request.reference.datasetID ?? request.reference.displaySource) changed on the portal while its pages were read "
                             + "(rowsUpdatedAt \(before), then \(after)): starting over")
            var again = request
            again.prefetched = nil
            return try FetchJob(loader: self, request: again).run()
        }
    }

    /// The query API a load without `--api` reads through: SODA3 with an app token or a login
    /// (it needs one), SODA 2.1 without.
    var queryAPI: DatasetAPI { DatasetAPI.query(hasCredentials: http.hasCredentials) }

    func reportingCancellation<T>(_ body: () throws -> T) throws -> T {
        try context.reportingCancellation(body)
    }

    /// The dataset's view metadata (`/api/views/ID.json`), retried like any request.
    func fetchView(_ portal: SocrataPortal) throws -> ViewMetadata {
        try ViewMetadata(description: downloadDescription(portal.viewURL), source: portal.viewURL)
    }

    func downloadDescription(_ url: String) throws -> [UInt8] { try context.downloadDescription(url) }

    func retryNotice(_ error: HTTPError, _ retry: Int, _ wait: Double) { context.retryNotice(error, retry, wait) }

    func reportProgress(_ state: LoadState) { context.reportProgress(state) }
}

extension ViewMetadata {
    /// `rowsUpdatedAt` as ISO-8601 UTC; nil when absent or out of any sensible range.
    package var rowsUpdatedAtText: String? {
        guard let seconds = rowsUpdatedAt, (-9_999_999_999_999...9_999_999_999_999).contains(seconds) else { return nil }
        return ISO8601Timestamp.format(Date(timeIntervalSince1970: Double(seconds)))
    }
}
