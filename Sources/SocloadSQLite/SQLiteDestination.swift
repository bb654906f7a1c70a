import SocloadCore
import SocloadDatabase

/// Loads into a SQLite database through its `DatabaseQueue`: the whole load runs in one
/// `BEGIN IMMEDIATE` transaction on the queue, so readers see the previous table until COMMIT.
///
///     let queue = try DatabaseQueue(path: "socload.sqlite")
///     let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))
public struct SQLiteDestination: LoadDestination, CatalogReadingThrough {
    public let queue: DatabaseQueue
    /// What SQLite holds and does, with the most columns this build lets a table have
    /// (`SQLITE_LIMIT_COLUMN`, 2,000 in Debian's), read once.
    public let capabilities: DestinationCapabilities
    /// True: make the database a GeoPackage (`GeoPackageFile`) with this load, if it is not one
    /// yet. A database that is one stays one whatever this says.
    public let makesGeoPackage: Bool

    /// With `geoPackage`, the database becomes a GeoPackage that GIS programs open: each table
    /// a layer, with its first place (or `--geometry`'s) as its geometry.
    ///
    ///     let queue = try DatabaseQueue(path: "crashes.gpkg")
    ///     let loader = DatasetLoader(destination: SQLiteDestination(queue: queue, geoPackage: true))
    /// Loads through a pool's writer, so that the pool's readers read on during the load; it
    /// keeps the write-ahead log even into an empty file (which another load trades for the
    /// rollback journal), so a reader never waits for a load's lock.
    public init(pool: DatabasePool, geoPackage: Bool = false) {
        self.init(queue: pool.writer, geoPackage: geoPackage, keepsWriteAheadLog: true)
    }

    public init(queue: DatabaseQueue, geoPackage: Bool = false) {
        self.init(queue: queue, geoPackage: geoPackage, keepsWriteAheadLog: false)
    }

    /// What the database has loaded, read on the destination's queue.
    public var catalogReader: any CatalogReader { SQLiteLoadedDatabase(queue: queue) }

    /// True: never switch to the rollback journal (a pool's readers need the WAL).
    private let keepsWriteAheadLog: Bool

    /// True (the default): the write-ahead log is checkpointed after each load, so the file
    /// alone holds the data (see `performLoad`). False for a connection kept for many loads (a
    /// batch's): its log is checkpointed when the connection closes, and by SQLite as it grows
    /// meanwhile, so nothing but the commit stands between a load's end and what follows it (a
    /// lock file's record). A commit is as durable either way.
    public var checkpointsAfterEachLoad = true

    private init(queue: DatabaseQueue, geoPackage: Bool, keepsWriteAheadLog: Bool) {
        self.queue = queue
        self.keepsWriteAheadLog = keepsWriteAheadLog
        makesGeoPackage = geoPackage
        var capabilities = Self.capabilities
        capabilities.columnLimit = ColumnLimit(maximum: queue.inDatabase { $0.maximumColumns }, database: "SQLite")
        self.capabilities = capabilities
    }

    /// SQLite's, whatever the file: any text and any instant (a decimal column, NUMERIC affinity,
    /// keeps the nearest binary number, which the converter gives it, so no bind parses digits
    /// again); one writer at a time; FTS5 for words; no comments; one file.
    public static let capabilities = DestinationCapabilities(
        storableValues: StorableValues(destinationName: "SQLite", keepsDecimalDigits: false), writers: .one,
        fullTextSearch: "SQLite FTS5 (a T_fts table)", isOneFile: true)

    /// Loads in one transaction. Into a database that holds no table yet, the load runs with
    /// SQLite's rollback journal, which writes each page once (no reader can be waiting for a
    /// table that does not exist), and the database is switched to write-ahead logging after the
    /// commit; into a database with tables, it runs in WAL mode, so other processes keep reading
    /// the previous table until the commit (at the price of writing pages twice: to the WAL, then
    /// to the database at the checkpoint). Both keep full durability (synchronous=FULL). After the
    /// commit the WAL is checkpointed into the database file (see `DatabaseQueue.checkpoint()`), so
    /// the file alone holds the data even if the connection is never closed.
    public func performLoad<T>(_ body: (any LoadTransaction) throws -> T) throws -> T {
        let isEmpty = try !keepsWriteAheadLog && queue.inDatabase { db in
            try db.fetchValue(sql: "SELECT EXISTS (SELECT 1 FROM sqlite_schema)") == .integer(0)
        }
        // Durability is never traded for speed: a committed load survives a power cut, whatever
        // the connection was set to before.
        try queue.inDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        if isEmpty {
            // Best effort: another connection holding the file keeps it in WAL mode, which is fine.
            queue.inDatabase { db in _ = try? db.fetchValue(sql: "PRAGMA journal_mode = DELETE") }
        }
        defer {
            if isEmpty { queue.inDatabase { db in _ = try? db.fetchValue(sql: "PRAGMA journal_mode = WAL") } }
        }
        let result = try queue.write { db in
            let geoPackage = try makesGeoPackage || GeoPackageFile.isGeoPackage(db)
            if geoPackage { try GeoPackageFile.prepare(db) }
            let transaction = SQLiteLoadTransaction(db: db, geoPackage: geoPackage)
            let result = try body(transaction)
            if geoPackage { try GeoPackageFile.synchronize(db, changedTables: transaction.writtenTables) }
            return result
        }
        if checkpointsAfterEachLoad { queue.checkpoint() }
        return result
    }

    /// Interrupts the statement running on the queue, or its wait for a lock.
    public func interrupt() { queue.interrupt() }

    public func resumeAfterInterrupt() { queue.resumeAfterInterrupt() }
}

/// One load's transaction on the connection.
final class SQLiteLoadTransaction: LoadTransaction {
    private let db: Database
    let catalog: any CatalogStore
    private var savepointDepth = 0
    /// True in a GeoPackage: tables are laid out as `GeoPackageTable` says.
    private let geoPackage: Bool

    init(db: Database, geoPackage: Bool = false) {
        self.db = db
        self.geoPackage = geoPackage
        catalog = SQLiteCatalog(db: db)
    }

    /// The tables this load wrote or synced, lowercased.
    private(set) var writtenTables: Set<String> = []

    /// The table's layout in a GeoPackage (nil in any other database); noted as written.
    private func layout(_ table: PlanTable) -> GeoPackageTable? {
        writtenTables.insert(table.name.lowercased())
        return geoPackage ? GeoPackageTable(table) : nil
    }

    func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        return try db.withSavepoint(named: "socload_attempt_\(savepointDepth)", body)
    }

    func replaceTable(_ table: PlanTable, previous: PlanTable?) throws -> any TableWriter {
        try SQLiteTableWriter(db: db, table: table, previous: previous, geoPackage: layout(table))
    }

    func replaceTable(_ table: PlanTable, previous: PlanTable?, comparison: (any PreviousCopyComparing)?) throws -> any TableWriter {
        try SQLiteTableWriter(db: db, table: table, previous: previous, comparison: comparison, geoPackage: layout(table))
    }

    var sql: (any SQLExecuting)? { SQLiteSQLExecutor(db: db) }

    func rebuildTable(_ table: PlanTable, previous: PlanTable) throws -> any TableWriter {
        try SQLiteTableWriter(db: db, table: table, previous: previous, rowsFromExistingTable: true, geoPackage: layout(table))
    }

    func dropTable(_ name: String) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(name.quotedDatabaseIdentifier)")
    }

    func tableExists(_ name: String) throws -> Bool {
        try db.tableExists(name)
    }

    func glueWriter(for table: PlanTable) throws -> any TableWriter {
        try SQLiteGlueWriter(db: db, table: table)
    }

    func glueWriter(for table: PlanTable, onlyFor keys: NotedKeys) throws -> any TableWriter {
        try SQLiteGlueWriter(db: db, table: table, onlyFor: keys)
    }

    func upserter(for table: PlanTable) throws -> any RowUpserter {
        try SQLiteUpserter(db: db, table: table, geoPackage: layout(table))
    }
}

extension Database {
    /// Runs `body` in a savepoint: released when it returns, rolled back (and released) when it
    /// throws, leaving the enclosing transaction open.
    func withSavepoint<T>(named name: String, _ body: () throws -> T) throws -> T {
        try execute(sql: "SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute(sql: "RELEASE \(name)")
            return result
        } catch {
            if isInsideTransaction {
                try? execute(sql: "ROLLBACK TO \(name)")
                try? execute(sql: "RELEASE \(name)")
            }
            throw error
        }
    }
}
