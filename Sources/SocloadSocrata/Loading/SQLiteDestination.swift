import SocloadDatabase

/// Loads into a SQLite database through its `DatabaseQueue`: the whole load runs in one
/// `BEGIN IMMEDIATE` transaction on the queue, so readers see the previous table until COMMIT.
public struct SQLiteDestination: LoadDestination {
    public let queue: DatabaseQueue

    public init(queue: DatabaseQueue) {
        self.queue = queue
    }

    public func performLoad<T>(_ body: (any LoadSession) throws -> T) throws -> T {
        try queue.write { db in try body(SQLiteLoadSession(db: db)) }
    }
}

/// One load's statements on the connection: DROP/CREATE, one cached INSERT reused for every row.
final class SQLiteLoadSession: LoadSession {
    private let db: Database
    private var insert: Statement?

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

    func recordCatalogEntry(_ entry: CatalogEntry) throws {
        try Catalog.record(entry, in: db)
    }
}
