import SocloadCore

/// Upserts one side's links into a many-to-many glue table (see `PlanGlue`): the rows are copied
/// into a temporary table, then, after the last one, this side's earlier links are withdrawn,
/// the staged ones upserted by the pair (the later of two elements for one pair winning, the
/// attributes only the other side carries kept), and links no side asserts removed.
final class PostgreSQLGlueWriter: TableWriter {
    private let transaction: PostgreSQLLoadTransaction
    private let table: PlanTable
    private let glue: PlanGlue
    private let stagingName: String
    private var encoder: PostgreSQLCopyEncoder
    private let buffer = CopyBuffer()

    /// With `keys`, only the links of the side's rows they noted are withdrawn (an append or upsert).
    private let keys: NotedKeys?

    init(transaction: PostgreSQLLoadTransaction, table: PlanTable, onlyFor keys: NotedKeys? = nil) throws {
        self.keys = keys
        guard let glue = table.glue else { throw LoadError.unsupported("\(table.name) is not a glue table") }
        self.transaction = transaction
        self.table = table
        self.glue = glue
        stagingName = transaction.temporaryName("glue")
        encoder = PostgreSQLCopyEncoder(table: table, geometries: [])
        try transaction.execute("CREATE TEMPORARY TABLE \(stagingName.quotedDatabaseIdentifier) (" + (table.columns.map {
            "\($0.name.quotedDatabaseIdentifier) \(PostgreSQLTypes.declaredType($0.type))"
        } + ["\"_socload_order\" bigserial"]).joined(separator: ", ") + ") ON COMMIT DROP")
    }

    func insert(_ batch: RowBatch) throws {
        guard batch.rowCount > 0 else { return }
        buffer.removeAll()
        if try transaction.openBinaryCopy(into: stagingName.quotedDatabaseIdentifier, columns: table.columns.map(\.name)) {
            buffer.write(PostgreSQLCopyEncoder.header)
        }
        try encoder.encode(batch, into: buffer)
        try transaction.connection.sendCopyData(buffer.bytes)
    }

    func finish(strict: Bool) throws -> [String] {
        try transaction.pauseCopy()
        let writing = GlueWriting(table: table, glue: glue, dialect: PostgreSQLDialect(schema: transaction.schema))
        let staging = stagingName.quotedDatabaseIdentifier
        var existing = try PostgreSQLLookups.columnNames(of: transaction.qualified(table.name), transaction: transaction)
        if existing.isEmpty, let column = table.distributionColumn {
            // A new glue table of a distributed table: distributed while still empty, with its parent.
            for sql in writing.tableStatements(existing: []) { try transaction.execute(sql) }
            if table.column(named: column)?.type == .text {
                // As the parent's key column is (PostgreSQLTableWriter): colocated tables' columns match.
                try transaction.execute("ALTER TABLE \(transaction.qualified(table.name)) ALTER COLUMN \(column.quotedDatabaseIdentifier) "
                                        + "TYPE text COLLATE \"C\"")
            }
            try transaction.distribute(transaction.qualified(table.name), by: column, table: table)
            existing = try PostgreSQLLookups.columnNames(of: transaction.qualified(table.name), transaction: transaction)
        }
        let otherExists = try transaction.value("SELECT to_regclass($1) IS NOT NULL", [transaction.qualified(glue.otherTable)]) == "t"
        let keyList = PostgreSQLTableWriter.quotedList(table.primaryKey)
        // One row per pair, its last element's: ON CONFLICT cannot touch a row twice.
        let select = "SELECT DISTINCT ON (\(keyList)) \(PostgreSQLTableWriter.quotedList(table.primaryKey + writing.attributes)), 1 "
            + "FROM \(staging) ORDER BY \(keyList), \"_socload_order\" DESC"
        return try writing.finish(existing: existing, staging: staging, upsertSelect: select, otherTableExists: otherExists,
                                  onlyFor: keys,
                                  execute: { try transaction.execute($0) },
                                  count: { Int(try transaction.value($0) ?? "0") ?? 0 })
    }
}
