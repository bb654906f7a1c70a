/// Counts and logs what a sync changed: the rows it upserted that were new, changed or the
/// same, and the rows `--deletes` removed; keeps the table's fingerprints right for the next
/// refresh. Made only for a table whose fingerprints are kept (`RowChangeTracker` made them).
public final class SyncChangeTracker: RowChangeCounting {
    private let sql: any SQLExecuting
    private let table: PlanTable
    private let refreshedAt: String
    private let keptRefreshes: Int
    private let history: HistorySQL?
    private let statements: SyncChangeSQL
    private let fingerprinter: RowFingerprinter
    private let batchWriter: any TableWriter
    private var rowsFingerprinted = 0
    private var removed = 0
    public private(set) var counts: RowChangeCounts?

    /// nil when the table has no key or no kept fingerprints (loaded before socload kept them).
    /// With `keepsHistory`, `T_history` gets the versions the sync made (made first from the
    /// table as it is, if it has none yet).
    public init?(sql: any SQLExecuting, table: PlanTable, refreshedAt: String, keptRefreshes: Int,
                 keepsHistory: Bool = false) throws {
        let names = RowChangeSQL.fingerprintTables(of: table.name, dialect: sql.dialect)
        guard !table.primaryKey.isEmpty, try sql.tableExists(names.kept) else { return nil }
        self.sql = sql
        self.table = table
        self.refreshedAt = refreshedAt
        self.keptRefreshes = keptRefreshes
        let dialect = sql.dialect
        statements = SyncChangeSQL(dialect: dialect, table: table, kept: names.kept, synced: names.new,
                                   batch: dialect.kept("_socload_fingerprints_batch_" + table.name),
                                   delta: dialect.kept("_socload_fingerprints_delta_" + table.name),
                                   oldRows: dialect.kept("_socload_old_rows_" + table.name))
        fingerprinter = RowFingerprinter(table: table)
        _ = try sql.appendWriter(for: RowChangeSQL.fingerprintTable(named: statements.synced, for: table))
        batchWriter = try sql.appendWriter(for: RowChangeSQL.fingerprintTable(named: statements.batch, for: table))
        _ = try sql.appendWriter(for: RowChangeSQL.fingerprintTable(named: statements.delta, for: table))
        try sql.dropTable(statements.oldRows)
        try sql.execute(statements.createOldRowsStatement, [])
        if keptRefreshes > 0 { try sql.execute(RowChangeLog(dialect: dialect).createStatement, []) }
        history = keepsHistory ? HistorySQL(dialect: dialect, table: table) : nil
        if let history, try !sql.tableExists(history.name) {
            for statement in history.createStatements { try sql.execute(statement, []) }
            try sql.execute(history.insertAllStatement(from: dialect.table(table.name)), [.text(refreshedAt)])
        } else if let history {
            let existing = Set(try sql.columnNames(of: history.name).map { dialect.namesIgnoreCase ? $0.lowercased() : $0 })
            for statement in history.addColumnStatements(missingFrom: existing) { try sql.execute(statement, []) }
        }
    }

    /// `base`, fingerprinting each batch and keeping its changed rows' old values first.
    public func upserter(wrapping base: any RowUpserter) -> any RowUpserter {
        FingerprintingUpserter(base: base, tracker: self)
    }

    func beforeUpsert(_ batch: RowBatch) throws {
        guard try compare(batch) != nil else { return }
        for statement in statements.appendBatchStatements { try sql.execute(statement, []) }
    }

    /// Fingerprints a batch before its upsert, keeps the old values of its changed rows, and
    /// returns which of its rows (by place in the batch) are added or changed, and every row's
    /// key hash, in the batch's order.
    func changedRows(of batch: RowBatch) throws -> (changed: [Int], keyHashes: [Int64]) {
        guard let (fingerprints, firstOrdinal) = try compare(batch) else { return ([], []) }
        let changed = try sql.rows("SELECT \"r\" FROM \(sql.dialect.table(statements.delta)) ORDER BY \"r\"", []).compactMap { row in
            row.first.flatMap { $0.flatMap { Int($0) } }.map { $0 - firstOrdinal }
        }
        for statement in statements.appendBatchStatements { try sql.execute(statement, []) }
        let width = fingerprints.columnCount
        let keyHashes = (0..<batch.rowCount).map { row -> Int64 in
            if case .integer(let hash) = fingerprints.values[row * width] { return hash }
            return 0
        }
        return (changed, keyHashes)
    }

    /// The batch's fingerprints written, its added and changed ones in the delta table, the old
    /// values of its changed rows kept; the fingerprints and the batch's first ordinal (nil: an
    /// empty batch). The delta is appended to the sync's by `appendBatchStatements` after.
    private func compare(_ batch: RowBatch) throws -> (fingerprints: RowBatch, firstOrdinal: Int)? {
        guard batch.rowCount > 0 else { return nil }
        let firstOrdinal = rowsFingerprinted + 1
        let fingerprints = fingerprinter.fingerprints(of: batch, firstOrdinal: firstOrdinal)
        try batchWriter.insert(fingerprints)
        rowsFingerprinted += batch.rowCount
        _ = try batchWriter.finish(strict: false)
        // PostgreSQL plans the join with the kept fingerprints by the batch's statistics: without
        // them it reads every kept fingerprint for every batch (26 s for a 200,000-row upsert).
        let analyzes = !sql.dialect.joinsThroughIndexes
        if analyzes { try sql.execute("ANALYZE \(sql.dialect.table(statements.batch))", []) }
        try sql.execute(statements.batchDeltaStatement, [])
        if keptRefreshes > 0 {
            if analyzes { try sql.execute("ANALYZE \(sql.dialect.table(statements.delta))", []) }
            try sql.execute(statements.captureOldRowsStatement, [])
        }
        return (fingerprints, firstOrdinal)
    }

    /// Removes the rows whose key hash is not among `seen` (a refresh in place: the rows the
    /// source no longer has), logging them as removed; returns how many went. The hashes go
    /// to a temporary table in slices, so memory holds no copy of them.
    func removeRows(notAmong seen: [Int64]) throws -> Int {
        let seenTable = PlanTable(name: "_socload_seen_keys", columns: statements.goneTable.columns, primaryKey: [])
        let seenWriter = try sql.scratchWriter(for: seenTable)
        for start in stride(from: 0, to: seen.count, by: 65_536) {
            var slice = RowBatch(columnCount: 1, firstRowNumber: start + 1, expectedRows: 0)
            slice.values = seen[start..<min(seen.count, start + 65_536)].map { .integer($0) }
            try seenWriter.insert(slice)
        }
        _ = try seenWriter.finish(strict: false)
        _ = try sql.scratchWriter(for: statements.goneTable)
        try sql.execute("INSERT INTO \(statements.gone.quotedDatabaseIdentifier) (\"kh\") SELECT \"kh\" FROM \(sql.dialect.table(statements.kept)) "
                        + "WHERE \"kh\" NOT IN (SELECT \"kh\" FROM \(seenTable.name.quotedDatabaseIdentifier))", [])
        try sql.dropTable(seenTable.name)
        let deleted = try sql.rows("SELECT count(*) FROM \(statements.gone.quotedDatabaseIdentifier)", []).first?.first?.flatMap { Int($0) } ?? 0
        if deleted > 0 {
            if keptRefreshes > 0 { try sql.execute(statements.logGoneStatement, [.text(table.name), .text(refreshedAt)]) }
            try sql.execute(statements.deleteGoneStatement, [])
            try sql.execute(statements.forgetGoneStatement, [])
        }
        try sql.dropTable(statements.gone)
        removed += deleted
        return deleted
    }

    /// Drops what the tracker made, having changed nothing else (a refresh that writes a new
    /// copy after all).
    func discard() throws {
        for name in [statements.synced, statements.batch, statements.delta, statements.oldRows] {
            try sql.dropTable(name)
        }
    }

    /// The key's values (as text) of a key hash met in this refresh, or of a kept one.
    func keyValues(ofKeyHash hash: Int64) throws -> [String?] {
        for name in [statements.synced, statements.kept] {
            let columns = (1...table.primaryKey.count).map { "\"k\($0)\"" }.joined(separator: ", ")
            if let row = try sql.rows("SELECT \(columns) FROM \(sql.dialect.table(name)) WHERE \"kh\" = \(hash)", []).first {
                return row
            }
        }
        return []
    }

    func beforeDeleting(keysTable: String?) throws {
        guard let keysTable else { return }
        if keptRefreshes > 0 {
            try sql.execute(statements.logRemovedStatement(keysTable: keysTable), [.text(table.name), .text(refreshedAt)])
        }
        if let history {
            try sql.execute(history.closeStatement(keys: statements.deletedKeys(keysTable: keysTable)), [.text(refreshedAt)])
        }
    }

    func afterDeleting(_ deleted: Int) throws {
        removed += deleted
        try sql.execute(statements.forgetDeletedStatement, [])
    }

    /// After the last batch: the counts, the log, the kept fingerprints merged; the sync's own
    /// tables dropped.
    func finish() throws {
        let dialect = sql.dialect
        if !dialect.joinsThroughIndexes { try sql.execute("ANALYZE \(dialect.table(statements.synced))", []) }
        if let row = try sql.rows(statements.countStatement, []).first, row.count == 3 {
            let numbers = row.map { $0.flatMap { Int($0) } ?? 0 }
            // The sync's fingerprints hold only the rows that were not upserted as they were.
            counts = RowChangeCounts(added: numbers[0] - numbers[1], changed: numbers[1] - numbers[2], removed: removed,
                                     unchanged: max(0, rowsFingerprinted - numbers[0] + numbers[2]))
        }
        if keptRefreshes > 0 {
            for statement in statements.logStatements { try sql.execute(statement, [.text(table.name), .text(refreshedAt)]) }
            try sql.execute(RowChangeLog(dialect: dialect).pruneStatement(keeping: keptRefreshes), [.text(table.name), .text(table.name)])
        }
        StepPause.at("sync-log")
        if let history, let counts, counts.added + counts.changed > 0 {
            try sql.execute(history.closeStatement(keys: statements.changedKeys), [.text(refreshedAt)])
            try sql.execute(history.insertVersionsStatement(rows: statements.newVersions), [.text(refreshedAt)])
        }
        StepPause.at("sync-history")
        for statement in statements.mergeStatements { try sql.execute(statement, []) }
        StepPause.at("sync-fingerprints")
        for name in [statements.synced, statements.batch, statements.delta, statements.oldRows] {
            try sql.dropTable(name)
        }
    }
}
