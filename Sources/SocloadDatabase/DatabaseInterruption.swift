import CSQLite
import Glibc
import Synchronization

/// A switch another thread flips to stop what a connection is doing: a statement that runs (a
/// long `CREATE INDEX`, say) fails with SQLITE_INTERRUPT within a few milliseconds, and so does a
/// wait for another connection's lock, which otherwise lasts the whole busy timeout.
///
/// It is SQLite's progress handler (asked every 1,000 virtual-machine steps) and a busy handler
/// that sleeps in short slices up to the configured timeout, both reading one atomic flag. A
/// short statement such as `ROLLBACK` never reaches the progress handler, so a transaction can
/// still be rolled back after an interruption.
final class DatabaseInterruption: Sendable {
    private let requested = Atomic<Bool>(false)
    private let waitStartedAt = Atomic<UInt64>(0)
    private let busyTimeoutNanoseconds: UInt64

    init(busyTimeoutMilliseconds: Int32) {
        busyTimeoutNanoseconds = UInt64(max(busyTimeoutMilliseconds, 0)) * 1_000_000
    }

    /// Asks the connection to stop; safe from any thread.
    func request() { requested.store(true, ordering: .sequentiallyConsistent) }

    /// Lets the connection run statements again.
    func reset() { requested.store(false, ordering: .sequentiallyConsistent) }

    var isRequested: Bool { requested.load(ordering: .sequentiallyConsistent) }

    /// Installs the progress and busy handlers on a connection. `self` must outlive it.
    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(handle, 1_000, { context in
            guard let context else { return 0 }
            return Unmanaged<DatabaseInterruption>.fromOpaque(context).takeUnretainedValue().isRequested ? 1 : 0
        }, context)
        sqlite3_busy_handler(handle, { context, attempt in
            guard let context else { return 0 }
            return Unmanaged<DatabaseInterruption>.fromOpaque(context).takeUnretainedValue().keepWaiting(attempt: attempt) ? 1 : 0
        }, context)
    }

    /// The busy handler: true to try the lock again after a short sleep, false to give up (the
    /// timeout has passed, or an interruption was requested).
    private func keepWaiting(attempt: Int32) -> Bool {
        let now = Self.monotonicNanoseconds()
        if attempt == 0 { waitStartedAt.store(now, ordering: .relaxed) }
        if isRequested { return false }
        let waited = now &- waitStartedAt.load(ordering: .relaxed)
        guard waited < busyTimeoutNanoseconds else { return false }
        usleep(UInt32(min(10_000, (busyTimeoutNanoseconds - waited) / 1_000 + 1)))
        return !isRequested
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
