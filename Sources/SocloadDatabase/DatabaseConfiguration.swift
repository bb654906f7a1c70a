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

    /// For reading an existing database and nothing else: every change refused
    /// (`acceptsChanges = false`), nothing created. Where the file's directory can be written the
    /// connection is read-write under that guard, so that closing it still merges and removes the
    /// `-wal` and `-shm` files as the last connection does; where it cannot, it is read-only (and
    /// immutable when that is safe, see `Database.init`), so a database on a read-only mount can
    /// be read.
    ///
    ///     let queue = try DatabaseQueue(path: "socload.sqlite", configuration: .forReading("socload.sqlite"))
    public static func forReading(_ path: String) -> DatabaseConfiguration {
        var configuration = DatabaseConfiguration()
        configuration.acceptsChanges = false
        configuration.createIfMissing = false
        configuration.readonly = !ReadOnlyOpening.canWriteDirectory(of: path)
        return configuration
    }
}
