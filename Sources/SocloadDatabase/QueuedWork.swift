import Synchronization

/// One async call waiting for, or running on, a `DatabaseQueue`, and what its task's
/// cancellation does to it: while it waits its caller is resumed at once with
/// `CancellationError` (the closure never runs); while it runs the connection is interrupted
/// (its statement fails within milliseconds), the error becomes `CancellationError`, and the
/// queue is made ready for the next caller.
final class QueuedWork<T: Sendable>: Sendable {
    private enum State {
        case waiting(CheckedContinuation<T, any Error>?)
        case running(CheckedContinuation<T, any Error>)
        case cancelled
        case finished
    }

    private let state = Mutex<State>(.waiting(nil))
    /// True when the task was cancelled while the closure ran (its connection interrupted).
    private let interruptedWhileRunning = Atomic<Bool>(false)

    /// Keeps the caller's continuation; a task cancelled before this resumes it now.
    func attach(_ continuation: CheckedContinuation<T, any Error>) {
        let resumeNow = state.withLock { state -> Bool in
            guard case .waiting = state else { return true }
            state = .waiting(continuation)
            return false
        }
        if resumeNow { continuation.resume(throwing: CancellationError()) }
    }

    /// On the queue, before the closure runs: false when the caller has gone already.
    func start() -> Bool {
        state.withLock { state in
            guard case .waiting(let continuation?) = state else { return false }
            state = .running(continuation)
            return true
        }
    }

    /// On the queue, once the closure returned or threw: resumes the caller (unless it was
    /// resumed by the cancellation); true when the connection was interrupted for it.
    func finish(_ result: Result<T, any Error>) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard case .running(let continuation) = state else { return nil }
            state = .finished
            return continuation
        }
        let interrupted = interruptedWhileRunning.load(ordering: .sequentiallyConsistent)
        if case .failure = result, interrupted {
            continuation?.resume(throwing: CancellationError())
        } else {
            continuation?.resume(with: result)
        }
        return interrupted
    }

    /// The task's cancellation handler: resumes a waiting caller now, or interrupts the running
    /// closure (`interrupt`, called under the lock so it never reaches the next caller's work).
    func cancel(interrupt: () -> Void) {
        let waiting = state.withLock { state -> CheckedContinuation<T, any Error>?? in
            switch state {
            case .waiting(let continuation):
                state = .cancelled
                return .some(continuation)
            case .running:
                interruptedWhileRunning.store(true, ordering: .sequentiallyConsistent)
                interrupt()
                return nil
            case .cancelled, .finished:
                return nil
            }
        }
        if case .some(let continuation?) = waiting { continuation.resume(throwing: CancellationError()) }
    }
}
