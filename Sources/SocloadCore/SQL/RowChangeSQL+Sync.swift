/// The statements a sync counts and logs its row changes with: it upserts only some rows, so
/// its fingerprints (`N`) are compared with the kept ones (`O`) for those rows only, each batch's
/// old rows are kept (`C`) before the upsert overwrites them, and `N` is merged into `O` at the
/// end. Every table named is socload's own; the data table is read by its key.
public struct SyncChangeSQL {
    public let dialect: any SQLDialect
    public let table: PlanTable
    /// Fingerprint tables: kept, the sync's added and changed rows, one batch's rows and its
    /// added and changed ones; the changed rows' old values; the key hashes of rows a refresh in
    /// place removes (a temporary table, unqualified).
    public let kept: String, synced: String, batch: String, delta: String, oldRows: String, gone: String

    public init(dialect: any SQLDialect, table: PlanTable, kept: String, synced: String, batch: String, delta: String, oldRows: String,
                gone: String = "_socload_gone_keys") {
        self.dialect = dialect
        self.table = table
        self.kept = kept
        self.synced = synced
        self.batch = batch
        self.delta = delta
        self.oldRows = oldRows
        self.gone = gone
    }

    /// The table of key hashes a refresh in place removes (`kh`).
    public var goneTable: PlanTable {
        PlanTable(name: gone, columns: [PlanColumn(name: "kh", type: .integer, source: .field(cell: 0))], primaryKey: [])
    }

    /// The kept fingerprints of the removed rows, in a subquery of their own.
    private var goneKept: String {
        "(SELECT \"o\".* FROM \(dialect.table(kept)) AS \"o\" WHERE \"o\".\"kh\" IN (SELECT \"kh\" FROM \(gone.quotedDatabaseIdentifier))) AS \"g\""
    }

    /// A refresh in place: the removed rows logged (bind the table's name and the time).
    public var logGoneStatement: String {
        logInsert + "'removed', \(keyJSON(of: joinedRow)), \(rowJSON(of: joinedRow)), CAST(NULL AS TEXT) FROM \(goneKept) "
            + "JOIN \(target) AS \(joinedRow) ON \(locate("g"))"
    }

    /// Then deleted from the table, by their keys.
    public var deleteGoneStatement: String {
        let keys = (1...max(1, table.primaryKey.count)).map { "\"g\".\"k\($0)\"" }.joined(separator: ", ")
        let own = table.primaryKey.map { "\(target).\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        return "DELETE FROM \(target) WHERE (\(own)) IN (SELECT \(keys) FROM \(goneKept))"
    }

    /// Then their kept fingerprints.
    public var forgetGoneStatement: String {
        "DELETE FROM \(dialect.table(kept)) WHERE \"kh\" IN (SELECT \"kh\" FROM \(gone.quotedDatabaseIdentifier))"
    }

    private var target: String { dialect.table(table.name) }
    private var fingerprintColumns: String {
        RowFingerprinter.columnNames(keyCount: table.primaryKey.count).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    }

    /// The data table joined to fingerprints by its key: named by an alias of socload's own,
    /// since the table's own name may be one of the fingerprints' aliases (a table named `n`).
    private var joinedRow: String { "\"_socload_row\"" }

    /// The data table's row (`joinedRow`) of fingerprint `alias` (by the key's values).
    private func locate(_ alias: String) -> String {
        table.primaryKey.enumerated().map { "\(joinedRow).\($1.quotedDatabaseIdentifier) = \"\(alias)\".\"k\($0 + 1)\"" }
            .joined(separator: " AND ")
    }

    private func object(_ columns: [String], of row: String) -> String {
        dialect.jsonObject(columns.map { column in
            let value = "\(row).\(column.quotedDatabaseIdentifier)"
            return (column, table.storedColumn(named: column).map { dialect.jsonValue(value, type: $0.type) } ?? value)
        })
    }

    private func rowJSON(of row: String) -> String { object(table.storedColumns.map(\.name), of: row) }
    private func keyJSON(of row: String) -> String { object(table.primaryKey, of: row) }

    public var createOldRowsStatement: String {
        "CREATE TABLE \(dialect.table(oldRows)) (\"kh\" \(dialect.declaredType(.integer)), \"old_values\" TEXT)"
    }

    /// Before a batch is upserted, first: the batch's fingerprints that are not kept already
    /// (its added and changed rows) go to the delta table. A row upserted as it was is counted,
    /// not carried: every later statement (old values, counts, log, history, the merge into the
    /// kept ones) reads only what changed.
    public var batchDeltaStatement: String {
        "INSERT INTO \(dialect.table(delta)) (\(fingerprintColumns)) SELECT \(fingerprintColumns) FROM \(dialect.table(batch)) AS \"n\" "
            + "WHERE NOT EXISTS (SELECT 1 FROM \(dialect.table(kept)) AS \"o\" WHERE \"o\".\"kh\" = \"n\".\"kh\" AND \"o\".\"h\" = \"n\".\"h\")"
    }

    /// Then the old values of its changed rows (those of the delta whose key is kept).
    public var captureOldRowsStatement: String {
        "INSERT INTO \(dialect.table(oldRows)) (\"kh\", \"old_values\") SELECT \"n\".\"kh\", \(rowJSON(of: joinedRow)) FROM (SELECT \"n\".* FROM "
            + "\(dialect.table(delta)) AS \"n\" WHERE EXISTS (SELECT 1 FROM \(dialect.table(kept)) AS \"o\" WHERE \"o\".\"kh\" = \"n\".\"kh\")) "
            + "AS \"n\" JOIN \(target) AS \(joinedRow) ON \(locate("n"))"
    }

    /// Then the delta joins the sync's fingerprints, and the batch's tables are emptied.
    public var appendBatchStatements: [String] {
        ["INSERT INTO \(dialect.table(synced)) (\(fingerprintColumns)) SELECT \(fingerprintColumns) FROM \(dialect.table(delta))",
         "DELETE FROM \(dialect.table(delta))", "DELETE FROM \(dialect.table(batch))"]
    }

    /// One row: the added and changed rows synced (those not upserted as they were), those of
    /// them whose key the table had, and those of them whose content a kept fingerprint has
    /// too (0 unless the kept fingerprints hold a key twice).
    public var countStatement: String {
        "SELECT count(*), count(\"o\".\"kh\"), coalesce(sum(CASE WHEN \"n\".\"h\" = \"o\".\"h\" THEN 1 ELSE 0 END), 0) "
            + "FROM \(dialect.table(synced)) AS \"n\" LEFT JOIN \(dialect.table(kept)) AS \"o\" ON \"o\".\"kh\" = \"n\".\"kh\""
    }

    private var logInsert: String {
        "INSERT INTO \(dialect.table(RowChangeLog.tableName)) (\"table_name\", \"refreshed_at\", \"kind\", \"row_key\", \"old_values\", "
            + "\"new_values\") SELECT CAST(\(dialect.placeholder(1)) AS TEXT), CAST(\(dialect.placeholder(2)) AS TEXT), "
    }

    /// The log's added and changed rows (bind the table's name and the time).
    /// Each filters socload's own tables in a subquery before joining the data table: Citus
    /// joins local tables with a distributed one only so.
    public var logStatements: [String] {
        [logInsert + "'added', \(keyJSON(of: joinedRow)), CAST(NULL AS TEXT), \(rowJSON(of: joinedRow)) FROM (SELECT \"n\".* FROM \(dialect.table(synced)) AS \"n\" "
            + "WHERE NOT EXISTS (SELECT 1 FROM \(dialect.table(kept)) AS \"o\" WHERE \"o\".\"kh\" = \"n\".\"kh\")) AS \"n\" "
            + "JOIN \(target) AS \(joinedRow) ON \(locate("n"))",
         logInsert + "'changed', \(keyJSON(of: joinedRow)), \"n\".\"old_values\", \(rowJSON(of: joinedRow)) FROM (SELECT \"n\".*, \"c\".\"old_values\" FROM "
            + "\(dialect.table(synced)) AS \"n\" JOIN \(dialect.table(oldRows)) AS \"c\" ON \"c\".\"kh\" = \"n\".\"kh\") AS \"n\" "
            + "JOIN \(target) AS \(joinedRow) ON \(locate("n"))"]
    }

    /// Before `sync --deletes` deletes: the rows outside the key set, logged as removed.
    public func logRemovedStatement(keysTable: String) -> String {
        let missing = KeySetWriting(dialect: dialect, table: table, keysTable: keysTable).missing
        return logInsert + "'removed', \(keyJSON(of: target)), \(rowJSON(of: target)), CAST(NULL AS TEXT) FROM \(target) WHERE \(missing)"
    }

    /// The sync's fingerprints replace the kept ones of the same keys; those of deleted rows go.
    /// (`IN`, not a correlated `EXISTS`: SQLite reads the sync's unindexed fingerprints once
    /// into a set, instead of once for every kept row.)
    public var mergeStatements: [String] {
        let keptTable = dialect.table(kept)
        return ["DELETE FROM \(keptTable) WHERE \"kh\" IN (SELECT \"n\".\"kh\" FROM \(dialect.table(synced)) AS \"n\")",
                "INSERT INTO \(keptTable) (\(fingerprintColumns)) SELECT \(fingerprintColumns) FROM \(dialect.table(synced))"]
    }

    public var forgetDeletedStatement: String {
        let keptTable = dialect.table(kept)
        if table.distributionColumn != nil {
            // Citus: the distributed table's keys read by a subquery of their own.
            let own = (1...table.primaryKey.count).map { "\(keptTable).\"k\($0)\"" }.joined(separator: ", ")
            let keys = table.primaryKey.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            return "DELETE FROM \(keptTable) WHERE (\(own)) NOT IN (SELECT \(keys) FROM \(target))"
        }
        let matches = table.primaryKey.enumerated().map { "\(target).\($1.quotedDatabaseIdentifier) = \(keptTable).\"k\($0 + 1)\"" }
            .joined(separator: " AND ")
        return "DELETE FROM \(keptTable) WHERE NOT EXISTS (SELECT 1 FROM \(target) WHERE \(matches))"
    }


    // MARK: - History

    private var keyOfSynced: String {
        (1...table.primaryKey.count).map { "\"n\".\"k\($0)\"" }.joined(separator: ", ")
    }

    /// The synced keys whose content changed (the history closes their versions).
    public var changedKeys: String {
        "SELECT \(keyOfSynced) FROM \(dialect.table(synced)) AS \"n\" JOIN \(dialect.table(kept)) AS \"o\" "
            + "ON \"o\".\"kh\" = \"n\".\"kh\" AND \"o\".\"h\" <> \"n\".\"h\""
    }

    /// The synced rows (`"t"`) that are new or changed (the history's new versions).
    public var newVersions: String {
        let locate = table.primaryKey.enumerated().map { "\"t\".\($1.quotedDatabaseIdentifier) = \"n\".\"k\($0 + 1)\"" }
            .joined(separator: " AND ")
        return "FROM (SELECT \"n\".* FROM \(dialect.table(synced)) AS \"n\" WHERE NOT EXISTS (SELECT 1 FROM "
            + "\(dialect.table(kept)) AS \"o\" WHERE \"o\".\"kh\" = \"n\".\"kh\" AND \"o\".\"h\" = \"n\".\"h\")) AS \"n\" "
            + "JOIN \(target) AS \"t\" ON \(locate)"
    }

    /// The keys `sync --deletes` is about to delete.
    public func deletedKeys(keysTable: String) -> String {
        let missing = KeySetWriting(dialect: dialect, table: table, keysTable: keysTable).missing
        return "SELECT " + table.primaryKey.map { "\(target).\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
            + " FROM \(target) WHERE \(missing)"
    }
}
