import SocloadCore

/// A source's way to its load: sends what the source reads to the load's thread, waiting while
/// the load is behind (memory stays flat), and says when the load stopped listening.
public final class RowSourceOutput<Source: RowSource>: @unchecked Sendable {
    // @unchecked Sendable: used by the one producer thread only; the channel is thread-safe.

    /// Thrown by `describe` and `send` when the load no longer listens (it failed, was
    /// cancelled, or had what it wanted): the source stops reading.
    public struct Stopped: Error {}

    /// Cancelled when the load is: check it between reads.
    public let cancellation: LoadCancellation
    let channel: BoundedChannel<Result<RowSourceEvent<Source>, any Error>>

    init(cancellation: LoadCancellation, channel: BoundedChannel<Result<RowSourceEvent<Source>, any Error>>) {
        self.cancellation = cancellation
        self.channel = channel
    }

    /// Sends what the source learned before its rows.
    public func describe(_ description: Source.Description) throws {
        try deliver(.described(description))
    }

    /// Sends a batch of the plan table at `table`; an empty batch is not sent.
    public func send(_ batch: RowBatch, table: Int = 0, bytesRead: Int64, bytesExpected: Int64? = nil) throws {
        guard batch.rowCount > 0 else { return }
        try deliver(.batch(table: table, batch, bytesRead: bytesRead, bytesExpected: bytesExpected))
    }

    private func deliver(_ event: RowSourceEvent<Source>) throws {
        guard channel.send(.success(event)) else { throw Stopped() }
    }
}

extension RowBatch {
    /// The largest row (rows.json row, SODA row object, document record) a source takes whole:
    /// anything larger is refused with its row number, not held in memory.
    public static let maximumRowBytes = 256 << 20

    /// The rows a batch holds before it is sent on: enough for the database to bind them in one
    /// go, few enough that four batches in flight stay small.
    public static let sendingRows = 1024
    /// The arena bytes after which a batch is sent on whatever its rows (long texts).
    public static let sendingBytes = 1 << 19

    /// True when the batch has as many rows or bytes as a batch is sent with.
    public var isReadyToSend: Bool { rowCount >= Self.sendingRows || arena.count >= Self.sendingBytes }
}
