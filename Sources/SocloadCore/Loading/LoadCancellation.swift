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
