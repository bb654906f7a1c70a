import SocloadCore
import Foundation
import SocloadDatabase

/// The `_socload_datasets` table: one row per loaded table. Table names compare as SQLite
/// compares them, case-insensitively, so `T` and `t` are one entry as they are one table.
public final class SQLiteCatalog: CatalogStore {
    public static let tableName = "_socload_datasets"
    let db: Database

    public init(db: Database) {
        self.db = db
    }

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS "_socload_datasets" (
          "table_name" TEXT PRIMARY KEY,
          "dataset_id" TEXT,
          "domain" TEXT,
          "name" TEXT,
          "source_url" TEXT NOT NULL,
          "fetched_at" TEXT NOT NULL,
          "rows_updated_at" TEXT,
          "row_count" INTEGER NOT NULL,
          "columns_json" TEXT NOT NULL,
          "column_mapping_json" TEXT NOT NULL,
          "etag" TEXT,
          "last_modified" TEXT,
          "request_signature" TEXT,
          "plan_json" TEXT,
          "invalid_cells_json" TEXT,
          "partial_reason" TEXT,
          "dictionary_json" TEXT,
          "description" TEXT
        )
        """

    static let insertSQL = """
        INSERT INTO "_socload_datasets" ("table_name", "dataset_id", "domain", "name", "source_url",
          "fetched_at", "rows_updated_at", "row_count", "columns_json", "column_mapping_json", "etag", "last_modified",
          "request_signature", "plan_json", "invalid_cells_json", "partial_reason", "dictionary_json",
          "description")
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Writes the entry, creating the catalog table on first use; an entry for the same table
    /// under another spelling of its name is replaced.
    public func record(_ entry: CatalogEntry) throws {
        try migrate()
        try db.execute(sql: "DELETE FROM \"_socload_datasets\" WHERE \"table_name\" = ? COLLATE NOCASE",
                       arguments: [entry.tableName])
        try db.execute(sql: Self.insertSQL, arguments: [
            entry.tableName, entry.datasetID, entry.domain, entry.name, entry.sourceURL, entry.fetchedAt,
            entry.rowsUpdatedAt, entry.rowCount, entry.columnsJSON, entry.columnMappingJSON, entry.etag,
            entry.lastModified, entry.requestSignature, entry.planJSON, entry.invalidCellsJSON, entry.partialReason,
            entry.dictionaryJSON, entry.datasetDescription,
        ])
        try recordClaims(of: entry.tableName, plan: entry.plan)
    }

    /// Rewrites what a table claims in `TableNameIndex` (nothing once its entry is gone).
    func recordClaims(of tableName: String, plan: LoadPlan?) throws {
        let index = TableNameIndex(dialect: SQLiteDialect())
        try db.execute(sql: index.deleteStatement, arguments: [tableName])
        for row in plan.map(TableNameIndex.rows) ?? [] {
            try db.execute(sql: index.insertStatement, arguments: StatementArguments(positional: row))
        }
    }

    public func plans(claiming names: Set<String>) throws -> [LoadPlan] {
        guard !names.isEmpty, try db.tableExists(Self.tableName) else { return [] }
        guard try version() >= CatalogVersion.current, try db.tableExists(TableNameIndex.tableName) else {
            return try plansReadingEveryPlan(claiming: names)
        }
        let sorted = names.sorted()
        let owners = try db.fetchAll(String.self, sql: TableNameIndex(dialect: SQLiteDialect()).ownersStatement(count: sorted.count),
                                     arguments: StatementArguments(positional: sorted.map(DatabaseValue.text)))
        return try owners.compactMap { try entry(for: $0, withDescription: false)?.plan }
    }

    /// Catalogs written by an older socload lack newer columns: add them.
    func addMissingColumns() throws {
        let present = Set(try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info('_socload_datasets')"))
        for column in ["request_signature", "plan_json", "invalid_cells_json", "partial_reason", "dictionary_json", "description"] where !present.contains(column) {
            try db.execute(sql: "ALTER TABLE \"_socload_datasets\" ADD COLUMN \(column.quotedDatabaseIdentifier) TEXT")
        }
    }

    /// The entry for a table name (any case) or a dataset id (`n5m4-mism`); nil when there is none.
    public func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry? {
        guard try db.tableExists(Self.tableName) else { return nil }
        let rows = try db.fetchRows(sql: """
            SELECT \(try selectedColumns(withDescription: withDescription)) FROM "_socload_datasets"
            WHERE "table_name" = ?1 COLLATE NOCASE OR "dataset_id" = ?1
            ORDER BY "table_name" = ?1 DESC, "table_name" = ?1 COLLATE NOCASE DESC, "fetched_at" DESC LIMIT 1
            """, arguments: [tableOrDatasetID])
        return rows.first.map(Self.entry(from:))
    }

    /// Every entry, without descriptions, in one read (`CatalogReader.catalogEntries()`).
    public func entries() throws -> [CatalogEntry] {
        guard try db.tableExists(Self.tableName) else { return [] }
        return try db.fetchRows(sql: "SELECT \(try selectedColumns(withDescription: false)) FROM \"_socload_datasets\" ORDER BY \"table_name\"")
            .map(Self.entry(from:))
    }

    /// The columns there are (an older socload's catalog lacks the newer ones until a load).
    private func selectedColumns(withDescription: Bool) throws -> String {
        try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info('_socload_datasets')")
            .filter { withDescription || $0 != "description" }.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    }

    private static func entry(from row: Row) -> CatalogEntry {
        func text(_ name: String) -> String? {
            if case .text(let value)? = row[name] { return value }
            return nil
        }
        var count = 0
        if case .integer(let value)? = row["row_count"] { count = Int(value) }
        return CatalogEntry(tableName: text("table_name") ?? "", datasetID: text("dataset_id"), domain: text("domain"),
                            name: text("name"), sourceURL: text("source_url") ?? "", fetchedAt: text("fetched_at") ?? "",
                            rowsUpdatedAt: text("rows_updated_at"), rowCount: count,
                            columnsJSON: text("columns_json") ?? "[]", columnMappingJSON: text("column_mapping_json") ?? "{}",
                            etag: text("etag"), lastModified: text("last_modified"),
                            requestSignature: text("request_signature"), planJSON: text("plan_json"),
                            invalidCellsJSON: text("invalid_cells_json"), partialReason: text("partial_reason"),
                            dictionaryJSON: text("dictionary_json"), datasetDescription: text("description"))
    }

    public func recordedPlans() throws -> [LoadPlan] {
        guard try db.tableExists(Self.tableName) else { return [] }
        return try db.fetchAll(String.self, sql: "SELECT \"plan_json\" FROM \"_socload_datasets\" WHERE \"plan_json\" IS NOT NULL")
            .compactMap { try? JSONDecoder().decode(LoadPlan.self, from: Data($0.utf8)) }
    }

    /// How each date or time column of a loaded table stores its values, from the plan's logical
    /// types: what `Database.selectQuery(...timestampForms:)` needs to compare a `Date` with it.
    /// Empty for a table the catalog does not know.
    ///
    ///     let forms = try SQLiteCatalog(db: db).timestampForms(of: "n5m4_mism")
    public func timestampForms(of table: String) throws -> [String: TimestampForm] {
        guard let planTable = try planTable(named: table) else { return [:] }
        var forms: [String: TimestampForm] = [:]
        for column in planTable.storedColumns {
            switch column.type {
            case .timestamp: forms[column.name] = .fixed
            case .floatingTimestamp: forms[column.name] = .floating
            case .date: forms[column.name] = .date
            default: break
            }
        }
        return forms
    }

    /// Drops a loaded table and its catalog entry together (call it inside a transaction, as
    /// `DatabaseQueue.write` does, so that neither goes without the other). `name` is a table
    /// name (any case) or a dataset id. Returns the name of the table dropped, nil when there is
    /// no such table and no entry. The catalog itself and SQLite's own tables are refused.
    ///
    ///     let dropped = try queue.write { db in try SQLiteCatalog(db: db).drop("n5m4_mism") }
    public func drop(_ name: String) throws -> String? {
        let entry = try entry(for: name, withDescription: false)
        let tableName = entry?.tableName ?? name
        if tableName.lowercased().hasPrefix("_socload_") || tableName.lowercased().hasPrefix("sqlite_") {
            throw ReadError.notALoadedTable(tableName, what: "socload's catalog or one of SQLite's own tables")
        }
        let existing = try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_list(?) WHERE schema = 'main' AND type = 'table'",
                                       arguments: [tableName])
        guard entry != nil || !existing.isEmpty else { return nil }
        let plans = try recordedPlans()
        // Its child tables (`socload load`) go with it; glue and lookup tables are shared and stay.
        let children = try entry?.plan.map { plan in
            try DropRules.ownChildren(of: plan, plans: plans).filter { try references($0.name, tableName) }
        } ?? []
        let ours = Set(([tableName] + children.map(\.name)).map { $0.lowercased() })
        let users = DropRules.users(of: tableName, plans: plans)
            + (try referencingTables(tableName).filter { !ours.contains($0.lowercased()) })
        if !users.isEmpty { throw ReadError.inUse(tableName, by: Array(Set(users)).sorted()) }
        for child in children {
            try db.execute(sql: "DROP TABLE IF EXISTS \(child.name.quotedDatabaseIdentifier)")
        }
        for table in existing {
            try db.execute(sql: "DROP TABLE \(table.quotedDatabaseIdentifier)")
        }
        // Its fingerprints and previous copy (what the next refresh would have compared with),
        // its full-text index and its history go too.
        try db.execute(sql: "DROP TABLE IF EXISTS \(RowChangeSQL.fingerprintTables(of: tableName, dialect: SQLiteDialect()).kept.quotedDatabaseIdentifier)")
        try db.execute(sql: "DROP TABLE IF EXISTS \(SQLiteTableWriter.previousCopy(of: tableName).quotedDatabaseIdentifier)")
        if entry?.plan?.mainTable.fullText != nil {
            try db.execute(sql: "DROP TABLE IF EXISTS \(PlanFullText.sqliteTable(of: tableName).quotedDatabaseIdentifier)")
        }
        if entry?.plan?.options?.keepsHistory == true {
            try db.execute(sql: "DROP TABLE IF EXISTS \(HistorySQL.historyTable(of: tableName, dialect: SQLiteDialect()).quotedDatabaseIdentifier)")
        }
        // Its watch, as the last refresh judged it (`socload report`), goes with it.
        if try tableExists(WatchLog.tableName) {
            try db.execute(sql: "DELETE FROM \(WatchLog.tableName.quotedDatabaseIdentifier) WHERE \"table_name\" = ? COLLATE NOCASE",
                           arguments: [tableName])
        }
        if entry != nil {
            try db.execute(sql: "DELETE FROM \"_socload_datasets\" WHERE \"table_name\" = ? COLLATE NOCASE",
                           arguments: [tableName])
            try recordClaims(of: tableName, plan: nil)
        }
        return existing.first ?? tableName
    }

    /// The tables whose foreign keys reference `table`.
    func referencingTables(_ table: String) throws -> [String] {
        try db.fetchAll(String.self, sql: """
            SELECT DISTINCT m.name FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS f
            WHERE m.type = 'table' AND f."table" = ? COLLATE NOCASE AND m.name <> ? COLLATE NOCASE
            """, arguments: [table, table])
    }

    /// True when `child` has a foreign key to `parent` (a child table of a load has one).
    func references(_ child: String, _ parent: String) throws -> Bool {
        try db.fetchValue(sql: "SELECT 1 FROM pragma_foreign_key_list(?) WHERE \"table\" = ? COLLATE NOCASE",
                          arguments: [child, parent]) != nil
    }
}

/// A catalog operation refused.

/// `drop`'s refusals are `ReadError` in both databases now (`.inUse`, `.notALoadedTable`).
@available(*, deprecated, renamed: "ReadError")
public typealias SQLiteCatalogError = ReadError
