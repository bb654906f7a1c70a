/// A refresh that writes only what changed into the table as it is, instead of a whole new
/// copy: each batch's rows are fingerprinted and compared with the kept fingerprints as they
/// arrive (`SyncChangeTracker`), the added and changed ones upserted, and at the end the rows
/// the source no longer has deleted; rows as they were are never written. All in the load's
/// one transaction, so readers see the table as it was until the commit.
///
/// Taken by a refresh (not `--force`, which writes a new copy) of a SQLite table whose shape is
/// the one of its last load, with a key, no lookups, child tables, full-text index, geometry,
/// history or triggers, and whose kept fingerprints are one per row of the table. When the first
/// rows show that more than a fifth changed (a re-issued dataset, a new export), it writes a
/// new copy after all (`fullCopy`), as a refresh always did.
public final class InPlaceRefresh: TableWriter, RowChangeCounting {
    /// The share of the first rows that, changed, makes a new copy cheaper than writing in place.
    public static let largestChangedShare = 0.2
    /// Rows gathered before they are compared (each comparison costs a few statements).
    static let gatheredRows = 4_096, gatheredBytes = 1 << 20

    private let table: PlanTable
    private let tracker: SyncChangeTracker
    private let upserter: any RowUpserter
    private let sql: any SQLExecuting
    private var fullCopy: (() throws -> (writer: any TableWriter, tracker: RowChangeTracker))?
    /// The new copy's writer and tracker, once the first rows asked for one.
    private var copy: (writer: any TableWriter, tracker: RowChangeTracker)?
    private var gathered: RowBatch?
    /// Every row's key hash, in the source's order (a row's place is its number in the new copy
    /// a refresh writes otherwise, as a duplicate key is named).
    private var keyHashes: [Int64] = []

    public var counts: RowChangeCounts? { copy.map { $0.tracker.counts } ?? tracker.counts }

    /// nil when the table cannot be refreshed in place (then a new copy is written).
    public init?(table: PlanTable, previous: LoadPlan, plan: LoadPlan, sql: any SQLExecuting, upserter: () throws -> any RowUpserter,
                 refreshedAt: String, keptRefreshes: Int,
                 fullCopy: @escaping () throws -> (writer: any TableWriter, tracker: RowChangeTracker)) throws {
        guard sql.dialect.joinsThroughIndexes, plan.tables.count == 1, previous.tables.count == 1, previous.mainTable == table,
              !table.primaryKey.isEmpty, table.lookups.isEmpty, table.fullText == nil, table.geometryColumn == nil,
              table.distributionColumn == nil, table.foreignKeys.isEmpty, previous.options?.keepsHistory != true,
              try Self.fingerprintsAreTheTables(table, sql: sql),
              let tracker = try SyncChangeTracker(sql: sql, table: table, refreshedAt: refreshedAt, keptRefreshes: keptRefreshes)
        else { return nil }
        self.table = table
        self.tracker = tracker
        self.sql = sql
        self.upserter = try upserter()
        self.fullCopy = fullCopy
    }

    /// One kept fingerprint per row of the table, and no trigger on it: no row deleted or added
    /// by hand that a refresh in place would leave so. (A value edited by hand is not seen: the
    /// fingerprints say what socload loaded, and `--force` writes every row.)
    private static func fingerprintsAreTheTables(_ table: PlanTable, sql: any SQLExecuting) throws -> Bool {
        let kept = RowChangeSQL.fingerprintTables(of: table.name, dialect: sql.dialect).kept
        guard try sql.tableExists(kept) else { return false }
        let counts = try sql.rows("SELECT (SELECT count(*) FROM \(sql.dialect.table(table.name))), count(*), count(DISTINCT \"kh\"), "
                                  + "(SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = \(sql.dialect.placeholder(1)) "
                                  + "COLLATE NOCASE) FROM \(sql.dialect.table(kept))", [.text(table.name)]).first ?? []
        let numbers = counts.map { $0.flatMap { Int($0) } }
        // As many rows as fingerprints (probing every key would cost a refresh of a million
        // rows a third of its time; a row deleted and another added by hand go unseen).
        return numbers.count == 4 && numbers[0] == numbers[1] && numbers[1] == numbers[2] && numbers[3] == 0
    }

    public func insert(_ batch: RowBatch) throws {
        if let copy { return try copy.writer.insert(batch) }
        if gathered == nil { gathered = batch } else { gathered?.append(batch) }
        if let full = gathered, full.rowCount >= Self.gatheredRows || full.arena.count >= Self.gatheredBytes { try flush() }
    }

    private func flush() throws {
        guard let batch = gathered else { return }
        gathered = nil
        if let copy { return try copy.writer.insert(batch) }
        let (changed, hashes) = try tracker.changedRows(of: batch)
        if let makeCopy = fullCopy {
            fullCopy = nil
            if Double(changed.count) > Self.largestChangedShare * Double(batch.rowCount) {
                try tracker.discard()
                let made = try makeCopy()
                copy = made
                return try made.writer.insert(batch)
            }
        }
        keyHashes += hashes
        if !changed.isEmpty { _ = try upserter.upsert(batch.selecting(rows: changed)) }
    }

    public func finish(strict: Bool) throws -> [String] {
        try flush()
        if let copy { return try copy.writer.finish(strict: strict) }
        var sorted = keyHashes
        sorted.sort()
        if let twice = zip(sorted, sorted.dropFirst()).first(where: { $0.0 == $0.1 })?.0 {
            let rows = keyHashes.indices.filter { keyHashes[$0] == twice }.prefix(2).map { $0 + 1 }
            throw table.duplicateKeyError(values: try tracker.keyValues(ofKeyHash: twice), rows: rows)
        }
        keyHashes = []
        _ = try tracker.removeRows(notAmong: sorted)
        // The copy the last new copy replaced, kept until this refresh: nothing reads it now.
        try sql.dropTable(RowChangeSQL.previousCopy(of: table.name))
        try upserter.finish()
        try tracker.finish()
        StepPause.at("fingerprints") // as a new copy's: the kept fingerprints are the new ones
        return []
    }
}
