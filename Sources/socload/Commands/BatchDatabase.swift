import Foundation
import SocloadCore
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite

/// One database of a batch (`refresh`, `fetch A B C`), shared by the batch's datasets, so that what
/// a dataset costs does not grow with the number of datasets the database holds:
/// - its catalog, read once before any load writes (`CatalogSnapshot`): a dataset looks up its
///   table's last load without a connection of its own and without the writer's turn;
/// - on SQLite, one write connection the loads take in turn (`writer()`), and the lock file's
///   reads go through it too (`reading`). A new SQLite connection reads the whole schema first (15
///   ms at a thousand datasets, a second at ten thousand), and one whose schema another connection
///   changed reads it all again before its next statement; the connection that made a change
///   only adds it.
final class BatchDatabase: @unchecked Sendable {
    private let database: DatabaseOptions
    private let context: CommandContext
    private let lock = NSLock()
    private var snapshot: CatalogSnapshot?
    private var stamps: [String: [String]]?
    private var watches: [String: [String]]?
    private var sqliteWriter: DatabaseQueue?
    /// PostgreSQL's connection for `reading` (loads there have connections of their own), used
    /// by one caller at a time (`readerLock`): loads side by side read through it too.
    private var reader: (any LoadedDatabase)?
    private let readerLock = NSLock()
    private let isSQLite: Bool

    init(database: DatabaseOptions, context: CommandContext) {
        self.database = database
        self.context = context
        isSQLite = database.capabilities(context).writers == .one
    }

    /// The catalog entry of a table (or a dataset id) as the batch began; nil when there is none,
    /// or no database yet.
    func entry(for table: String) -> CatalogEntry? {
        lock.withLock {
            if snapshot == nil {
                let loaded = try? database.openLoaded(context, command: FetchCommand.spec, watched: false)
                snapshot = CatalogSnapshot((try? loaded?.catalogEntries()) ?? [])
                if stamps == nil { stamps = loaded.map(Self.refreshStamps) ?? [:] }
                if watches == nil { watches = loaded.map(Self.recordedWatches) ?? [:] }
            }
            return snapshot?.entry(for: table)
        }
    }

    /// The `rowsUpdatedAt` each load of `table` recorded in the refresh log, as the batch began:
    /// one read of the log for the whole batch (what the watch learns an interval from).
    func refreshStamps(of table: String) -> [String] {
        lock.withLock {
            if stamps == nil {
                stamps = (try? database.openLoaded(context, command: FetchCommand.spec, watched: false)).map(Self.refreshStamps) ?? [:]
            }
            return stamps?[table.lowercased()] ?? []
        }
    }

    /// The watch the last refresh recorded for `table` (`WatchLog.arguments`' values), as the
    /// batch began: a refresh writes only the watches that differ.
    func recordedWatch(of table: String) -> [String]? {
        lock.withLock {
            if watches == nil {
                watches = (try? database.openLoaded(context, command: FetchCommand.spec, watched: false)).map(Self.recordedWatches) ?? [:]
            }
            return watches?[table.lowercased()]
        }
    }

    private static func recordedWatches(in database: any LoadedDatabase) -> [String: [String]] {
        guard (try? database.tableExists(WatchLog.tableName)) == true else { return [:] }
        var rows: [String: [String]] = [:]
        try? database.runUserStatement(WatchLog(dialect: ReportBuilder.dialect(of: database)).selectStatement, parameters: UserParameters(),
                                       allowingChanges: false, columns: { _ in }) { row in
            let values = row.map { $0.textValue ?? "" }
            if let table = values.first { rows[table.lowercased()] = values }
        }
        return rows
    }

    /// Every table's recorded `rowsUpdatedAt`, oldest first, by lowercased table name.
    private static func refreshStamps(in database: any LoadedDatabase) -> [String: [String]] {
        guard (try? database.tableExists(RefreshLog.tableName)) == true else { return [:] }
        let log = ReportBuilder.dialect(of: database).table(RefreshLog.tableName)
        var stamps: [String: [String]] = [:]
        try? database.runUserStatement("SELECT \"table_name\", \"rows_updated_at\" FROM \(log) WHERE \"rows_updated_at\" IS NOT NULL "
                                       + "ORDER BY \"refreshed_at\"", parameters: UserParameters(), allowingChanges: false,
                                       columns: { _ in }) { row in
            if row.count == 2, let table = row[0].textValue, let stamp = row[1].textValue { stamps[table.lowercased(), default: []].append(stamp) }
        }
        return stamps
    }

    /// The entry of the table `request` would refresh, when it was loaded by the same request
    /// from the same place (`DatasetLoader.previousEntry`); nil with `--force`.
    func previousEntry(for request: LoadRequest) -> CatalogEntry? {
        try? DatasetLoader.previousEntry(for: request) { entry(for: $0) }
    }

    /// The SQLite file's write connection for the batch's loads, opened by the first load into a
    /// file that exists (a load that creates the file writes it through a connection of its own,
    /// as its new file is moved into place when it commits). Used only in the writer's turn.
    func writer(command: CommandSpec) throws -> DatabaseQueue {
        try lock.withLock {
            if let sqliteWriter { return sqliteWriter }
            let queue = try database.openExisting(context, command: command, acceptsChanges: true)
            sqliteWriter = queue
            return queue
        }
    }

    /// `body` with the database loaded into: on SQLite through the batch's write connection (so
    /// call it in the writer's turn, or once no load runs, or only to read what no other load
    /// writes), on PostgreSQL through a connection of its own, opened once, one caller at a time.
    func reading<T>(_ body: (any LoadedDatabase) throws -> T) throws -> T {
        if isSQLite { return try body(SQLiteLoadedDatabase(queue: try writer(command: FetchCommand.spec))) }
        let opened = try lock.withLock {
            if let reader { return reader }
            let opened = try database.openLoaded(context, command: FetchCommand.spec, watched: false)
            reader = opened
            return opened
        }
        return try readerLock.withLock { try body(opened) }
    }

    /// The database's SQL dialect (on PostgreSQL, with the schema the batch loads into).
    var dialect: any SQLDialect {
        get throws { isSQLite ? SQLiteDialect() : try reading { ReportBuilder.dialect(of: $0) } }
    }

    /// Runs `statements` (SQL and its text arguments) in one transaction: on SQLite through the
    /// batch's write connection (once no load runs), on PostgreSQL through the reading one.
    func writing(_ statements: [(sql: String, arguments: [String])]) throws {
        if isSQLite {
            let queue = try writer(command: FetchCommand.spec)
            try queue.inDatabase { db in
                try db.inTransaction {
                    for statement in statements {
                        try db.execute(sql: statement.sql, arguments: StatementArguments(positional: statement.arguments.map { .text($0) }))
                    }
                }
            }
            return
        }
        try reading { database in
            func run(_ sql: String, _ values: [String] = []) throws {
                try database.runUserStatement(sql, parameters: UserParameters(positional: values), allowingChanges: true,
                                              columns: { _ in }, row: { _ in })
            }
            try run("BEGIN")
            do {
                for statement in statements { try run(statement.sql, statement.arguments) }
                try run("COMMIT")
            } catch {
                try? run("ROLLBACK")
                throw error
            }
        }
    }

    /// Closes the connections (the batch is over): SQLite's write-ahead log is checkpointed and
    /// removed.
    func close() {
        lock.withLock {
            sqliteWriter?.close()
            sqliteWriter = nil
            reader = nil
        }
    }
}
