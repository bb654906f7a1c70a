/// How a connection is opened.
public struct DatabaseConfiguration: Sendable {
    /// Open for reading only. Statements that write fail with SQLITE_READONLY.
    public var readonly = false
    /// Create the file when it does not exist. When false, a missing file is an error.
    public var createIfMissing = true
    /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
    public var busyTimeoutMilliseconds: Int32 = 5_000
    /// Switch the file to write-ahead logging, so readers in other processes keep seeing the previous
    /// data while a load is written. Ignored for in-memory databases and read-only connections.
    public var writeAheadLogging = true

    public init() {}
}
