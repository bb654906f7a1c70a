import Foundation

/// What the calling thread lends while it only waits on the network: out a retry's backoff
/// (`RetryPolicy`), or on a response slower than `SlowResponseWatch` allows (`HTTPDownloader`).
/// A batch of datasets (`refresh --jobs N`) lends the thread's job slot, so another dataset runs
/// meanwhile and a faulty or slow portal holds nobody up. The batch installs the lending on each
/// of its worker threads (`lending(release:reacquire:_:)`) and suspends it while a thread holds
/// what others wait for (`withoutLending`: SQLite's writer's turn, whose holder must never wait
/// for a slot that threads waiting for the turn hold). On a thread without lending, a wait is
/// only a wait.
public enum WaitLending {
    private final class Hooks: @unchecked Sendable {
        // @unchecked Sendable: stored in, and read from, one thread's dictionary only.
        let release: () -> Void
        let reacquire: () -> Void
        init(release: @escaping () -> Void, reacquire: @escaping () -> Void) {
            (self.release, self.reacquire) = (release, reacquire)
        }
    }

    private static let key = "socload.wait-lending"

    private static var hooks: Hooks? { Thread.current.threadDictionary[key] as? Hooks }

    /// Runs `body` on this thread with waits that `release` before and `reacquire` after.
    public static func lending<T>(release: @escaping () -> Void, reacquire: @escaping () -> Void, _ body: () throws -> T) rethrows -> T {
        try installing(Hooks(release: release, reacquire: reacquire), body)
    }

    /// Runs `body` with nothing lent by its waits (the thread holds what others wait for).
    public static func withoutLending<T>(_ body: () throws -> T) rethrows -> T {
        try installing(nil, body)
    }

    private static func installing<T>(_ hooks: Hooks?, _ body: () throws -> T) rethrows -> T {
        let dictionary = Thread.current.threadDictionary
        let outer = dictionary[key]
        dictionary[key] = hooks
        defer { dictionary[key] = outer }
        return try body()
    }

    /// Runs `wait` with what this thread lends released meanwhile (and taken back after, even
    /// when the wait throws: a cancelled wait ends the dataset, which gives its slot back then).
    public static func whileWaiting(_ wait: () throws -> Void) rethrows {
        guard let hooks else { return try wait() }
        hooks.release()
        defer { hooks.reacquire() }
        try wait()
    }

    /// Lends what this thread lends now, in the middle of an operation found to be only waiting
    /// (a slow response): the function to call when the operation ends, which takes it back; nil
    /// when the thread lends nothing.
    public static func lendUntilDone() -> (() -> Void)? {
        guard let hooks else { return nil }
        hooks.release()
        return hooks.reacquire
    }
}
