import SocloadCore
import SocloadDatabase

/// The core's shared SQL, run on the load's connection.
final class SQLiteSQLExecutor: SQLExecuting {
    private let db: Database
    let dialect: any SQLDialect = SQLiteDialect()

    init(db: Database) {
        self.db = db
    }

    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws {
        try db.execute(sql: sql, arguments: StatementArguments(positional: arguments))
    }

    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[String?]] {
        try db.fetchRows(sql: sql, arguments: StatementArguments(positional: arguments)).map { row in row.values.map(\.textValue) }
    }

    func tableExists(_ name: String) throws -> Bool {
        try db.tableExists(name)
    }

    func columnNames(of table: String) throws -> [String] {
        try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
    }

    func dropTable(_ name: String) throws {
        try db.withoutSecureDelete { try db.execute(sql: "DROP TABLE IF EXISTS \(name.quotedDatabaseIdentifier)") }
    }

    func renameTable(_ name: String, to newName: String) throws {
        try SQLiteTableMove.move(name, to: newName, db: db)
    }

    func appendWriter(for table: PlanTable) throws -> any TableWriter {
        try SQLiteAppendWriter(db: db, table: table)
    }

    /// A TEMP table: the load's unqualified statements find it before a table of the file.
    func scratchWriter(for table: PlanTable) throws -> any TableWriter {
        try SQLiteAppendWriter(db: db, table: table, temporary: true)
    }
}

/// Appends batches to a table of socload's own, made anew, with one prepared INSERT.
final class SQLiteAppendWriter: TableWriter {
    private let insertStatement: Statement

    init(db: Database, table: PlanTable, temporary: Bool = false) throws {
        try db.withoutSecureDelete { try db.execute(sql: "DROP TABLE IF EXISTS \(table.name.quotedDatabaseIdentifier)") }
        // A TEMP table is found first by that name: one in the file (a release that kept it
        // there left it) goes too.
        if temporary { try db.execute(sql: "DROP TABLE IF EXISTS main.\(table.name.quotedDatabaseIdentifier)") }
        try db.execute(sql: SQLiteTableWriter.createTableSQL(table, temporary: temporary))
        let columns = table.columns.map { $0.name.quotedDatabaseIdentifier }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        insertStatement = try db.makeStatement(
            sql: "INSERT INTO \(table.name.quotedDatabaseIdentifier) (\(columns)) VALUES (\(placeholders))")
    }

    func insert(_ batch: RowBatch) throws {
        try SQLiteBatchBinder.run(insertStatement, over: batch)
    }

    func finish(strict: Bool) throws -> [String] { [] }
}
