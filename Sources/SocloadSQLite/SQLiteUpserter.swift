import SocloadDatabase
import SocloadSocrata

/// Inserts or updates rows by the table's key: `INSERT ... ON CONFLICT (key) DO UPDATE`.
final class SQLiteUpserter: RowUpserter {
    private let db: Database
    private let table: PlanTable
    private let upsertStatement: Statement
    private let existsStatement: Statement
    private let keyColumns: [Int]

    init(db: Database, table: PlanTable) throws {
        self.db = db
        self.table = table
        let quotedTable = table.name.quotedDatabaseIdentifier
        let names = table.columns.map { $0.name.quotedDatabaseIdentifier }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let key = Set(table.primaryKey)
        let updates = table.columns.filter { !key.contains($0.name) }.map {
            "\($0.name.quotedDatabaseIdentifier) = excluded.\($0.name.quotedDatabaseIdentifier)"
        }
        let keyList = SQLiteTableWriter.quotedList(table.primaryKey)
        upsertStatement = try db.makeStatement(sql: """
            INSERT INTO \(quotedTable) (\(names.joined(separator: ", "))) VALUES (\(placeholders)) \
            ON CONFLICT(\(keyList)) DO \(updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", "))
            """)
        let matches = table.primaryKey.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        existsStatement = try db.makeStatement(sql: "SELECT 1 FROM \(quotedTable) WHERE \(matches)")
        keyColumns = table.primaryKey.compactMap { name in table.columns.firstIndex { $0.name == name } }
    }

    func upsert(_ batch: RowBatch) throws -> Int {
        var inserted = 0
        let existsStatement = existsStatement
        let keyColumns = keyColumns
        try SQLiteBatchBinder.run(upsertStatement, over: batch) { row, arena in
            existsStatement.reset()
            for (parameter, column) in keyColumns.enumerated() {
                try SQLiteBatchBinder.bind(batch.values[row * batch.columnCount + column], of: batch, arena: arena,
                                           at: Int32(parameter + 1), to: existsStatement)
            }
            if try !existsStatement.step() { inserted += 1 }
            existsStatement.reset()
            existsStatement.clearBindings() // it pointed into the arena
        }
        return inserted
    }

    func largestValue(of column: String) throws -> String? {
        guard table.column(named: column) != nil else { return nil }
        let value = try db.fetchValue(sql: "SELECT max(\(column.quotedDatabaseIdentifier)) FROM \(table.name.quotedDatabaseIdentifier)")
        if case .text(let text)? = value { return text }
        return nil
    }

    func addIndex(_ index: PlanIndex) throws {
        try db.execute(sql: "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(index.name.quotedDatabaseIdentifier) "
                            + "ON \(table.name.quotedDatabaseIdentifier) (\(SQLiteTableWriter.quotedList(index.columns)))")
    }

    func rowCount() throws -> Int {
        let value = try db.fetchValue(sql: "SELECT count(*) FROM \(table.name.quotedDatabaseIdentifier)")
        if case .integer(let count)? = value { return Int(count) }
        return 0
    }
}
