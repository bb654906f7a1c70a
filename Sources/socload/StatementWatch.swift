import Dispatch
import Foundation
import Glibc

/// Cancels the statement a command is running when SIGINT or SIGTERM arrives, or when its
/// `--timeout` runs out: SQLite's `sqlite3_interrupt` (`DatabaseQueue.interrupt()`), PostgreSQL's
/// `PQcancel` (`PostgreSQLConnection.cancel()`), so nothing keeps running on a server after
/// socload is gone. The command then ends with exit 130 / 143, or 75 for a timeout. Should the
/// command not notice within a second (blocked writing to a pipe, say), the process exits anyway.
///
/// Loads have their own handling (`SignalTrap`, which rolls the load back); this is for the
/// commands that read (`query`, `select`, `tables`, `schema`, `info`, `verify`) and `drop`.
final class StatementWatch: @unchecked Sendable {
    /// Why the statement was stopped.
    enum Reason: Equatable {
        case signal(Int32)
        case timeout(Double)
    }

    private let lock = NSLock()
    private var cancellers: [@Sendable () -> Void] = []
    private var stoppedBy: Reason?
    private var sources: [any DispatchSourceSignal] = []
    private var timer: (any DispatchSourceTimer)?
    /// Seconds a statement may run (`--timeout`); set before the database is opened.
    var timeout: Double?

    /// Why the statement was stopped, if it was.
    var reason: Reason? { lock.withLock { stoppedBy } }

    /// From now on, a signal or the timeout calls `cancel` (a database's `cancelAction`, which
    /// holds a SQLite queue weakly: it closes, and tidies its -wal away, when the command is done).
    func watch(_ cancel: @escaping @Sendable () -> Void) {
        add(cancel)
    }

    private func add(_ cancel: @escaping @Sendable () -> Void) {
        let first = lock.withLock {
            cancellers.append(cancel)
            return sources.isEmpty
        }
        guard first else { return }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [weak self] in self?.stop(.signal(signalNumber)) }
            source.resume()
            lock.withLock { sources.append(source) }
        }
        if let timeout {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + timeout)
            timer.setEventHandler { [weak self] in self?.stop(.timeout(timeout)) }
            timer.resume()
            lock.withLock { self.timer = timer }
        }
    }

    private func stop(_ reason: Reason) {
        let cancellers = lock.withLock { () -> [@Sendable () -> Void] in
            guard stoppedBy == nil else { return [] }
            stoppedBy = reason
            return self.cancellers
        }
        for cancel in cancellers { cancel() }
        let (message, code) = Self.failure(for: reason)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            StandardError.line("Error: " + message)
            _exit(code.rawValue)
        }
    }

    /// The message and exit code a command stopped for `reason` ends with.
    static func failure(for reason: Reason) -> (String, ExitCode) {
        switch reason {
        case .signal(let number):
            return ("interrupted by \(number == SIGTERM ? "SIGTERM" : "SIGINT"); the statement was cancelled",
                    number == SIGTERM ? .terminated : .interrupted)
        case .timeout(let seconds):
            let shown = seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds)
            return ("timed out after \(shown) s; the statement was cancelled", .timedOut)
        }
    }
}
