import SocloadCore
import Foundation

/// How failed requests are retried: exponential backoff with jitter, honouring `Retry-After`.
///
/// Attempt n (1-based) waits `baseDelay * 2^(n-1)`, times a random factor between 0.5 and 1.5,
/// capped at `maximumDelay`; a `Retry-After` from the server replaces the computed wait (capped
/// at `maximumRetryAfter`).
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt; 0 disables retrying.
    public var maximumRetries: Int
    public var baseDelay: Double
    public var maximumDelay: Double
    public var maximumRetryAfter: Double

    /// How many times a failed request is tried again unless told otherwise.
    public static let defaultMaximumRetries = 5

    public init(maximumRetries: Int = RetryPolicy.defaultMaximumRetries, baseDelay: Double = 1, maximumDelay: Double = 60,
                maximumRetryAfter: Double = 300) {
        self.maximumRetries = maximumRetries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// Seconds to wait before retry number `retry` (1-based) after `error`.
    public func delay(beforeRetry retry: Int, after error: HTTPError) -> Double {
        if let asked = error.retryAfter { return min(max(asked, 0), maximumRetryAfter) }
        let exponential = baseDelay * pow(2, Double(retry - 1))
        return min(exponential * Double.random(in: 0.5...1.5), maximumDelay)
    }

    /// Runs `attempt` until it succeeds, fails with an error that is not retryable, or runs out of
    /// retries; the last error is rethrown. `onRetry` hears about each retry before its wait.
    public func run<T>(cancellation: LoadCancellation? = nil,
                       onRetry: (HTTPError, Int, Double) -> Void = { _, _, _ in },
                       _ attempt: () throws -> T) throws -> T {
        var retry = 0
        while true {
            do {
                return try attempt()
            } catch let error as HTTPError where error.isRetryable && retry < maximumRetries {
                retry += 1
                let wait = delay(beforeRetry: retry, after: error)
                onRetry(error, retry, wait)
                // A batch's job slot is lent to another dataset meanwhile (`WaitLending`).
                try WaitLending.whileWaiting { try Self.sleep(wait, cancellation: cancellation) }
            }
        }
    }

    /// Sleeps in short steps so a cancellation is noticed promptly.
    static func sleep(_ seconds: Double, cancellation: LoadCancellation?) throws {
        var remaining = seconds
        while remaining > 0 {
            try cancellation?.check()
            let step = min(remaining, 0.1)
            Thread.sleep(forTimeInterval: step)
            remaining -= step
        }
        try cancellation?.check()
    }

    /// `Retry-After` is either seconds (`120`) or an HTTP date.
    static func parseRetryAfter(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: trimmed).map { max(0, $0.timeIntervalSinceNow) }
    }
}
