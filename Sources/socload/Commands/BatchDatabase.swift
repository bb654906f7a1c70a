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
    private var watchFacts: WatchFacts?
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
                if watchFacts == nil { watchFacts = WatchFacts(loaded) }
            }
            return snapshot?.entry(for: table)
        }
    }

    /// What the watch reads of the database, as the batch began: each table's recorded
    /// `rowsUpdatedAt` and last recorded watch, one read each for the whole batch (with the
    /// catalog's, through its connection, when the batch reads that).
    private struct WatchFacts {
        var stamps: [String: [String]] = [:]
        var watches: [String: [String]] = [:]

        init(_ database: (any LoadedDatabase)?) {
            guard let database else { return }
            stamps = (try? database.refreshStampsByTable()) ?? [:]
            // A table's current row: the one of the latest checked_at.
            for row in (try? database.recordedWatchRows()) ?? [] {
                guard let table = row.first ?? nil, row.count > 1 else { continue }
                if let kept = watches[table.lowercased()], kept[1] >= row[1] ?? "" { continue }
                watches[table.lowercased()] = row.map { $0 ?? "" }
            }
        }
    }

    private func watchFactsRead() -> WatchFacts {
        lock.withLock {
            if let watchFacts { return watchFacts }
            let read = WatchFacts(try? database.openLoaded(context, command: FetchCommand.spec, watched: false))
            watchFacts = read
            return read
        }
    }

    /// The `rowsUpdatedAt` each load of `table` recorded in the refresh log, as the batch began
    /// (what the watch learns an interval from).
    func refreshStamps(of table: String) -> [String] { watchFactsRead().stamps[table.lowercased()] ?? [] }

    /// The watch the last refresh recorded for `table` (`WatchLog.arguments`' values), as the
    /// batch began: a refresh writes only the watches that differ.
    func recordedWatch(of table: String) -> [String]? { watchFactsRead().watches[table.lowercased()] }

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
        get throws { isSQLite ? SQLiteDialect() : try reading { $0.sqlDialect } }
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
