import Foundation
import SocloadCore

/// Inserts or updates rows by the table's key (sync, `load --mode upsert`): each batch goes by
/// binary COPY into a temporary table, then into the table with one `INSERT ... ON CONFLICT
/// (key) DO UPDATE`. A key given twice in a batch counts once, its last row winning, as
/// row-by-row upserts would. A table without a key only takes new rows (`load --mode append`).
final class PostgreSQLUpserter: RowUpserter {
    private let transaction: PostgreSQLLoadTransaction
    private let table: PlanTable
    /// The batches' staging table, quoted (`makeStagingTable`).
    private let staging: String
    private var encoder: PostgreSQLCopyEncoder
    private let geometries: [PostgreSQLGeometryColumn]
    /// `sync --deletes`: the keys the portal still has, copied in binary like any rows.
    private lazy var keySet = KeySetWriting(dialect: PostgreSQLDialect(schema: transaction.schema), table: table,
                                            keysTable: transaction.temporaryName("keys"))
    private var keyEncoder: PostgreSQLCopyEncoder?

    var keySetTable: String? { keyEncoder == nil ? nil : keySet.keysTable }

    init(transaction: PostgreSQLLoadTransaction, table: PlanTable) throws {
        self.transaction = transaction
        self.table = table
        let postGIS = try transaction.postGISSchema()
        // The table's PostGIS columns, if it has them (a table loaded before PostGIS came has none).
        let existing = Set(try transaction.execute("""
            SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
            """, [transaction.qualified(table.name)]).rows.compactMap { $0[0] })
        geometries = PostgreSQLGeometryColumn.columns(for: table, postGISSchema: postGIS).filter { existing.contains($0.name) }
        encoder = PostgreSQLCopyEncoder(table: table, geometries: geometries)
        try PostgreSQLLookups(transaction: transaction, table: table).dropTriggers()
        staging = try transaction.makeStagingTable("sync", for: table, geometries: geometries, postGISSchema: postGIS)
    }

    func upsert(_ batch: RowBatch) throws -> Int {
        guard batch.rowCount > 0 else { return 0 }
        let connection = transaction.connection
        try transaction.execute("TRUNCATE \(staging)")
        let buffer = CopyBuffer(capacity: batch.arena.count + batch.values.count * 12 + 64)
        if try transaction.openBinaryCopy(into: staging, columns: table.columns.map(\.name) + geometries.map(\.name)) {
            buffer.write(PostgreSQLCopyEncoder.header)
        }
        try encoder.encode(batch, into: buffer)
        try connection.sendCopyData(buffer.bytes)
        try transaction.pauseCopy()
        let lookups = PostgreSQLLookups(transaction: transaction, table: table)
        let incoming = Set(table.columns.map(\.name))
        try lookups.addMissingValues(from: staging, columns: incoming)
        let stored = table.storedColumns.map(\.name) + geometries.map(\.name)
        let rows = lookups.writing.storedRows(stored, relationColumns: incoming)
        let key = Set(table.primaryKey)
        let keyList = PostgreSQLTableWriter.quotedList(table.primaryKey)
        let updates = stored.filter { !key.contains($0) }.map {
            "\($0.quotedDatabaseIdentifier) = EXCLUDED.\($0.quotedDatabaseIdentifier)"
        }
        let action = updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", ")
        let sourceKey = table.primaryKey.map { "\"s\".\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        // A table without a key takes every row as new (`load --mode append`).
        let selection = table.primaryKey.isEmpty
            ? "SELECT \(rows.select) FROM \(staging) AS \"s\" \(rows.joins) ORDER BY \"s\".\"_socload_order\""
            : "SELECT DISTINCT ON (\(sourceKey)) \(rows.select) FROM \(staging) AS \"s\" \(rows.joins) "
                + "ORDER BY \(sourceKey), \"s\".\"_socload_order\" DESC ON CONFLICT (\(keyList)) DO \(action)"
        let inserted = try transaction.value("""
            WITH upserted AS (
              INSERT INTO \(transaction.qualified(table.name)) (\(PostgreSQLTableWriter.quotedList(stored)))
              \(selection)
              RETURNING (xmax = 0) AS inserted)
            SELECT count(*) FILTER (WHERE inserted) FROM upserted
            """)
        return Int(inserted ?? "0") ?? 0
    }

    /// Counts the lookups again, prunes them, and makes their triggers again.
    func finish() throws {
        try transaction.dropStaging(staging, for: table)
        try PostgreSQLLookups(transaction: transaction, table: table).finishRows()
    }

    /// The largest value, as the SQLite destination stores it: a fixed timestamp as ISO-8601 UTC.
    func largestValue(of column: String) throws -> String? {
        guard let planColumn = table.column(named: column) else { return nil }
        let name = planColumn.name.quotedDatabaseIdentifier
        let target = transaction.qualified(table.name)
        if planColumn.type == .timestamp {
            guard let seconds = try transaction.value("SELECT extract(epoch FROM max(\(name)))::text FROM \(target)"),
                  let value = Double(seconds) else { return nil }
            return ISO8601Timestamp.format(Date(timeIntervalSince1970: value))
        }
        return try transaction.value("SELECT max(\(name))::text FROM \(target)")
    }

    func addIndex(_ index: PlanIndex) throws {
        try transaction.execute("CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(index.name.quotedDatabaseIdentifier) "
                                + "ON \(transaction.qualified(table.name)) (\(PostgreSQLTableWriter.quotedList(index.columns)))")
    }

    func rowCount() throws -> Int {
        Int(try transaction.value("SELECT count(*) FROM \(transaction.qualified(table.name))") ?? "0") ?? 0
    }

    func beginKeySet() throws {
        try transaction.execute(keySet.dropStatement)
        try transaction.execute(keySet.createStatement)
        keyEncoder = PostgreSQLCopyEncoder(table: PlanTable(name: keySet.keysTable, columns: keySet.keyColumns), geometries: [])
    }

    func addKeys(_ batch: RowBatch) throws {
        guard batch.rowCount > 0 else { return }
        guard var encoder = keyEncoder else { throw LoadError.unsupported("keys added before the key set began") }
        let buffer = CopyBuffer(capacity: batch.arena.count + batch.values.count * 12 + 64)
        if try transaction.openBinaryCopy(into: keySet.keysTable.quotedDatabaseIdentifier, columns: keySet.keyColumns.map { $0.name }) {
            buffer.write(PostgreSQLCopyEncoder.header)
        }
        try encoder.encode(batch, into: buffer)
        keyEncoder = encoder
        try transaction.connection.sendCopyData(buffer.bytes)
        try transaction.pauseCopy()
    }

    func countRowsOutsideKeySet() throws -> Int {
        try transaction.execute(keySet.indexStatement)
        try transaction.execute("ANALYZE \(keySet.keysTable.quotedDatabaseIdentifier)")
        return Int(try transaction.value(keySet.countStatement) ?? "0") ?? 0
    }

    func deleteRowsOutsideKeySet() throws -> Int {
        let deleted = try transaction.value("WITH gone AS (\(keySet.deleteStatement) RETURNING 1) SELECT count(*) FROM gone")
        try transaction.execute(keySet.dropStatement)
        keyEncoder = nil
        return Int(deleted ?? "0") ?? 0
    }
}
