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

    init(transaction: PostgreSQLLoadTransaction, table: PlanTable) throws {
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

    private var copy: String {
        "COPY \(stagingName.quotedDatabaseIdentifier) (\(PostgreSQLTableWriter.quotedList(table.columns.map(\.name)))) "
            + "FROM STDIN (FORMAT binary)"
    }

    func insert(_ batch: RowBatch) throws {
        guard batch.rowCount > 0 else { return }
        let connection = transaction.connection
        buffer.removeAll()
        if !connection.isCopying || transaction.openCopy != copy {
            try transaction.beginCopy(copy) {
                try PostgreSQLCopyEncoder.trailer.withUnsafeBytes { try connection.sendCopyData($0) }
            }
            buffer.write(PostgreSQLCopyEncoder.header)
        }
        try encoder.encode(batch, into: buffer)
        try connection.sendCopyData(buffer.bytes)
    }

    func finish(strict: Bool) throws -> [String] {
        try transaction.pauseCopy()
        let target = transaction.qualified(table.name)
        let staging = stagingName.quotedDatabaseIdentifier
        let present = try PostgreSQLLookups.columnNames(of: target, transaction: transaction)
        if present.isEmpty {
            let ids = table.primaryKey.compactMap(table.column(named:)).map {
                "\($0.name.quotedDatabaseIdentifier) \(PostgreSQLTypes.declaredType($0.type)) NOT NULL"
            }
            let flags = [glue.assertedColumn, glue.otherAssertedColumn].sorted().map {
                "\($0.quotedDatabaseIdentifier) smallint NOT NULL DEFAULT 0"
            }
            try transaction.execute("CREATE TABLE \(target) (\((ids + flags).joined(separator: ", ")), "
                                    + "PRIMARY KEY (\(PostgreSQLTableWriter.quotedList(table.primaryKey))))")
        }
        let known = Set(try PostgreSQLLookups.columnNames(of: target, transaction: transaction))
        for column in table.columns where !known.contains(column.name) {
            try transaction.execute("ALTER TABLE \(target) ADD COLUMN \(column.name.quotedDatabaseIdentifier) "
                                    + PostgreSQLTypes.declaredType(column.type))
        }
        for flag in [glue.assertedColumn, glue.otherAssertedColumn] where !known.contains(flag) {
            try transaction.execute("ALTER TABLE \(target) ADD COLUMN \(flag.quotedDatabaseIdentifier) smallint NOT NULL DEFAULT 0")
        }
        let key = Set(table.primaryKey)
        let attributes = table.columns.map(\.name).filter { !key.contains($0) }
        let statements = GlueStatements(glueTable: target, idColumns: table.primaryKey.map(\.quotedDatabaseIdentifier),
                                        attributes: attributes.map(\.quotedDatabaseIdentifier),
                                        asserted: glue.assertedColumn.quotedDatabaseIdentifier,
                                        otherAsserted: glue.otherAssertedColumn.quotedDatabaseIdentifier)
        let merged = Int(try transaction.value(statements.merges(staging: staging)) ?? "0") ?? 0
        try transaction.execute(statements.withdraw)
        let keyList = PostgreSQLTableWriter.quotedList(table.primaryKey)
        // One row per pair, its last element's: ON CONFLICT cannot touch a row twice.
        try transaction.execute(statements.upsert(select: "SELECT DISTINCT ON (\(keyList)) "
                                                  + "\(PostgreSQLTableWriter.quotedList(table.primaryKey + attributes)), 1 FROM \(staging) "
                                                  + "ORDER BY \(keyList), \"_socload_order\" DESC"))
        try transaction.execute(statements.removeUnasserted)
        let other = transaction.qualified(glue.otherTable)
        let otherExists = try transaction.value("SELECT to_regclass($1) IS NOT NULL", [other]) == "t"
        let dangling = Int(try transaction.value(statements.dangling(
            otherColumn: glue.otherColumn.quotedDatabaseIdentifier, otherTable: otherExists ? other : nil,
            otherKey: glue.otherKey.quotedDatabaseIdentifier)) ?? "0") ?? 0
        return GlueNotes.describe(table: table.name, glue: glue, merged: merged, dangling: dangling, otherExists: otherExists)
    }
}
