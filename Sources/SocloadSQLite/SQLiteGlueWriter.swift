import SocloadCore
import SocloadDatabase

/// Upserts one side's links into a many-to-many glue table (see `PlanGlue`): the rows are staged
/// in a temporary table, then, after the last one, this side's earlier links are withdrawn, the
/// staged ones upserted by the pair (a later element's attributes winning over an earlier one's,
/// the attributes only the other side carries kept), and links no side asserts removed.
final class SQLiteGlueWriter: TableWriter {
    private let db: Database
    private let table: PlanTable
    private let glue: PlanGlue
    private let insertStatement: Statement
    static let stagingTable = "temp.\"_socload_glue_rows\""

    /// With `keys`, only the links of the side's rows they noted are withdrawn (an append or upsert).
    private let keys: NotedKeys?

    init(db: Database, table: PlanTable, onlyFor keys: NotedKeys? = nil) throws {
        self.keys = keys
        guard let glue = table.glue else { throw LoadError.unsupported("\(table.name) is not a glue table") }
        self.db = db
        self.table = table
        self.glue = glue
        try db.execute(sql: "DROP TABLE IF EXISTS \(Self.stagingTable)")
        try db.execute(sql: "CREATE TEMP TABLE \"_socload_glue_rows\" (" + table.columns.map {
            "\($0.name.quotedDatabaseIdentifier) \(SQLiteTypes.declaredType($0.type))"
        }.joined(separator: ", ") + ")")
        let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        insertStatement = try db.makeStatement(sql: "INSERT INTO \(Self.stagingTable) "
                                                    + "(\(SQLiteTableWriter.quotedList(table.columns.map(\.name)))) VALUES (\(placeholders))")
    }

    func insert(_ batch: RowBatch) throws {
        try SQLiteBatchBinder.run(insertStatement, over: batch)
    }

    func finish(strict: Bool) throws -> [String] {
        let writing = GlueWriting(table: table, glue: glue, dialect: SQLiteDialect())
        let existing = try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table.name])
        let otherExists = try db.tableExists(glue.otherTable)
        // Rows are upserted in order, so a pair given twice keeps its later element's attributes.
        // (WHERE true: SQLite reads an ON after the SELECT as a join's unless it has a WHERE.)
        let select = "SELECT \(SQLiteTableWriter.quotedList(table.primaryKey + writing.attributes)), 1 "
            + "FROM \(Self.stagingTable) WHERE true ORDER BY rowid"
        let notes = try writing.finish(existing: existing, staging: Self.stagingTable, upsertSelect: select, otherTableExists: otherExists,
                                       onlyFor: keys,
                                       execute: { try db.execute(sql: $0) }, count: { try db.fetchOne(Int.self, sql: $0) ?? 0 })
        try db.execute(sql: "DROP TABLE \(Self.stagingTable)")
        return notes
    }
}
