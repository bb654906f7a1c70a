/// What reads a SQLite database, as GRDB has it: a `DatabaseQueue` (one connection) or a
/// `DatabasePool` (a writer and concurrent readers), so app code takes either, and its tests an
/// in-memory queue.
///
///     func agencies(in reader: any DatabaseReader) throws -> [String] {
///         try reader.read { db in try db.fetchAll(String.self, sql: "select distinct agency from n5m4_mism") }
///     }
public protocol DatabaseReader: AnyObject, Sendable {
    /// Runs `body` in a read-only transaction: one consistent snapshot.
    func read<T>(_ body: (Database) throws -> T) throws -> T
    /// `read` for async callers; a cancelled task stops waiting or is interrupted.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
}

/// What also writes it: the write role refines the read role.
///
///     func rename(_ old: String, to new: String, in writer: any DatabaseWriter) throws {
///         try writer.write { db in try db.execute(sql: "update agencies set name = ? where name = ?", arguments: [new, old]) }
///     }
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `body` in a write transaction, committed when it returns, rolled back when it throws.
    func write<T>(_ body: (Database) throws -> T) throws -> T
    /// `write` for async callers.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
}

extension DatabaseQueue: DatabaseWriter {}
extension DatabasePool: DatabaseWriter {}

extension DatabaseQueue {
    /// A queue on a new, empty in-memory database: for tests of code that takes a
    /// `DatabaseReader` or `DatabaseWriter`.
    ///
    ///     let queue = try DatabaseQueue.inMemory()
    public static func inMemory() throws -> DatabaseQueue {
        try DatabaseQueue(path: ":memory:")
    }
}
