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
    let destination: any LoadDestination
    let http: HTTPOptions
    let retry: RetryPolicy
    /// Always set (a loader made without one has its own), optional for the readers it is passed to.
    let cancellation: LoadCancellation?
    let progress: (@Sendable (LoadProgress) -> Void)?
    let onRetry: (@Sendable (String) -> Void)?

    /// `progress` and `onRetry` are called on the thread that runs the load (the database's), not
    /// the caller's: they are `@Sendable`, so a closure that touches `@MainActor` state must hop
    /// to it (`Task { @MainActor in ... }`). `cancellation` is optional: `cancel(signal:)` works
    /// on any loader.
    public init(destination: any LoadDestination, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
                cancellation: LoadCancellation? = nil, progress: (@Sendable (LoadProgress) -> Void)? = nil,
                onRetry: (@Sendable (String) -> Void)? = nil) {
        self.destination = destination
        self.http = http
        self.retry = retry
        self.cancellation = cancellation ?? LoadCancellation()
        self.progress = progress
        self.onRetry = onRetry
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
        var summary = try reportingCancellation { try FetchJob(loader: self, request: request).run() }
        summary.elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return summary
    }

    /// Runs a load; a cancelled one (whatever failed because of the cancel: an interrupted
    /// statement, an aborted transfer) ends with `LoadError.cancelled` (a cancelled `Task`) or
    /// `LoadError.interrupted(signal:)`. Either way the destination and the cancellation are
    /// made ready again, so the loader can load again (a cancel that came as the load ended too).
    func reportingCancellation<T>(_ body: () throws -> T) throws -> T {
        try LoadCancellation.reporting(cancellation, destination: destination, body)
    }

    /// The current time, to the second, as ISO-8601 UTC.
    static func now() -> String {
        ISO8601Timestamp.format(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    /// The dataset's view metadata (`/api/views/ID.json`), retried like any request.
    func fetchView(_ portal: SocrataPortal) throws -> ViewMetadata {
        try ViewMetadata(description: downloadDescription(portal.viewURL), source: portal.viewURL)
    }

    /// A whole response body of at most 64 MB (a view description), retried like any request.
    func downloadDescription(_ url: String) throws -> [UInt8] {
        let downloader = HTTPDownloader(options: http, cancellation: cancellation)
        return try retry.run(cancellation: cancellation, onRetry: retryNotice) { () throws -> [UInt8] in
            var body: [UInt8] = []
            try downloader.download(url) { chunk in
                body.append(contentsOf: chunk)
                if body.count > 64 << 20 { throw HTTPError.bodyTooLarge(limit: 64 << 20, url: url) }
            }
            return body
        }
    }

    func retryNotice(_ error: HTTPError, _ retry: Int, _ wait: Double) {
        onRetry?("\(error); retry \(retry) of \(self.retry.maximumRetries) in \(String(format: "%.1f", wait)) s")
    }

    func reportProgress(_ state: LoadState) {
        progress?(LoadProgress(bytesRead: state.bytesRead, bytesExpected: state.bytesExpected,
                               rowsLoaded: state.rowCount, elapsed: state.elapsed))
    }
}

extension ViewMetadata {
    /// `rowsUpdatedAt` as ISO-8601 UTC; nil when absent or out of any sensible range.
    var rowsUpdatedAtText: String? {
        guard let seconds = rowsUpdatedAt, (-9_999_999_999_999...9_999_999_999_999).contains(seconds) else { return nil }
        return ISO8601Timestamp.format(Date(timeIntervalSince1970: Double(seconds)))
    }
}
