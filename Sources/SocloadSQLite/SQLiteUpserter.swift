import SocloadCore
import SocloadDatabase

/// Inserts or updates rows by the table's key: `INSERT ... ON CONFLICT (key) DO UPDATE`; a table
/// without a key only takes new rows (`load --mode append`). A table with lookups takes each
/// batch through a staging table: its new values go to the lookups, then its rows, joined to
/// them, into the table; the counts are made again at the end.
final class SQLiteUpserter: RowUpserter {
    private let db: Database
    private let table: PlanTable
    private let upsertStatement: Statement
    /// Whether a row's key is in the table already, asked before its upsert where the upsert
    /// cannot tell (nil: the table has no key, or the last inserted rowid tells).
    private let existsStatement: Statement?
    /// Whether a new key is known from the last inserted rowid: set to `noInsert` before each
    /// row's upsert, it changes only if the row was inserted (an update leaves it). True unless
    /// the rows give the rowid themselves (an INTEGER PRIMARY KEY among their columns), which
    /// could be any value.
    private let insertsShowInRowID: Bool
    private static let noInsert = Int64.min
    private let keyColumns: [Int]
    private let lookups: SQLiteLookups
    /// `sync --deletes`: the keys the portal still has, and the statement that adds them.
    private lazy var keySet = KeySetWriting(dialect: SQLiteDialect(), table: table, keysTable: "_socload_keys")
    private var keyInsert: Statement?
    /// A GeoPackage's geometry, written with the rows (when the table has its column).
    private let geometry: SQLiteGeometryBinder?
    /// The table's GeoPackage layout, whose spatial index is built again at the end.
    private let geoPackage: GeoPackageTable?

    init(db: Database, table: PlanTable, geoPackage: GeoPackageTable? = nil) throws {
        self.db = db
        self.table = table
        lookups = SQLiteLookups(db: db, table: table)
        let quotedTable = table.name.quotedDatabaseIdentifier
        let existing = Set(try db.fetchAll(String.self, sql: "SELECT lower(name) FROM pragma_table_info(?)", arguments: [table.name]))
        geometry = SQLiteGeometryBinder.binder(for: geoPackage).flatMap { existing.contains($0.place.name.lowercased()) ? $0 : nil }
        self.geoPackage = geometry == nil ? nil : geoPackage
        if let geoPackage = self.geoPackage {
            // GeoPackage 1.3's RTree triggers insert OR REPLACE, which an upsert's own ON CONFLICT
            // overrides (the update of a row that has a geometry would fail): the index is built
            // again from the table in `finish()`.
            for trigger in geoPackage.triggerNames { try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger.quotedDatabaseIdentifier)") }
        }
        let geometryName = geometry.map { [$0.place.name] } ?? []
        let names = (table.columns.map(\.name) + geometryName).map(\.quotedDatabaseIdentifier)
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let key = Set(table.primaryKey)
        let updates = (table.storedColumns.map(\.name) + geometryName).filter { !key.contains($0) }.map {
            "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)"
        }
        let keyList = SQLiteTableWriter.quotedList(table.primaryKey)
        let conflict = table.primaryKey.isEmpty ? ""
            : "ON CONFLICT(\(keyList)) DO \(updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", "))"
        if table.lookups.isEmpty {
            upsertStatement = try db.makeStatement(sql: """
                INSERT INTO \(quotedTable) (\(names.joined(separator: ", "))) VALUES (\(placeholders)) \(conflict)
                """)
        } else {
            try lookups.dropTriggers()
            try db.execute(sql: "DROP TABLE IF EXISTS \(SQLiteTableWriter.stagingTable)")
            try db.execute(sql: "CREATE TEMP TABLE \"_socload_rows\" (" + (table.columns.map {
                "\($0.name.quotedDatabaseIdentifier) \(SQLiteTypes.declaredType($0.type))"
            } + geometryName.map { "\($0.quotedDatabaseIdentifier) BLOB" }).joined(separator: ", ") + ")")
            upsertStatement = try db.makeStatement(sql: """
                INSERT INTO \(SQLiteTableWriter.stagingTable) (\(names.joined(separator: ", "))) VALUES (\(placeholders))
                """)
        }
        let integerKeys = try db.fetchAll(String.self, sql: "SELECT lower(name) FROM pragma_table_info(?) WHERE pk > 0 AND upper(type) = 'INTEGER'",
                                          arguments: [table.name])
        let rowIDGiven = integerKeys.count == 1 && table.columns.contains { $0.name.lowercased() == integerKeys[0] }
        insertsShowInRowID = !rowIDGiven
        let matches = table.primaryKey.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        existsStatement = table.primaryKey.isEmpty || insertsShowInRowID ? nil
            : try db.makeStatement(sql: "SELECT 1 FROM \(quotedTable) WHERE \(matches)")
        keyColumns = table.primaryKey.compactMap { name in table.columns.firstIndex { $0.name == name } }
    }

    func upsert(_ batch: RowBatch) throws -> Int {
        guard table.lookups.isEmpty else { return try upsertThroughLookups(batch) }
        guard !table.primaryKey.isEmpty else {
            try SQLiteBatchBinder.run(upsertStatement, over: batch, geometry: geometry)
            return batch.rowCount
        }
        var inserted = 0
        guard let existsStatement else {
            let db = db
            db.lastInsertedRowID = Self.noInsert
            try SQLiteBatchBinder.run(upsertStatement, over: batch, geometry: geometry) { _ in
                if db.lastInsertedRowID != Self.noInsert {
                    inserted += 1
                    db.lastInsertedRowID = Self.noInsert
                }
            }
            return inserted
        }
        let keyColumns = keyColumns
        try SQLiteBatchBinder.runEachRow(upsertStatement, of: batch) { row, arena in
            existsStatement.reset()
            for (parameter, column) in keyColumns.enumerated() {
                try SQLiteBatchBinder.bind(batch.values[row * batch.columnCount + column], of: batch, arena: arena,
                                           at: Int32(parameter + 1), to: existsStatement)
            }
            if try !existsStatement.step() { inserted += 1 }
            existsStatement.reset()
            existsStatement.clearBindings() // it pointed into the arena
            upsertStatement.reset()
            try SQLiteBatchBinder.bind(batch, row: row, arena: arena, to: upsertStatement)
            try geometry?.bind(row: row, of: batch, arena: arena, at: Int32(batch.columnCount + 1), to: upsertStatement)
        }
        return inserted
    }

    private func upsertThroughLookups(_ batch: RowBatch) throws -> Int {
        let staging = SQLiteTableWriter.stagingTable
        let quotedTable = table.name.quotedDatabaseIdentifier
        try SQLiteBatchBinder.run(upsertStatement, over: batch, geometry: geometry)
        let keyList = SQLiteTableWriter.quotedList(table.primaryKey)
        let matches = table.primaryKey.map { "\"t\".\($0.quotedDatabaseIdentifier) = \"k\".\($0.quotedDatabaseIdentifier)" }
            .joined(separator: " AND ")
        let inserted = table.primaryKey.isEmpty ? .integer(Int64(batch.rowCount)) : try db.fetchValue(sql: """
            SELECT count(*) FROM (SELECT DISTINCT \(keyList) FROM \(staging)) AS "k"
            WHERE NOT EXISTS (SELECT 1 FROM \(quotedTable) AS "t" WHERE \(matches))
            """)
        let staged = Set(table.columns.map { $0.name.lowercased() })
        try lookups.addMissingValues(from: staging, columns: staged)
        let rows = lookups.writing.storedRows(table.storedColumns.map(\.name), relationColumns: staged)
        let geometryName = geometry.map { [$0.place.name] } ?? []
        let key = Set(table.primaryKey)
        let updates = (table.storedColumns.map(\.name) + geometryName).filter { !key.contains($0) }.map {
            "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)"
        }
        let select = rows.select + geometryName.map { ", \"s\".\($0.quotedDatabaseIdentifier)" }.joined()
        // WHERE true: SQLite reads an ON after a join as the join's unless the SELECT has a WHERE.
        try db.execute(sql: """
            INSERT INTO \(quotedTable) (\(SQLiteTableWriter.quotedList(table.storedColumns.map(\.name) + geometryName)))
            SELECT \(select) FROM \(staging) AS "s" \(rows.joins) WHERE true ORDER BY "s".rowid
            \(table.primaryKey.isEmpty ? ""
                : "ON CONFLICT(\(keyList)) DO \(updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", "))")
            """)
        try db.execute(sql: "DELETE FROM \(staging)")
        if case .integer(let count)? = inserted { return Int(count) }
        return 0
    }

    /// Counts the lookups again, prunes them, and makes their triggers again; builds a
    /// GeoPackage's spatial index again.
    func finish() throws {
        if let geoPackage { try GeoPackageFile.register(geoPackage, db: db) }
        guard !table.lookups.isEmpty else { return }
        try db.execute(sql: "DROP TABLE IF EXISTS \(SQLiteTableWriter.stagingTable)")
        try lookups.finishRows()
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

    var keySetTable: String? { keyInsert == nil ? nil : keySet.keysTable }

    func beginKeySet() throws {
        try db.execute(sql: keySet.dropStatement)
        try db.execute(sql: keySet.createStatement)
        let columns = keySet.keyColumns.map(\.name.quotedDatabaseIdentifier)
        keyInsert = try db.makeStatement(sql: "INSERT INTO temp.\"_socload_keys\" (\(columns.joined(separator: ", "))) "
                                          + "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
    }

    func addKeys(_ batch: RowBatch) throws {
        guard let keyInsert else { throw LoadError.unsupported("keys added before the key set began") }
        try SQLiteBatchBinder.run(keyInsert, over: batch)
    }

    func countRowsOutsideKeySet() throws -> Int {
        try db.execute(sql: keySet.indexStatement)
        let value = try db.fetchValue(sql: keySet.countStatement)
        if case .integer(let count)? = value { return Int(count) }
        return 0
    }

    func deleteRowsOutsideKeySet() throws -> Int {
        try db.execute(sql: keySet.deleteStatement)
        let deleted = db.changesCount
        keyInsert = nil
        try db.execute(sql: keySet.dropStatement)
        return deleted
    }
}
