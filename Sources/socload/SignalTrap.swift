import Dispatch
import Foundation
import Glibc
import SocloadSocrata

/// Turns SIGINT and SIGTERM into a cancelled load or extract (which rolls back) instead of an
/// abrupt exit. The loader stops whatever it waits for (a read, the network, a statement, a lock) within a
/// second.
///
/// Several traps may be set at once (datasets loading side by side, and the batch around them):
/// a signal reaches every one. The default behaviour comes back when the last is restored.
final class SignalTrap: Sendable {
    private static let handlers = Handlers()
    private let token: Int

    convenience init(loader: DatasetLoader) {
        self.init { signal in loader.cancel(signal: signal) }
    }

    /// `cancel` gets the signal's number (on a global queue).
    init(cancel: @escaping @Sendable (Int32) -> Void) {
        token = Self.handlers.add(cancel)
    }

    /// This trap no longer fires; after the last one, a second Ctrl-C ends the process at once.
    func restore() {
        Self.handlers.remove(token)
    }

    /// The traps set now, and the signal sources that call them while there are any.
    private final class Handlers: @unchecked Sendable {
        private let lock = NSLock()
        private var cancels: [Int: @Sendable (Int32) -> Void] = [:]
        private var nextToken = 0
        private var sources: [any DispatchSourceSignal] = []

        func add(_ cancel: @escaping @Sendable (Int32) -> Void) -> Int {
            lock.withLock {
                if cancels.isEmpty { install() }
                nextToken += 1
                cancels[nextToken] = cancel
                return nextToken
            }
        }

        func remove(_ token: Int) {
            lock.withLock {
                guard cancels.removeValue(forKey: token) != nil, cancels.isEmpty else { return }
                for source in sources { source.cancel() }
                sources = []
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
            }
        }

        private func install() {
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { [self] in
                    for cancel in lock.withLock({ Array(cancels.values) }) { cancel(signalNumber) }
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
