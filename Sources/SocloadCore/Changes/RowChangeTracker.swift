/// Counts, and logs, what one load of a table changed against the copy it replaces.
///
/// The load's writer is wrapped (`writer(wrapping:)`) so each batch's fingerprints go to a new
/// fingerprint table as the rows go in; the destination's writer calls `compare` once the new
/// copy is complete and the old one still exists. Then the counts are made set-based from the
/// two fingerprint tables, the change log gets the rows that differ (the last refreshes' kept),
/// and the new fingerprints become the table's (a refresh that changed no row keeps the kept ones
/// as they are). All of it inside the load's transaction.
public final class RowChangeTracker: PreviousCopyComparing, RowChangeCounting {
    private let sql: any SQLExecuting
    private let table: PlanTable
    private let previous: PlanTable?
    private let refreshedAt: String
    private let keptRefreshes: Int
    private let keepsHistory: Bool
    private let names: (kept: String, new: String)
    /// True when the new fingerprints go straight into the kept table (none was kept before).
    private let writesKeptDirectly: Bool
    private let fingerprinter: RowFingerprinter
    private let fingerprintWriter: any TableWriter
    /// What `compare` found; nil before it ran, or when there was nothing to compare with (a
    /// first load, a previous copy of another key, one from a socload that kept no fingerprints).
    public private(set) var counts: RowChangeCounts?

    /// Starts the new fingerprint table. `previous` is the plan table of the copy this replaces.
    /// With `keepsHistory`, `T_history` gets the versions this load made (`HistorySQL`).
    public init(sql: any SQLExecuting, table: PlanTable, previous: PlanTable?, refreshedAt: String,
                keptRefreshes: Int = RowChangeLog.defaultKeptRefreshes, keepsHistory: Bool = false) throws {
        self.sql = sql
        self.keepsHistory = keepsHistory
        self.table = table
        self.previous = previous
        self.refreshedAt = refreshedAt
        self.keptRefreshes = keptRefreshes
        names = RowChangeSQL.fingerprintTables(of: table.name, dialect: sql.dialect)
        fingerprinter = RowFingerprinter(table: table)
        // With no fingerprints kept yet (a first load), the new ones are written where they are
        // kept: nothing to compare them with, nothing to move after.
        writesKeptDirectly = try !sql.tableExists(names.kept)
        // The new ones are scratch until they replace the kept ones, after the comparison.
        fingerprintWriter = writesKeptDirectly ? try sql.appendWriter(for: RowChangeSQL.fingerprintTable(named: names.kept, for: table))
            : try sql.scratchWriter(for: RowChangeSQL.fingerprintTable(named: names.new, for: table))
    }

    /// `base`, writing each batch's fingerprints too.
    public func writer(wrapping base: any TableWriter) -> any TableWriter {
        FingerprintingTableWriter(base: base, tracker: self)
    }

    private var rowsFingerprinted = 0

    func addFingerprints(of batch: RowBatch) throws {
        guard batch.rowCount > 0 else { return }
        try fingerprintWriter.insert(fingerprinter.fingerprints(of: batch, firstOrdinal: rowsFingerprinted + 1))
        rowsFingerprinted += batch.rowCount
    }

    /// The previous copy's key, when it is the same key (columns of the same types, in order).
    private var comparableOldKey: [String]? {
        guard let previous else { return nil }
        let new = table.primaryKey.map { table.column(named: $0)?.type }
        let old = previous.primaryKey.map { previous.column(named: $0)?.type }
        return new == old && table.primaryKey.map { $0.lowercased() } == previous.primaryKey.map { $0.lowercased() }
            ? previous.primaryKey : nil
    }

    /// False when there is a previous copy whose rows cannot be compared with the new ones by
    /// key (its key is other columns, or the same columns of other types): nothing is counted
    /// or logged then, and the history closes every version and begins a new one for each row.
    public var comparesRows: Bool { previous == nil || comparableOldKey != nil }

    /// The change log needs the old rows; with `--keep-changes 0` only the counts are made.
    public var needsPreviousCopy: Bool { keptRefreshes > 0 }

    public func compare(newTable: String, oldTable: String?) throws {
        let dialect = sql.dialect
        _ = try fingerprintWriter.finish(strict: false)
        let statements = RowChangeSQL(dialect: dialect, newKey: table.primaryKey, oldKey: comparableOldKey ?? [],
                                      newFingerprints: writesKeptDirectly ? names.kept : names.new, oldFingerprints: names.kept)
        try sql.execute(statements.preparationStatement(indexName: "_socload_fingerprint_key_" + Self.uniqueSuffix()), [])
        if !writesKeptDirectly, let previous, let oldKey = comparableOldKey, try sql.tableExists(names.kept) {
            counts = try count(statements)
            StepPause.at("row-counts")
            // The log needs the old rows; a destination that could not keep them logs nothing.
            if let counts, let oldTable, counts.reissued == nil, !oldKey.isEmpty, counts.added + counts.removed + counts.changed > 0 {
                let log = RowChangeLog(dialect: dialect)
                try sql.execute(log.createStatement, [])
                for statement in statements.logStatements(newTable: newTable, newColumns: table.storedColumns.map(\.name),
                                                          oldTable: oldTable, oldColumns: previous.storedColumns.map(\.name),
                                                          renamed: table.renamedColumns(since: previous),
                                                          distributed: table.distributionColumn != nil,
                                                          types: Dictionary(previous.storedColumns.map { ($0.name, $0.type) }
                                                                            + table.storedColumns.map { ($0.name, $0.type) },
                                                                            uniquingKeysWith: { _, new in new })) {
                    try sql.execute(statement, [.text(table.name), .text(refreshedAt)])
                }
            }
        }
        StepPause.at("change-log")
        if keepsHistory { try writeHistory(statements, newTable: newTable) }
        StepPause.at("history")
        if try sql.tableExists(RowChangeLog.tableName) {
            try sql.execute(RowChangeLog(dialect: dialect).pruneStatement(keeping: keptRefreshes), [.text(table.name), .text(table.name)])
        }
        if !writesKeptDirectly {
            if let counts, counts.reissued == nil, counts.added + counts.removed + counts.changed == 0 {
                // Nothing changed: the kept fingerprints are the new copy's already (not after a
                // re-issue, which changed every key).
                try sql.dropTable(names.new)
            } else {
                try sql.dropTable(names.kept)
                try sql.renameTable(names.new, to: names.kept)
            }
        }
        StepPause.at("fingerprints")
    }

    /// A first version of every row when the history is new; else the versions this refresh
    /// closed and made (nothing when it changed nothing).
    private func writeHistory(_ statements: RowChangeSQL, newTable: String) throws {
        let history = HistorySQL(dialect: sql.dialect, table: table)
        guard try sql.tableExists(history.name) else {
            for statement in history.createStatements { try sql.execute(statement, []) }
            try sql.execute(history.insertAllStatement(from: newTable), [.text(refreshedAt)])
            return
        }
        let recopied = !comparesRows
        guard recopied || (counts.map { $0.added + $0.changed + $0.removed + ($0.reissued ?? 0) > 0 } ?? false) else { return }
        let existing = Set(try sql.columnNames(of: history.name).map { sql.dialect.namesIgnoreCase ? $0.lowercased() : $0 })
        for statement in history.addColumnStatements(missingFrom: existing) + history.retypeStatements(from: previous) {
            try sql.execute(statement, [])
        }
        if recopied {
            // No row can be followed from the previous copy: each version ends, each row begins one.
            try sql.execute(history.closeAllStatement, [.text(refreshedAt)])
            try sql.execute(history.insertAllStatement(from: newTable), [.text(refreshedAt)])
            return
        }
        try sql.execute(history.closeStatement(keys: statements.closedKeys), [.text(refreshedAt)])
        try sql.execute(history.insertVersionsStatement(rows: statements.newVersions(in: newTable)), [.text(refreshedAt)])
    }

    private func count(_ statements: RowChangeSQL) throws -> RowChangeCounts? {
        guard let row = try sql.rows(statements.countStatement, []).first, row.count == 4 else { return nil }
        let numbers = row.map { $0.flatMap { Int($0) } ?? 0 }
        let (newRows, oldRows, matched, unchanged) = (numbers[0], numbers[1], numbers[2], numbers[3])
        var contentMatches = 0
        let added = newRows - matched
        if !statements.newKey.isEmpty, added > 0, Double(added) >= RowChangeCounts.reissueShare * Double(newRows) {
            contentMatches = try sql.rows(statements.contentMatchStatement, []).first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
        }
        return RowChangeCounts.from(newRows: newRows, oldRows: oldRows, matched: matched, unchanged: unchanged,
                                    contentMatches: contentMatches)
    }

    /// 16 hex digits, so an index name never meets one a kept fingerprint table still has.
    static func uniqueSuffix() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }
}
