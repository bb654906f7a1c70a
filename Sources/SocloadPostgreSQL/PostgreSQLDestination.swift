import Foundation
import SocloadCore

/// Loads into a PostgreSQL database: the whole load is ONE transaction in which the new table is
/// created under a temporary name, filled by binary `COPY`, given its key and indexes, and only
/// then swapped in for the old one (locks taken with a `lock_timeout`, retried). Readers keep
/// reading the old table during the COPY and wait only for the swap itself.
///
///     let connection = try PostgreSQLConnection(PostgreSQLConnectionString("postgres:")!)
///     let loader = DatasetLoader(destination: PostgreSQLDestination(connection: connection))
public final class PostgreSQLDestination: LoadDestination, CatalogReadingThrough, @unchecked Sendable {
    public let connection: PostgreSQLConnection
    /// The schema the tables and the catalog go into.
    public let schema: String
    /// How the swap waits for readers of the old table (see `SwapLocking`).
    public var swapLocking = SwapLocking()

    /// How long each attempt to lock the old table for the swap waits, and how many are made.
    /// A reader that holds the table longer than all attempts fails the load (nothing changed);
    /// meanwhile new readers queue behind the waiting swap at most `timeout` at a time.
    public struct SwapLocking: Sendable {
        public var timeout: Double = 2
        public var attempts = 8
        public init() {}
    }

    public init(connection: PostgreSQLConnection, schema: String = "public") {
        self.connection = connection
        self.schema = schema
    }

    public var capabilities: DestinationCapabilities { Self.capabilities }

    /// What the schema has loaded, read on the destination's connection.
    public var catalogReader: any CatalogReader { PostgreSQLDatabase(connection: connection, schema: schema) }

    /// PostgreSQL's: its values (no NUL in text), 63-byte names, 1,600 columns counting the
    /// PostGIS geometry columns a table may get, loads side by side, distribution with Citus,
    /// a tsvector column for words, comments from the portal's descriptions.
    public static let capabilities = DestinationCapabilities(
        storableValues: PostgreSQLTypes.storableValues, maximumNameBytes: PostgreSQLTypes.maximumNameBytes,
        columnLimit: ColumnLimit(maximum: 1_600, database: "PostgreSQL", addsGeometryColumns: true), writers: .many,
        distributesTables: true, fullTextSearch: "a tsvector column _search", keepsDescriptions: true)

    public func performLoad<T>(_ body: (any LoadTransaction) throws -> T) throws -> T {
        try connection.execute("BEGIN")
        do {
            try ensureSchema()
            let transaction = PostgreSQLLoadTransaction(connection: connection, schema: schema, swapLocking: swapLocking)
            let result = try body(transaction)
            try transaction.pauseCopy()
            try connection.execute("COMMIT")
            return result
        } catch {
            connection.abortCopy(reason: "socload: the load failed")
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Creates the schema when it does not exist (checked first: creating needs a privilege that
    /// loading into an existing schema does not).
    /// Another load creating it at the same time is waited for: the second looks again in
    /// `pg_namespace` itself (a table read sees what committed meanwhile, where the name
    /// lookup's cache may not) and uses the schema the first made.
    private func ensureSchema() throws {
        guard try connection.value("SELECT to_regnamespace($1) IS NULL", [schema.quotedDatabaseIdentifier]) == "t" else { return }
        try PostgreSQLLoadTransaction.reserveSharedTables(of: schema, on: connection)
        let made = "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1)"
        guard try connection.value(made, [schema]) != "t" else { return }
        try connection.execute("CREATE SCHEMA \(schema.quotedDatabaseIdentifier)")
    }

    /// Cancels the statement or COPY running on the connection; the load's next statement fails.
    public func interrupt() { connection.cancel() }

    public func resumeAfterInterrupt() { connection.resumeAfterCancel() }
}

/// One load's transaction on the connection. At most one COPY is open at a time; any other
/// statement first ends it (`pauseCopy`), and the next batch starts a new one.
final class PostgreSQLLoadTransaction: LoadTransaction {
    let connection: PostgreSQLConnection
    let schema: String
    let swapLocking: PostgreSQLDestination.SwapLocking
    let catalog: any CatalogStore
    private var savepointDepth = 0
    /// The new copy of each plan table this load made, qualified, by the plan table's name
    /// (a child table is colocated with its parent's new copy).
    var newTableNames: [String: String] = [:]
    /// Set once the transaction asked Citus for one connection per worker.
    var citusSequential = false
    /// Sends the end of the open COPY's data (its trailer) before the COPY ends.
    private var copyTrailer: (() throws -> Void)?
    private static let tableCounter = Counter()

    init(connection: PostgreSQLConnection, schema: String, swapLocking: PostgreSQLDestination.SwapLocking) {
        self.connection = connection
        self.schema = schema
        self.swapLocking = swapLocking
        let catalog = PostgreSQLCatalog(connection: connection, schema: schema)
        self.catalog = catalog
        catalog.beforeStatement = { [unowned self] in try self.pauseCopy() }
    }

    func reserveSharedTables() throws {
        try pauseCopy()
        try Self.reserveSharedTables(of: schema, on: connection)
    }

    /// A transaction-level advisory lock named after the schema: released by COMMIT or ROLLBACK.
    static func reserveSharedTables(of schema: String, on connection: PostgreSQLConnection) throws {
        try connection.execute("SELECT pg_advisory_xact_lock(1936679788, hashtext($1))", [schema])
    }

    /// `"schema"."name"`.
    func qualified(_ name: String) -> String { PostgreSQLTypes.qualified(name, schema: schema) }

    /// A name for a table that exists only inside this transaction until the swap.
    func temporaryName(_ purpose: String) -> String {
        "_socload_\(purpose)_\(getpid())_\(Self.tableCounter.next())"
    }

    /// Runs a statement after ending any open COPY.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgreSQLResult {
        try checkCancellation()
        try pauseCopy()
        return try connection.execute(sql, parameters)
    }

    /// Fails as a cancelled statement would once `interrupt()` was called.
    func checkCancellation() throws {
        if connection.isCancelRequested {
            throw PostgreSQLError(sqlState: "57014", message: "canceling statement due to user request")
        }
    }

    func value(_ sql: String, _ parameters: [String?] = []) throws -> String? {
        try execute(sql, parameters).rows.first?.first ?? nil
    }

    /// Makes sure a binary COPY into `relation` (quoted) of `columns` is the open one: the one
    /// way every writer starts its COPY. True when it started a new one, whose data must begin
    /// with `PostgreSQLCopyEncoder.header` (the trailer is sent by `pauseCopy`). Another table's
    /// COPY may be open: a child table's rows come between its parent's.
    func openBinaryCopy(into relation: String, columns: [String]) throws -> Bool {
        let sql = "COPY \(relation) (\(PostgreSQLTableWriter.quotedList(columns))) FROM STDIN (FORMAT binary)"
        if connection.isCopying, openCopy == sql { return false }
        try pauseCopy()
        try connection.beginCopy(sql)
        let connection = connection
        copyTrailer = { try PostgreSQLCopyEncoder.trailer.withUnsafeBytes { try connection.sendCopyData($0) } }
        openCopy = sql
        return true
    }

    /// The statement of the COPY that is open, if any.
    private(set) var openCopy: String?

    /// Ends the open COPY, if any, checking that the server took every row.
    func pauseCopy() throws {
        guard connection.isCopying, let trailer = copyTrailer else { return }
        copyTrailer = nil
        openCopy = nil
        try trailer()
        try connection.endCopy()
    }

    func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "socload_attempt_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            copyTrailer = nil
            openCopy = nil
            connection.abortCopy(reason: "socload: the attempt failed")
            _ = try? connection.execute("ROLLBACK TO SAVEPOINT \(name)")
            _ = try? connection.execute("RELEASE SAVEPOINT \(name)")
            throw error
        }
    }

    func replaceTable(_ table: PlanTable, previous: PlanTable?) throws -> any TableWriter {
        try PostgreSQLTableWriter(transaction: self, table: table, previous: previous)
    }

    func replaceTable(_ table: PlanTable, previous: PlanTable?, comparison: (any PreviousCopyComparing)?) throws -> any TableWriter {
        try PostgreSQLTableWriter(transaction: self, table: table, previous: previous, comparison: comparison)
    }

    var sql: (any SQLExecuting)? { PostgreSQLSQLExecutor(transaction: self) }

    func rebuildTable(_ table: PlanTable, previous: PlanTable) throws -> any TableWriter {
        try PostgreSQLTableWriter(transaction: self, table: table, previous: previous, rowsFromExistingTable: true)
    }

    func dropTable(_ name: String) throws {
        try execute("DROP TABLE IF EXISTS \(qualified(name))")
    }

    func tableExists(_ name: String) throws -> Bool {
        try value("SELECT to_regclass($1) IS NOT NULL", [qualified(name)]) == "t"
    }

    func glueWriter(for table: PlanTable) throws -> any TableWriter {
        try PostgreSQLGlueWriter(transaction: self, table: table)
    }

    func glueWriter(for table: PlanTable, onlyFor keys: NotedKeys) throws -> any TableWriter {
        try PostgreSQLGlueWriter(transaction: self, table: table, onlyFor: keys)
    }

    func upserter(for table: PlanTable) throws -> any RowUpserter {
        try PostgreSQLUpserter(transaction: self, table: table)
    }
}

/// A process-wide counter for unique temporary names.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
