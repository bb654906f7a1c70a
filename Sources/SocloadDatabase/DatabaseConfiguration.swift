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
    /// When false, every statement that would change anything is refused while it is prepared
    /// (SQLITE_AUTH, "not authorized"): writes, schema changes, ATTACH (and so `VACUUM INTO`)
    /// and every PRAGMA that is not a read-only report. Stronger than `readonly`,
    /// which SQLite's `VACUUM INTO` and `PRAGMA journal_mode` get around. Implies no switch to WAL.
    ///
    ///     var configuration = DatabaseConfiguration()
    ///     configuration.acceptsChanges = false
    ///     let queue = try DatabaseQueue(path: "socload.sqlite", configuration: configuration)
    public var acceptsChanges = true

    public init() {}
}
