import SocloadDatabase

/// The `_socload_datasets` table: one row per loaded table.
public enum Catalog {
    public static let tableName = "_socload_datasets"

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
          "request_signature" TEXT
        )
        """

    static let upsertSQL = """
        INSERT OR REPLACE INTO "_socload_datasets" ("table_name", "dataset_id", "domain", "name", "source_url",
          "fetched_at", "rows_updated_at", "row_count", "columns_json", "column_mapping_json", "etag", "last_modified",
          "request_signature")
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Writes the entry, creating the catalog table on first use.
    public static func record(_ entry: CatalogEntry, in db: Database) throws {
        try db.execute(sql: createSQL)
        try addMissingColumns(in: db)
        try db.execute(sql: upsertSQL, arguments: [
            entry.tableName, entry.datasetID, entry.domain, entry.name, entry.sourceURL, entry.fetchedAt,
            entry.rowsUpdatedAt, entry.rowCount, entry.columnsJSON, entry.columnMappingJSON, entry.etag,
            entry.lastModified, entry.requestSignature,
        ])
    }

    /// Catalogs written by an older socload lack newer columns: add them.
    static func addMissingColumns(in db: Database) throws {
        let present = Set(try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info('_socload_datasets')"))
        for column in ["request_signature"] where !present.contains(column) {
            try db.execute(sql: "ALTER TABLE \"_socload_datasets\" ADD COLUMN \(column.quotedDatabaseIdentifier) TEXT")
        }
    }

    /// The entry for a table name, or for a dataset id (`n5m4-mism`); nil when there is none.
    public static func entry(for tableOrDatasetID: String, in db: Database) throws -> CatalogEntry? {
        guard try db.fetchValue(sql: "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?",
                                arguments: [tableName]) != nil else { return nil }
        return try db.fetchOne(CatalogEntry.self, sql: """
            SELECT * FROM "_socload_datasets" WHERE "table_name" = ?1 OR "dataset_id" = ?1
            ORDER BY "table_name" = ?1 DESC, "fetched_at" DESC LIMIT 1
            """, arguments: [tableOrDatasetID])
    }
}
