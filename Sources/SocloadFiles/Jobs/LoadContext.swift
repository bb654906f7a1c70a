import Foundation
import SocloadCore
import SocloadEngine
import SocloadTransport

/// What a job runs with, whatever its source: the destination, the HTTP options and retries,
/// the cancellation, and who hears of progress and retries. `DatasetLoader` holds one and gives
/// it to each job it makes.
package struct LoadContext {
    package let destination: any LoadDestination
    package let http: HTTPOptions
    package let retry: RetryPolicy
    /// Always set (a loader made without one has its own), optional for the readers it is passed to.
    package let cancellation: LoadCancellation?
    package let progress: (@Sendable (LoadProgress) -> Void)?
    package let onRetry: (@Sendable (String) -> Void)?

    package init(destination: any LoadDestination, http: HTTPOptions, retry: RetryPolicy, cancellation: LoadCancellation?,
                 progress: (@Sendable (LoadProgress) -> Void)?, onRetry: (@Sendable (String) -> Void)?) {
        self.destination = destination
        self.http = http
        self.retry = retry
        self.cancellation = cancellation
        self.progress = progress
        self.onRetry = onRetry
    }

    /// Runs a load; a cancelled one (whatever failed because of the cancel: an interrupted
    /// statement, an aborted transfer) ends with `LoadError.cancelled` (a cancelled `Task`) or
    /// `LoadError.interrupted(signal:)`. Either way the destination and the cancellation are
    /// made ready again, so the loader can load again (a cancel that came as the load ended too).
    package func reportingCancellation<T>(_ body: () throws -> T) throws -> T {
        try LoadCancellation.reporting(cancellation, destination: destination, body)
    }

    /// A whole response body of at most 64 MB (a description), retried like any request.
    package func downloadDescription(_ url: String) throws -> [UInt8] {
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

    package func retryNotice(_ error: HTTPError, _ retry: Int, _ wait: Double) {
        onRetry?("\(error); retry \(retry) of \(self.retry.maximumRetries) in \(String(format: "%.1f", wait)) s")
    }

    package func reportProgress<Facts>(_ state: LoadState<Facts>) {
        progress?(LoadProgress(bytesRead: state.bytesRead, bytesExpected: state.bytesExpected,
                               rowsLoaded: state.rowCount, elapsed: state.elapsed))
    }
}
