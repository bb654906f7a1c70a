import Synchronization
import Foundation
import SocloadSocrata

/// What each dataset of a batch (`refresh`, `fetch A B C`) is loaded with.
///
/// With `--jobs N` above 1, N datasets are worked on at once. PostgreSQL loads them side by side,
/// each on its own connection. SQLite has one writer, so a dataset waits for its `turn` to
/// write; until then its download goes to a temporary file (`DatasetLoader.prefetch`), so the
/// server is not left waiting, and the load reads that file when its turn comes.
final class DatasetJob: Sendable {
    /// Set by SIGINT or SIGTERM: what has not started does not start, downloads ahead stop.
    let stop: LoadCancellation
    /// Held while a dataset writes, when loads run side by side on a database of one writer.
    let turn: NSLock?
    /// False when datasets load side by side: one progress line cannot show several.
    let showsProgress: Bool

    init(stop: LoadCancellation, turn: NSLock?, showsProgress: Bool) {
        self.stop = stop
        self.turn = turn
        self.showsProgress = showsProgress
    }

    /// Threads standing ready per job slot, to take a dataset while another waits out a backoff.
    static let standbyPerJob = 8

    /// A job for one dataset alone.
    static let alone = DatasetJob(stop: LoadCancellation(), turn: nil, showsProgress: true)

    /// `body` while holding the turn, when there is one to take.
    func writing<T>(_ body: () throws -> T) rethrows -> T {
        guard let turn else { return try body() }
        turn.lock()
        defer { turn.unlock() }
        return try body()
    }

    /// Runs `body` for indexes 0..<count, `jobs` at a time on threads of their own (on this
    /// thread when `jobs` is 1), each index once, in order of starting. An index not started
    /// when `stop` is set is not run: its result is nil.
    ///
    /// A job slot is lent while its dataset waits out a retry's backoff (`BackoffLending`): a
    /// thread is started then (up to `standbyPerJob` a slot in all) to take the next dataset
    /// meanwhile, so a faulty portal costs the batch its retries' waits once, not once per slot.
    static func run<T>(_ count: Int, jobs: Int, stop: LoadCancellation, _ body: @escaping (Int) -> T) -> [T?] {
        let state = Work<T>(count: count, body: body)
        guard jobs > 1 else {
            state.work(stop: stop)
            return state.results
        }
        let slots = DispatchSemaphore(value: jobs)
        let group = DispatchGroup()
        let started = Mutex(0)
        @Sendable func startWorker() {
            // Never more threads than datasets, nor than the standby allows.
            guard started.withLock({ count in
                guard count < min(jobs * standbyPerJob, state.count), state.hasWork(stop: stop) else { return false }
                count += 1
                return true
            }) else { return }
            group.enter()
            let thread = Thread {
                BackoffLending.lending(release: {
                    slots.signal()
                    startWorker()
                }, reacquire: { slots.wait() }) {
                    state.work(stop: stop, slots: slots)
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        for _ in 0..<min(jobs, count) { startWorker() }
        group.wait()
        return state.results
    }

    /// The indexes still to run and the results so far, shared by the threads.
    private final class Work<T>: @unchecked Sendable {
        private let lock = NSLock()
        let count: Int
        private let body: (Int) -> T
        private var next = 0
        private(set) var results: [T?]

        init(count: Int, body: @escaping (Int) -> T) {
            self.count = count
            self.body = body
            results = Array(repeating: nil, count: count)
        }

        /// True while an index is left to start.
        func hasWork(stop: LoadCancellation) -> Bool {
            lock.withLock { next < count && !stop.isCancelled }
        }

        /// Runs indexes until none is left; with `slots`, each while holding one.
        func work(stop: LoadCancellation, slots: DispatchSemaphore? = nil) {
            while true {
                slots?.wait()
                let index: Int? = lock.withLock {
                    guard next < count, !stop.isCancelled else { return nil }
                    defer { next += 1 }
                    return next
                }
                guard let index else {
                    slots?.signal()
                    return
                }
                let result = body(index)
                lock.withLock { results[index] = result }
                slots?.signal()
            }
        }
    }
}
