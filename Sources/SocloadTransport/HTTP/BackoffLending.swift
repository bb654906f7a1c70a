import Foundation

/// What the calling thread lends while it waits out a retry's backoff: a batch of datasets
/// (`refresh --jobs N`) lends the thread's job slot, so another dataset runs meanwhile and a
/// faulty portal holds nobody up. The batch installs the lending on each of its worker threads
/// (`lending(release:reacquire:_:)`); `RetryPolicy` waits through `whileWaiting`. On a thread
/// without one, a wait is only a wait.
public enum BackoffLending {
    private final class Hooks: @unchecked Sendable {
        // @unchecked Sendable: stored in, and read from, one thread's dictionary only.
        let release: () -> Void
        let reacquire: () -> Void
        init(release: @escaping () -> Void, reacquire: @escaping () -> Void) {
            (self.release, self.reacquire) = (release, reacquire)
        }
    }

    private static let key = "socload.backoff-lending"

    /// Runs `body` on this thread with waits that `release` before and `reacquire` after.
    public static func lending<T>(release: @escaping () -> Void, reacquire: @escaping () -> Void, _ body: () throws -> T) rethrows -> T {
        let dictionary = Thread.current.threadDictionary
        let outer = dictionary[key]
        dictionary[key] = Hooks(release: release, reacquire: reacquire)
        defer { dictionary[key] = outer }
        return try body()
    }

    /// Runs `wait` with what this thread lends released meanwhile (and taken back after, even
    /// when the wait throws: a cancelled wait ends the dataset, which gives its slot back then).
    public static func whileWaiting(_ wait: () throws -> Void) rethrows {
        guard let hooks = Thread.current.threadDictionary[key] as? Hooks else { return try wait() }
        hooks.release()
        defer { hooks.reacquire() }
        try wait()
    }
}
