/// The end of one side's load into a many-to-many glue table, written once for every database:
/// the table made (or given the columns it lacks), this side's earlier links withdrawn, the
/// staged links upserted, the links nobody asserts removed, and what the user should know.
/// What differs per database is passed in: how the staged rows are read in order (`upsertSelect`)
/// and how a statement runs.
public struct GlueWriting: Sendable {
    public let table: PlanTable
    public let glue: PlanGlue
    public let dialect: any SQLDialect

    public init(table: PlanTable, glue: PlanGlue, dialect: any SQLDialect) {
        self.table = table
        self.glue = glue
        self.dialect = dialect
    }

    /// The glue table's non-key columns, in plan order.
    public var attributes: [String] {
        let key = Set(table.primaryKey)
        return table.columns.map(\.name).filter { !key.contains($0) }
    }

    /// The shared statements, on the table as the database names it.
    public var statements: GlueStatements {
        GlueStatements(glueTable: dialect.table(table.name), idColumns: table.primaryKey.map(\.quotedDatabaseIdentifier),
                       attributes: attributes.map(\.quotedDatabaseIdentifier),
                       asserted: glue.assertedColumn.quotedDatabaseIdentifier,
                       otherAsserted: glue.otherAssertedColumn.quotedDatabaseIdentifier)
    }

    /// What makes the table when `existing` (its column names now) is empty, else what adds the
    /// columns it lacks (compared as the database compares names).
    public func tableStatements(existing: [String]) -> [String] {
        let quoted = dialect.table(table.name)
        let flags = [glue.assertedColumn, glue.otherAssertedColumn]
        let fold = { (name: String) in dialect.namesIgnoreCase ? name.lowercased() : name }
        if existing.isEmpty {
            let ids = table.primaryKey.compactMap(table.column(named:)).map {
                "\($0.name.quotedDatabaseIdentifier) \(dialect.declaredType($0.type)) NOT NULL"
            }
            let flagColumns = flags.sorted().map { "\($0.quotedDatabaseIdentifier) \(dialect.flagType) NOT NULL DEFAULT 0" }
            return ["CREATE TABLE \(quoted) (\((ids + flagColumns).joined(separator: ", ")), "
                    + "PRIMARY KEY (\(table.primaryKey.map(\.quotedDatabaseIdentifier).joined(separator: ", "))))"]
                + table.columns.filter { !table.primaryKey.contains($0.name) }.map {
                    "ALTER TABLE \(quoted) ADD COLUMN \($0.name.quotedDatabaseIdentifier) \(dialect.declaredType($0.type))"
                }
        }
        let known = Set(existing.map(fold))
        return table.columns.filter { !known.contains(fold($0.name)) }.map {
            "ALTER TABLE \(quoted) ADD COLUMN \($0.name.quotedDatabaseIdentifier) \(dialect.declaredType($0.type))"
        } + flags.filter { !known.contains(fold($0)) }.map {
            "ALTER TABLE \(quoted) ADD COLUMN \($0.quotedDatabaseIdentifier) \(dialect.flagType) NOT NULL DEFAULT 0"
        }
    }

    /// Runs the end of the load: `existing` are the table's columns now, `staging` the staged
    /// links, `upsertSelect` the SELECT of the ids, this side's attributes and 1 from them (one
    /// row per pair, the later element's), `otherTableExists` whether the other side is loaded.
    /// `execute` runs a statement, `count` reads one whole number. The notes for the user.
    /// With `onlyFor` (an append or upsert: the noted keys of the side's rows it wrote), only
    /// those rows' earlier links are withdrawn.
    public func finish(existing: [String], staging: String, upsertSelect: String, otherTableExists: Bool,
                       onlyFor keys: NotedKeys? = nil,
                       execute: (String) throws -> Void, count: (String) throws -> Int) throws -> [String] {
        for sql in tableStatements(existing: existing) { try execute(sql) }
        let statements = statements
        let merged = try count(statements.merges(staging: staging))
        if let keys, let keyColumn = keys.columns.first {
            try keys.finish()
            try execute(statements.withdraw(column: glue.tableColumn.quotedDatabaseIdentifier, keys: keys.relation,
                                            keyColumn: keyColumn.name.quotedDatabaseIdentifier))
            try keys.drop()
        } else {
            try execute(statements.withdraw)
        }
        try execute(statements.upsert(select: upsertSelect))
        try execute(statements.removeUnasserted)
        let dangling = try count(statements.dangling(
            otherColumn: glue.otherColumn.quotedDatabaseIdentifier, otherTable: otherTableExists ? dialect.table(glue.otherTable) : nil,
            otherKey: glue.otherKey.quotedDatabaseIdentifier))
        return GlueNotes.describe(table: table.name, glue: glue, merged: merged, dangling: dangling, otherExists: otherTableExists)
    }
}
