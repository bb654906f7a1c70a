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

    init(db: Database, table: PlanTable) throws {
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
        let quoted = table.name.quotedDatabaseIdentifier
        let present = try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table.name])
        if present.isEmpty {
            let ids = table.primaryKey.compactMap(table.column(named:)).map {
                "\($0.name.quotedDatabaseIdentifier) \(SQLiteTypes.declaredType($0.type)) NOT NULL"
            }
            let flags = [glue.assertedColumn, glue.otherAssertedColumn].sorted().map {
                "\($0.quotedDatabaseIdentifier) INTEGER NOT NULL DEFAULT 0"
            }
            try db.execute(sql: "CREATE TABLE \(quoted) (\((ids + flags).joined(separator: ", ")), "
                                + "PRIMARY KEY (\(SQLiteTableWriter.quotedList(table.primaryKey))))")
        }
        let known = Set(try db.fetchAll(String.self, sql: "SELECT lower(name) FROM pragma_table_info(?)", arguments: [table.name]))
        for column in table.columns where !known.contains(column.name.lowercased()) {
            try db.execute(sql: "ALTER TABLE \(quoted) ADD COLUMN \(column.name.quotedDatabaseIdentifier) \(SQLiteTypes.declaredType(column.type))")
        }
        for flag in [glue.assertedColumn, glue.otherAssertedColumn] where !known.contains(flag.lowercased()) {
            try db.execute(sql: "ALTER TABLE \(quoted) ADD COLUMN \(flag.quotedDatabaseIdentifier) INTEGER NOT NULL DEFAULT 0")
        }
        let key = Set(table.primaryKey)
        let attributes = table.columns.map(\.name).filter { !key.contains($0) }
        let statements = GlueStatements(glueTable: quoted, idColumns: table.primaryKey.map(\.quotedDatabaseIdentifier),
                                        attributes: attributes.map(\.quotedDatabaseIdentifier),
                                        asserted: glue.assertedColumn.quotedDatabaseIdentifier,
                                        otherAsserted: glue.otherAssertedColumn.quotedDatabaseIdentifier)
        let merged = try db.fetchOne(Int.self, sql: statements.merges(staging: Self.stagingTable)) ?? 0
        try db.execute(sql: statements.withdraw)
        // Rows are upserted in order, so a pair given twice keeps its later element's attributes.
        // (WHERE true: SQLite reads an ON after the SELECT as a join's unless it has a WHERE.)
        try db.execute(sql: statements.upsert(select: "SELECT \(SQLiteTableWriter.quotedList(table.primaryKey + attributes)), 1 "
                                              + "FROM \(Self.stagingTable) WHERE true ORDER BY rowid"))
        try db.execute(sql: statements.removeUnasserted)
        try db.execute(sql: "DROP TABLE \(Self.stagingTable)")
        let otherExists = try db.fetchValue(sql: "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE",
                                            arguments: [glue.otherTable]) != nil
        let dangling = try db.fetchOne(Int.self, sql: statements.dangling(
            otherColumn: glue.otherColumn.quotedDatabaseIdentifier,
            otherTable: otherExists ? glue.otherTable.quotedDatabaseIdentifier : nil,
            otherKey: glue.otherKey.quotedDatabaseIdentifier)) ?? 0
        return GlueNotes.describe(table: table.name, glue: glue, merged: merged, dangling: dangling, otherExists: otherExists)
    }
}
