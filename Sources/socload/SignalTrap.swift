import Dispatch
import Glibc
import SocloadSocrata

/// Turns SIGINT and SIGTERM into a cancelled load or extract (which rolls back) instead of an
/// abrupt exit. The loader stops whatever it waits for (a read, the network, a statement, a lock) within a
/// second.
final class SignalTrap {
    private var sources: [any DispatchSourceSignal] = []

    convenience init(loader: DatasetLoader) {
        self.init { signal in loader.cancel(signal: signal) }
    }

    /// `cancel` gets the signal's number (on a global queue).
    init(cancel: @escaping @Sendable (Int32) -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { cancel(signalNumber) }
            source.resume()
            sources.append(source)
        }
    }

    /// Back to the default behaviour: a second Ctrl-C after the load ends the process at once.
    func restore() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
