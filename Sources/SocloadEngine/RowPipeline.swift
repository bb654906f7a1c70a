import Foundation
import SocloadCore

/// Two cores for every load: the source reads and converts on a thread of its own, the calling
/// (database) thread writes, with a bounded channel of batches between them so memory stays flat.
/// Every load runs its source through here, whatever the source and whatever the job.
public struct RowPipeline: Sendable {
    /// The load's cancellation: a signal stops the source and ends `run` with
    /// `LoadError.interrupted(signal:)`.
    public let cancellation: LoadCancellation?
    /// Batches in flight between the source and the load.
    public var capacity = 4

    public init(cancellation: LoadCancellation?) {
        self.cancellation = cancellation
    }

    /// Runs `source` on a thread of its own and hands each event it sends to `handle` here, until
    /// `handle` returns a result. A failure of either side or a cancellation stops the source
    /// too; the source's thread has ended when this returns.
    public func run<Source: RowSource, Result>(_ source: Source,
                                               handle: (RowSourceEvent<Source>) throws -> Result?) throws -> Result {
        let channel = BoundedChannel<Swift.Result<RowSourceEvent<Source>, any Error>>(capacity: capacity)
        let stop = LoadCancellation()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Self.produce(source, output: RowSourceOutput(cancellation: stop, channel: channel))
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
                if let result = try handle(item.get()) { return result }
            }
        } catch {
            stop.cancel(signal: cancellation?.signal ?? -1)
            throw error
        }
    }

    /// The source's thread: its events, then its end or its failure.
    private static func produce<Source: RowSource>(_ source: Source, output: RowSourceOutput<Source>) {
        do {
            let ending = try source.produce(into: output)
            _ = output.channel.send(.success(.end(ending)))
        } catch is RowSourceOutput<Source>.Stopped {
            return
        } catch {
            _ = output.channel.send(.failure(error))
        }
    }
}
