import SocloadCore
import Foundation

/// Two cores for every load: a producer thread reads and converts, the calling (database) thread
/// writes, with a bounded channel of batches between them so memory stays flat.
extension DatasetLoader {
    /// Runs `produce` on a thread of its own and hands each item it sends to `handle` here, until
    /// `handle` returns a result. A failure or a cancellation stops the producer too; the producer
    /// has ended when this returns.
    func withProducer<Item: Sendable, Result>(
        _ produce: @escaping @Sendable (_ stop: LoadCancellation, _ channel: BoundedChannel<Item>) -> Void,
        handle: (Item) throws -> Result?
    ) throws -> Result {
        let channel = BoundedChannel<Item>(capacity: 4)
        let stop = LoadCancellation()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            produce(stop, channel)
            finished.signal()
        }
        defer {
            channel.close()
            finished.wait()
        }
        do {
            while true {
                if let signal = cancellation?.signal {
                    stop.cancel(signal: signal)
                    throw LoadError.interrupted(signal: signal)
                }
                guard let item = channel.receive(timeout: 0.1) else { continue }
                if let result = try handle(item) { return result }
            }
        } catch {
            stop.cancel(signal: cancellation?.signal ?? -1)
            throw error
        }
    }
}
