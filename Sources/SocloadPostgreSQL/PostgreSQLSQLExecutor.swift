import SocloadCore

/// The core's shared SQL, run in the load's transaction (any open COPY ended first).
final class PostgreSQLSQLExecutor: SQLExecuting {
    private let transaction: PostgreSQLLoadTransaction
    let dialect: any SQLDialect

    init(transaction: PostgreSQLLoadTransaction) {
        self.transaction = transaction
        dialect = PostgreSQLDialect(schema: transaction.schema)
    }

    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws {
        try transaction.execute(sql, arguments.map(PostgreSQLDatabase.parameterText))
    }

    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[String?]] {
        try transaction.execute(sql, arguments.map(PostgreSQLDatabase.parameterText)).rows
    }

    func tableExists(_ name: String) throws -> Bool {
        try transaction.tableExists(name)
    }

    func columnNames(of table: String) throws -> [String] {
        try transaction.execute("SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 "
                                + "AND NOT attisdropped ORDER BY attnum", [transaction.qualified(table)]).rows.compactMap { $0.first ?? nil }
    }

    func dropTable(_ name: String) throws {
        try transaction.execute("DROP TABLE IF EXISTS \(transaction.qualified(name))")
    }

    func renameTable(_ name: String, to newName: String) throws {
        try transaction.execute("ALTER TABLE \(transaction.qualified(name)) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    func appendWriter(for table: PlanTable) throws -> any TableWriter {
        try PostgreSQLAppendWriter(transaction: transaction, table: table)
    }
}

/// Appends batches to a table of socload's own, made anew, by binary COPY. The transaction keeps
/// one COPY open at a time and the rows themselves have theirs, so the encoded rows wait in a
/// buffer of a few megabytes and go in one COPY when it is full (or at `finish`): a few turns
/// per load, not one per batch.
final class PostgreSQLAppendWriter: TableWriter {
    private let transaction: PostgreSQLLoadTransaction
    private let table: PlanTable
    private var encoder: PostgreSQLCopyEncoder
    private let pending = CopyBuffer()
    /// How many encoded bytes wait before they are sent.
    static let flushBytes = 8 << 20

    init(transaction: PostgreSQLLoadTransaction, table: PlanTable) throws {
        self.transaction = transaction
        self.table = table
        encoder = PostgreSQLCopyEncoder(table: table)
        try transaction.execute("DROP TABLE IF EXISTS \(transaction.qualified(table.name))")
        try transaction.execute(PostgreSQLTableWriter.createTableSQL(table, as: transaction.qualified(table.name)))
    }

    func insert(_ batch: RowBatch) throws {
        guard batch.rowCount > 0 else { return }
        try encoder.encode(batch, into: pending)
        if pending.count >= Self.flushBytes { try flush() }
    }

    private func flush() throws {
        guard pending.count > 0 else { return }
        if try transaction.openBinaryCopy(into: transaction.qualified(table.name), columns: table.columns.map(\.name)) {
            try PostgreSQLCopyEncoder.header.withUnsafeBytes { try transaction.connection.sendCopyData($0) }
        }
        try transaction.connection.sendCopyData(pending.bytes)
        pending.removeAll()
    }

    func finish(strict: Bool) throws -> [String] {
        try flush()
        try transaction.pauseCopy()
        return []
    }
}
