import Dispatch
import Synchronization

/// The right to use one of a pool's readers: `count` holders at once, the others waiting in the
/// order they came. A waiting async task that is cancelled leaves the line at once and is
/// answered with `CancellationError`, as a call waiting behind others on a `DatabaseQueue` is;
/// a waiting thread (the synchronous calls) blocks on a semaphore of its own.
final class ReaderPermits: Sendable {
    private enum Waiter {
        case task(id: UInt64, CheckedContinuation<Void, any Error>)
        case thread(DispatchSemaphore)
    }

    private let state: Mutex<(free: Int, waiters: [Waiter], nextID: UInt64)>

    init(count: Int) {
        state = Mutex((count, [], 0))
    }

    /// Blocks the calling thread until a permit is its.
    func wait() {
        let semaphore = state.withLock { state -> DispatchSemaphore? in
            if state.free > 0 {
                state.free -= 1
                return nil
            }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiters.append(.thread(semaphore))
            return semaphore
        }
        semaphore?.wait()
    }

    /// Suspends until a permit is the task's; throws `CancellationError` (holding none) when the
    /// task is cancelled first.
    func acquire() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.free > 0 {
                        state.free -= 1
                        return .success(())
                    }
                    state.waiters.append(.task(id: id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { if case .task(id, _) = $0 { true } else { false } }),
                      case .task(_, let continuation) = state.waiters.remove(at: index) else { return nil }
                return continuation
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Gives a permit back: to the first in line, else to the free ones.
    func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        switch next {
        case .task(_, let continuation): continuation.resume()
        case .thread(let semaphore): semaphore.signal()
        case nil: break
        }
    }
}
