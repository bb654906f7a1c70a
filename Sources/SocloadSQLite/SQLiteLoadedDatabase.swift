import CSQLite
import SocloadCore
import SocloadDatabase

/// The read role (`LoadedDatabase`) for a SQLite file socload loaded: what `tables`, `schema`,
/// `info`, `verify`, `select`, `query`, `drop` and `recount` ask of it, on one `DatabaseQueue`.
///
/// Opened for reading, the connection refuses every statement that would change the file (and
/// needs no write access); `drop`, `recount` and `query --write` need `acceptsChanges`.
///
///     let database = try SQLiteLoadedDatabase(path: "socload.sqlite")
///     for table in try database.tables() { print(table.name, table.rowCount) }
public final class SQLiteLoadedDatabase: LoadedDatabase {
    public let queue: DatabaseQueue

    public init(queue: DatabaseQueue) {
        self.queue = queue
    }

    /// Opens an existing file (never creates one): read-only unless `acceptsChanges`.
    public convenience init(path: String, acceptsChanges: Bool = false) throws {
        var configuration = DatabaseConfiguration.forReading(path)
        if acceptsChanges {
            configuration = DatabaseConfiguration()
            configuration.createIfMissing = false
        }
        self.init(queue: try DatabaseQueue(path: path, configuration: configuration))
    }

    public var place: String { "'\(queue.path)'" }

    /// Interrupts the statement running now, from any thread.
    public var cancelAction: @Sendable () -> Void {
        { [weak queue] in queue?.interrupt() }
    }

    public var containsIgnoresAccents: Bool { true }

    public func tables() throws -> [TableSummary] {
        try queue.read { db in
            // A GeoPackage's own tables and spatial indexes are its bookkeeping, as socload's are,
            // and so are a full-text index's shadow tables (T_fts is listed: it can be queried).
            let geoPackage = try GeoPackageFile.isGeoPackage(db)
                ? " and name not like 'gpkg\\_%' escape '\\' and name not like 'rtree\\_%' escape '\\'" : ""
            let names = try db.fetchAll(String.self, sql: """
                select name from sqlite_schema
                where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like '\\_socload\\_%' escape '\\'\(geoPackage)
                and name not in (select name from pragma_table_list where type = 'shadow')
                order by name
                """)
            return try names.map { name in
                let count = try db.fetchOne(Int.self, sql: "select count(*) from \(name.quotedDatabaseIdentifier)") ?? 0
                return TableSummary(name: name, rowCount: count, nameInSQL: name.sqlIdentifier)
            }
        }
    }

    public func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry? {
        try queue.read { db in try SQLiteCatalog(db: db).entry(for: tableOrDatasetID, withDescription: withDescription) }
    }

    public func catalogEntries() throws -> [CatalogEntry] {
        try queue.read { db in try SQLiteCatalog(db: db).entries() }
    }

    public func schemaChanges(of table: String) throws -> [RecordedSchemaChange] {
        try queue.read { db in try SQLiteCatalog(db: db).schemaChanges(of: table) }
    }

    public func refreshes(of table: String) throws -> [RefreshRecord] {
        try queue.read { db in try SQLiteCatalog(db: db).refreshes(of: table) }
    }

    public func rowChanges(of table: String, since: String) throws -> [RecordedRowChange] {
        try queue.read { db in
            guard try db.tableExists(RowChangeLog.tableName) else { return [] }
            let executor = SQLiteSQLExecutor(db: db)
            return try executor.rows(RowChangeLog(dialect: SQLiteDialect()).selectStatement, [.text(table), .text(since)])
                .compactMap(RowChangeLog.change(fromRow:))
        }
    }

    public func planTable(named table: String) throws -> PlanTable? {
        try queue.read { db in try SQLiteCatalog(db: db).planTable(named: table) }
    }

    public func tableExists(_ table: String) throws -> Bool {
        try queue.read { db in try db.tableExists(table) }
    }

    public func definition(of table: String) throws -> [String] {
        try queue.read { db in
            guard let create = try db.fetchOne(String.self, sql: "select sql from sqlite_schema where type = 'table' and name = ?",
                                               arguments: [table]) else { return [] }
            // The table, then its indexes and triggers (the key is a unique index built after the rows).
            return [create] + (try db.fetchAll(String.self, sql: """
                select sql from sqlite_schema where tbl_name = ? and type in ('index', 'trigger') and sql is not null
                order by type, name
                """, arguments: [table]))
        }
    }

    /// The key comes from the plan socload recorded: it is a unique index there, which
    /// `pragma table_info` does not call a primary key. A table socload did not load keeps
    /// SQLite's own answer.
    public func columns(of table: String) throws -> [TableColumn] {
        try queue.read { db in
            let plan = try SQLiteCatalog(db: db).planTable(named: table)
            return try db.fetchRows(sql: "select name, type, \"notnull\", pk from pragma_table_info(?)", arguments: [table])
                .compactMap { row in
                    guard case .text(let name) = row[0] else { return nil }
                    var position = 0
                    if let plan {
                        position = plan.primaryKey.firstIndex { $0.lowercased() == name.lowercased() }.map { $0 + 1 } ?? 0
                    } else if case .integer(let pk) = row[3] {
                        position = Int(pk)
                    }
                    let type: String
                    if case .text(let declared) = row[1] { type = declared } else { type = "" }
                    return TableColumn(name: name, type: type, notNull: row[2] == .integer(1), keyPosition: position)
                }
        }
    }

    /// A column extracted into a lookup is counted through its foreign key.
    public func nonNullCounts(of table: String, columns: [String]) throws -> [String: Int] {
        try queue.read { db in try SQLiteVerifier.nonNullCounts(of: table, columns: columns, db: db) }
    }

    public func verify(_ tableOrDatasetID: String) throws -> PortalVerification? {
        try queue.read { db in try SQLiteVerifier.verify(tableOrDatasetID, db: db) }
    }

    public func drop(_ tableOrDatasetID: String) throws -> String? {
        let dropped = try queue.write { db in
            let dropped = try SQLiteCatalog(db: db).drop(tableOrDatasetID)
            // A GeoPackage forgets the layer (and drops its spatial index).
            if try GeoPackageFile.isGeoPackage(db) { try GeoPackageFile.synchronize(db, changedTables: []) }
            return dropped
        }
        queue.checkpoint()
        return dropped
    }

    public func recount(_ table: PlanTable) throws -> [KeptCountDrift] {
        let drifts = try queue.write { db in
            let counts = SQLiteLookupCounts(db: db, table: table)
            let drifts = try counts.drifted()
            try counts.recount()
            return drifts
        }
        queue.checkpoint()
        return drifts
    }

    public func selectStatement(_ request: SelectRequest) throws -> SQLFragment {
        try queue.read { db in
            let catalog = SQLiteCatalog(db: db)
            let query = try db.selectQuery(from: request.table, columns: request.columns, where: request.predicate,
                                           orderBy: request.orderBy, limit: request.limit,
                                           timestampForms: try catalog.timestampForms(of: request.table),
                                           columnTypes: try catalog.planTable(named: request.table)?.conditionColumnTypes,
                                           following: request.following, search: request.search)
            return SQLFragment(sql: query.sql, arguments: query.arguments)
        }
    }

    public func read(_ statement: SQLFragment, columns: ([String]) -> Void, row: ([DatabaseValue]) throws -> Void) throws {
        try queue.read { db in
            try Self.run(statement.sql, StatementArguments(positional: statement.arguments), in: db, columns: columns, row: row)
        }
    }

    /// Placeholders are `?` (in order) and `:name`. Unless `allowingChanges`, the connection's
    /// authorizer refuses a statement that would change the file (`ReadError.changeRefused`).
    public func runUserStatement(_ sql: String, parameters: UserParameters, allowingChanges: Bool,
                                 columns: ([String]) -> Void, row: ([DatabaseValue]) throws -> Void) throws {
        var arguments = StatementArguments(positional: parameters.positional.map { .text($0) })
        for (name, value) in parameters.named { arguments.named[name] = .text(value) }
        do {
            try queue.inDatabase { db in
                // SQLite itself refuses every write too (the authorizer lets a GeoPackage's
                // spatial index prepare its own, see `ReadOnlyAuthorizer`); a connection opened
                // without accepting changes is under query_only already.
                let guarding = !allowingChanges && db.acceptsChanges
                if guarding { try db.execute(sql: "PRAGMA query_only = 1") }
                defer { if guarding { try? db.execute(sql: "PRAGMA query_only = 0") } }
                try Self.run(sql, arguments, in: db, columns: columns, row: row)
            }
            if allowingChanges { queue.checkpoint() }
        } catch let error as DatabaseError where (error.isNotAuthorized || error.resultCode == SQLITE_READONLY) && !allowingChanges {
            throw ReadError.changeRefused
        } catch let error as DatabaseError where error.isArgumentMismatch {
            throw ReadError.parameters(error.message)
        } catch let error as DatabaseError {
            throw Self.withQuotingHint(error)
        }
    }

    private static func run(_ sql: String, _ arguments: StatementArguments, in db: Database,
                            columns: ([String]) -> Void, row: ([DatabaseValue]) throws -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        try statement.bind(arguments)
        if statement.columnCount > 0 { columns(statement.columnNames) }
        while try statement.step() {
            try row(statement.values())
        }
    }

    /// SQLite reads `5mtp_qs2h` (a table named after a 4x4 id) as a malformed number: the error
    /// says how to write the name.
    static func withQuotingHint(_ error: DatabaseError) -> any Error {
        let prefix = "unrecognized token: \""
        guard error.message.hasPrefix(prefix), error.message.hasSuffix("\"") else { return error }
        let token = String(error.message.dropFirst(prefix.count).dropLast())
        guard let first = token.unicodeScalars.first, ("0"..."9").contains(first),
              token.unicodeScalars.contains(where: { !("0"..."9").contains($0) && $0 != "." }) else { return error }
        return HintedDatabaseError(underlying: error,
                                   hint: "a name that starts with a digit is written in double quotes: " + token.quotedDatabaseIdentifier)
    }
}

/// A SQLite error with a hint after it that says how to write what SQLite misread.
public struct HintedDatabaseError: CategorizedError {
    public let underlying: DatabaseError
    public let hint: String

    public var description: String { underlying.description + "; " + hint }
    public var kind: FailureKind { .database }
}

extension SQLiteLoadedDatabase {
    /// Each row read in place from the statement: a text's bytes are SQLite's own, no `String`.
    public func scan(_ statement: SQLFragment, row: (any ResultRow) throws -> Void) throws {
        try queue.read { db in
            let prepared = try db.makeStatement(sql: statement.sql)
            try prepared.bind(StatementArguments(positional: statement.arguments))
            let current = StatementRow(handle: prepared.handle, count: prepared.columnCount)
            while try prepared.step() { try row(current) }
        }
    }
}

/// The current row of a SQLite statement, read in place.
private struct StatementRow: ResultRow {
    let handle: OpaquePointer
    let count: Int

    func kind(_ column: Int) -> ResultValueKind {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    func integer(_ column: Int) -> Int64 { sqlite3_column_int64(handle, Int32(column)) }
    func real(_ column: Int) -> Double { sqlite3_column_double(handle, Int32(column)) }

    func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let start: UnsafeRawPointer? = sqlite3_column_type(handle, Int32(column)) == SQLITE_BLOB
            ? sqlite3_column_blob(handle, Int32(column)) : sqlite3_column_text(handle, Int32(column)).map(UnsafeRawPointer.init)
        return try body(UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, Int32(column)))))
    }
}
