import Synchronization

/// A flag a front end sets (from a signal handler, say) to stop a load; the load then rolls back
/// and fails with `LoadError.interrupted`.
public final class LoadCancellation: Sendable {
    private let receivedSignal = Atomic<Int32>(0)

    public init() {}

    /// Asks the load to stop, recording the signal that asked.
    public func cancel(signal: Int32) {
        receivedSignal.store(signal, ordering: .sequentiallyConsistent)
    }

    public var isCancelled: Bool { signal != nil }

    /// Forgets the cancel (the loader does it once the cancelled load has ended), so the next
    /// load runs.
    public func clear() {
        receivedSignal.store(0, ordering: .sequentiallyConsistent)
    }

    /// The signal that cancelled the load, if it was cancelled.
    public var signal: Int32? {
        let value = receivedSignal.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// Throws `LoadError.interrupted` once cancelled.
    public func check() throws {
        if let signal { throw LoadError.interrupted(signal: signal) }
    }
}

extension LoadCancellation {
    /// The "signal" recorded when a Swift `Task` is cancelled.
    public static let taskCancelled: Int32 = 1_000
}

extension LoadCancellation {
    /// Runs one operation of `destination` that `cancellation` may stop: once it has ended, a
    /// cancel is cleared (so the next operation runs) and the destination works again, and the
    /// operation's outcome becomes `LoadError.cancelled` or `.interrupted(signal:)`.
    public static func reporting<T>(_ cancellation: LoadCancellation?, destination: any LoadDestination,
                                    _ body: () throws -> T) throws -> T {
        let result = Result { try body() }
        guard let signal = cancellation?.signal else { return try result.get() }
        destination.resumeAfterInterrupt()
        cancellation?.clear()
        if case .success(let value) = result { return value }
        throw signal == LoadCancellation.taskCancelled ? LoadError.cancelled : LoadError.interrupted(signal: signal)
    }
}
