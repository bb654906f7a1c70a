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
    /// True when datasets load side by side (`--jobs` above 1): a dataset's rows are downloaded
    /// ahead of its load (`DatasetLoader.prefetch`), so what it waits for on the network holds no
    /// turn and no database connection, and lends its slot (`WaitLending`).
    let sideBySide: Bool
    /// False when datasets load side by side: one progress line cannot show several.
    var showsProgress: Bool { !sideBySide }

    init(stop: LoadCancellation, turn: NSLock?, sideBySide: Bool) {
        self.stop = stop
        self.turn = turn
        self.sideBySide = sideBySide
    }

    /// Threads per job slot, to take a dataset while another only waits on the network: as many
    /// as a portal's bad night keeps waiting at once (5% of a thousand datasets), so their waits
    /// overlap. Sleeping threads cost little; the portal still sees at most `jobs` requests at a
    /// time but for slow responses.
    static let standbyPerJob = 16

    /// A job for one dataset alone.
    static let alone = DatasetJob(stop: LoadCancellation(), turn: nil, sideBySide: false)

    /// `body` while holding the turn, when there is one to take. A dataset that writes lends no
    /// slot while it waits (`WaitLending.withoutLending`): on SQLite the threads waiting for its
    /// turn hold the slots, and it would wait for one of them forever; on PostgreSQL it holds a
    /// connection, and lending would open more than the server may take.
    func writing<T>(_ body: () throws -> T) rethrows -> T {
        guard let turn else { return try WaitLending.withoutLending(body) }
        turn.lock()
        defer { turn.unlock() }
        return try WaitLending.withoutLending(body)
    }

    /// Runs `body` for indexes 0..<count, `jobs` at a time on threads of their own (on this
    /// thread when `jobs` is 1), each index once, in order of starting. An index not started
    /// when `stop` is set is not run: its result is nil.
    ///
    /// A job slot is lent while its dataset only waits on the network, out a retry's backoff or on
    /// a slow response (`WaitLending`), outside the writer's turn: a thread is started then (up
    /// to `standbyPerJob` a slot in all) to take the next dataset meanwhile, so a faulty portal
    /// costs the batch its waits about once, not once per slot.
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
                WaitLending.lending(release: {
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
