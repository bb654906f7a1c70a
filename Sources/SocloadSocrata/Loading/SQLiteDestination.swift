import Foundation
import CSQLite
import SocloadDatabase

/// Loads into a SQLite database through its `DatabaseQueue`: the whole load runs in one
/// `BEGIN IMMEDIATE` transaction on the queue, so readers see the previous table until COMMIT.
public struct SQLiteDestination: LoadDestination {
    public let queue: DatabaseQueue

    public init(queue: DatabaseQueue) {
        self.queue = queue
    }

    /// Loads in one transaction. Into a database that holds no table yet, the load runs with
    /// SQLite's rollback journal, which writes each page once (no reader can be waiting for a
    /// table that does not exist), and the database is switched to write-ahead logging after the
    /// commit; into a database with tables, it runs in WAL mode, so other processes keep reading
    /// the previous table until the commit (at the price of writing pages twice: to the WAL, then
    /// to the database at the checkpoint). Both keep full durability (synchronous=FULL).
    public func performLoad<T>(_ body: (any LoadSession) throws -> T) throws -> T {
        let isEmpty = try queue.inDatabase { db in
            try db.fetchValue(sql: "SELECT count(*) FROM sqlite_schema") == .integer(0)
        }
        if isEmpty {
            // Best effort: another connection holding the file keeps it in WAL mode, which is fine.
            queue.inDatabase { db in _ = try? db.fetchValue(sql: "PRAGMA journal_mode = DELETE") }
        }
        defer {
            if isEmpty { queue.inDatabase { db in _ = try? db.fetchValue(sql: "PRAGMA journal_mode = WAL") } }
        }
        return try queue.write { db in try body(SQLiteLoadSession(db: db)) }
    }
}

/// One load's statements on the connection: DROP/CREATE, one cached INSERT reused for every row.
final class SQLiteLoadSession: LoadSession {
    private let db: Database
    private var insert: Statement?
    private var upsertStatement: Statement?
    private var existsStatement: Statement?
    private var savepointDepth = 0

    init(db: Database) {
        self.db = db
    }

    func replaceTable(_ schema: TableSchema) throws {
        let table = schema.tableName.quotedDatabaseIdentifier
        try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
        try db.execute(sql: Self.createTableSQL(schema))
        let columns = schema.columns.map { $0.name.quotedDatabaseIdentifier }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: schema.columns.count).joined(separator: ", ")
        insert = try db.cachedStatement(sql: "INSERT INTO \(table) (\(columns)) VALUES (\(placeholders))")
    }

    static func createTableSQL(_ schema: TableSchema) -> String {
        let definitions = schema.columns.map { column in
            "\(column.name.quotedDatabaseIdentifier) \(column.storage.rawValue)\(column.isPrimaryKey ? " PRIMARY KEY" : "")"
        }
        return "CREATE TABLE \(schema.tableName.quotedDatabaseIdentifier) (\(definitions.joined(separator: ", ")))"
    }

    func insert(_ values: [DatabaseValue]) throws {
        guard let insert else { throw DatabaseError(extendedResultCode: 21, message: "no table to insert into") }
        insert.reset()
        for (index, value) in values.enumerated() {
            try insert.bind(value, at: Int32(index + 1))
        }
        try insert.step()
    }

    func insert(_ batch: RowBatch) throws {
        guard let insert else { throw DatabaseError(extendedResultCode: 21, message: "no table to insert into") }
        try batch.arena.withUnsafeBufferPointer { arena in
            var index = 0
            for row in 0..<batch.rowCount {
                insert.reset()
                for column in 1...batch.columnCount {
                    let code: Int32
                    switch batch.values[index] {
                    case .null: code = sqlite3_bind_null(insert.handle, Int32(column))
                    case .integer(let value): code = sqlite3_bind_int64(insert.handle, Int32(column), value)
                    case .real(let value): code = sqlite3_bind_double(insert.handle, Int32(column), value)
                    case let .text(offset, length):
                        // The arena outlives the step: SQLite may read it in place (SQLITE_STATIC).
                        let start = UnsafeRawPointer(arena.baseAddress.map { $0 + Int(offset) } ?? UnsafePointer(bitPattern: 1)!)
                        code = sqlite3_bind_text64(insert.handle, Int32(column), start.assumingMemoryBound(to: CChar.self),
                                                   sqlite3_uint64(length), socload_sqlite3_static(), UInt8(SQLITE_UTF8))
                    }
                    if code != SQLITE_OK { throw DatabaseError(extendedResultCode: code, message: "cannot bind a value", sql: insert.sql) }
                    index += 1
                }
                do {
                    try insert.step()
                } catch let error as DatabaseError where error.resultCode == SQLITE_CONSTRAINT {
                    throw LoadError.constraint(row: batch.firstRowNumber + row, message: error.message)
                }
            }
            // Nothing may keep pointing into the arena once it is released.
            insert.reset()
            insert.clearBindings()
        }
    }

    func recordCatalogEntry(_ entry: CatalogEntry) throws {
        try Catalog.record(entry, in: db)
    }

    func catalogEntry(for table: String) throws -> CatalogEntry? {
        try Catalog.entry(for: table, in: db)
    }

    func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "socload_attempt_\(savepointDepth)"
        try db.execute(sql: "SAVEPOINT \(name)")
        do {
            let result = try body()
            try db.execute(sql: "RELEASE \(name)")
            return result
        } catch {
            if db.isInsideTransaction {
                try? db.execute(sql: "ROLLBACK TO \(name)")
                try? db.execute(sql: "RELEASE \(name)")
            }
            throw error
        }
    }

    func existingColumns(of table: String) throws -> [TableColumn]? {
        let rows = try db.fetchRows(sql: "SELECT name, type, pk FROM pragma_table_info(?)", arguments: [table])
        guard !rows.isEmpty else { return nil }
        return rows.map { row in
            let name: String
            if case .text(let text) = row[0] { name = text } else { name = "" }
            let type: String
            if case .text(let text) = row[1] { type = text.uppercased() } else { type = "" }
            return TableColumn(name: name, storage: ColumnStorage(rawValue: type) ?? .text,
                               isPrimaryKey: row[2] != .integer(0), sourceFieldName: "")
        }
    }

    func prepareUpsert(_ schema: TableSchema) throws {
        let table = schema.tableName.quotedDatabaseIdentifier
        let names = schema.columns.map { $0.name.quotedDatabaseIdentifier }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let updates = schema.columns.filter { !$0.isPrimaryKey }.map {
            "\($0.name.quotedDatabaseIdentifier) = excluded.\($0.name.quotedDatabaseIdentifier)"
        }
        guard let key = schema.columns.first(where: \.isPrimaryKey) else {
            throw LoadError.unsupported("\(schema.tableName) has no _id column to sync rows by")
        }
        upsertStatement = try db.cachedStatement(sql: """
            INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(placeholders)) \
            ON CONFLICT(\(key.name.quotedDatabaseIdentifier)) DO UPDATE SET \(updates.joined(separator: ", "))
            """)
        existsStatement = try db.cachedStatement(
            sql: "SELECT 1 FROM \(table) WHERE \(key.name.quotedDatabaseIdentifier) = ?")
        upsertKeyIndex = schema.columns.firstIndex(where: \.isPrimaryKey) ?? 0
    }

    private var upsertKeyIndex = 0

    func upsert(_ values: [DatabaseValue]) throws -> Bool {
        guard let upsertStatement, let existsStatement else {
            throw DatabaseError(extendedResultCode: 21, message: "prepareUpsert was not called")
        }
        existsStatement.reset()
        try existsStatement.bind(values[upsertKeyIndex], at: 1)
        let existed = try existsStatement.step()
        existsStatement.reset()
        upsertStatement.reset()
        for (index, value) in values.enumerated() {
            try upsertStatement.bind(value, at: Int32(index + 1))
        }
        try upsertStatement.step()
        return !existed
    }

    func newestUpdate(in table: String) throws -> String? {
        let value = try db.fetchValue(sql: "SELECT max(\"_updated_at\") FROM \(table.quotedDatabaseIdentifier)")
        if case .text(let text)? = value { return text }
        return nil
    }

    func rowCount(of table: String) throws -> Int {
        let value = try db.fetchValue(sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)")
        if case .integer(let count)? = value { return Int(count) }
        return 0
    }
}
