import Dispatch
import Glibc
import SocloadSocrata

/// Turns SIGINT and SIGTERM into a cancelled load (which rolls back) instead of an abrupt exit.
/// The loader stops whatever it waits for (a read, the network, a statement, a lock) within a
/// second.
final class SignalTrap {
    private var sources: [any DispatchSourceSignal] = []

    init(loader: DatasetLoader) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { loader.cancel(signal: signalNumber) }
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
