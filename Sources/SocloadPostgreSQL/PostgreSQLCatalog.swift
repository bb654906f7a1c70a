import Foundation
import SocloadCore

/// The `_socload_datasets` table in the load's schema: one row per loaded table, the same
/// columns as SQLite's catalog. Table names compare exactly, as PostgreSQL compares quoted names.
public final class PostgreSQLCatalog: CatalogStore {
    public static let tableName = "_socload_datasets"
    private let connection: PostgreSQLConnection
    let schema: String
    /// Runs before each statement (a load's transaction ends its open COPY here).
    var beforeStatement: () throws -> Void = {}

    public init(connection: PostgreSQLConnection, schema: String = "public") {
        self.connection = connection
        self.schema = schema
    }

    var qualifiedName: String { PostgreSQLTypes.qualified(Self.tableName, schema: schema) }

    static let textColumns = ["table_name", "dataset_id", "domain", "name", "source_url", "fetched_at", "rows_updated_at",
                              "row_count", "columns_json", "column_mapping_json", "etag", "last_modified",
                              "request_signature", "plan_json", "invalid_cells_json", "partial_reason", "dictionary_json",
                              "description"]

    func run() throws -> PostgreSQLConnection {
        try beforeStatement()
        return connection
    }

    static func createStatement(_ qualifiedName: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(qualifiedName) (
          "table_name" text PRIMARY KEY, "dataset_id" text, "domain" text, "name" text,
          "source_url" text NOT NULL, "fetched_at" text NOT NULL, "rows_updated_at" text,
          "row_count" bigint NOT NULL, "columns_json" text NOT NULL, "column_mapping_json" text NOT NULL,
          "etag" text, "last_modified" text, "request_signature" text, "plan_json" text,
          "invalid_cells_json" text, "partial_reason" text, "dictionary_json" text,
          "description" text)
        """
    }

    public func record(_ entry: CatalogEntry) throws {
        try migrate()
        try run().execute("DELETE FROM \(qualifiedName) WHERE \"table_name\" = $1", [entry.tableName])
        let placeholders = (1...Self.textColumns.count).map { "$\($0)" }.joined(separator: ", ")
        try run().execute("""
            INSERT INTO \(qualifiedName) (\(Self.textColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))
            VALUES (\(placeholders))
            """, [entry.tableName, entry.datasetID, entry.domain, entry.name, entry.sourceURL, entry.fetchedAt,
                  entry.rowsUpdatedAt, String(entry.rowCount), entry.columnsJSON, entry.columnMappingJSON, entry.etag,
                  entry.lastModified, entry.requestSignature, entry.planJSON, entry.invalidCellsJSON, entry.partialReason,
                  entry.dictionaryJSON, entry.datasetDescription])
        try recordClaims(of: entry.tableName, plan: entry.plan)
    }

    /// Rewrites what a table claims in `TableNameIndex` (nothing once its entry is gone).
    func recordClaims(of tableName: String, plan: LoadPlan?) throws {
        let index = TableNameIndex(dialect: PostgreSQLDialect(schema: schema))
        try run().execute(index.deleteStatement, [tableName])
        for row in plan.map(TableNameIndex.rows) ?? [] {
            try run().execute(index.insertStatement, row.map(\.textValue))
        }
    }

    public func plans(claiming names: Set<String>) throws -> [LoadPlan] {
        guard !names.isEmpty, try run().value("SELECT to_regclass($1) IS NOT NULL", [qualifiedName]) == "t" else { return [] }
        let index = PostgreSQLTypes.qualified(TableNameIndex.tableName, schema: schema)
        guard try version() >= CatalogVersion.current, try run().value("SELECT to_regclass($1) IS NOT NULL", [index]) == "t" else {
            return try plansReadingEveryPlan(claiming: names)
        }
        let sorted = names.sorted()
        let owners = try run().execute(TableNameIndex(dialect: PostgreSQLDialect(schema: schema)).ownersStatement(count: sorted.count),
                                       sorted).rows.compactMap { $0[0] }
        return try owners.compactMap { try entry(for: $0, withDescription: false)?.plan }
    }

    /// The entry for a table name (exactly, or as the load shortened it past 63 bytes) or a
    /// dataset id; nil when there is none.
    public func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry? {
        guard try run().value("SELECT to_regclass($1) IS NOT NULL", [qualifiedName]) == "t" else { return nil }
        let result = try run().execute("""
            SELECT \(try selectedColumns(withDescription: withDescription)) FROM \(qualifiedName)
            WHERE "table_name" IN ($1, $2) OR "dataset_id" = $1
            ORDER BY "table_name" IN ($1, $2) DESC, "fetched_at" DESC LIMIT 1
            """, [tableOrDatasetID, LoadPlan.shortenedName(tableOrDatasetID, toBytes: 63)])
        return result.rows.first.map(Self.entry(from:))
    }

    /// Every entry, without descriptions, in one read (`CatalogReader.catalogEntries()`).
    public func entries() throws -> [CatalogEntry] {
        guard try run().value("SELECT to_regclass($1) IS NOT NULL", [qualifiedName]) == "t" else { return [] }
        return try run().execute("SELECT \(try selectedColumns(withDescription: false)) FROM \(qualifiedName) ORDER BY \"table_name\"")
            .rows.map(Self.entry(from:))
    }

    /// `textColumns` in order; NULL for those an older socload's catalog lacks until a load.
    private func selectedColumns(withDescription: Bool) throws -> String {
        let present = try presentColumns()
        return Self.textColumns.map { name in
            present.contains(name) && (withDescription || name != "description") ? name.quotedDatabaseIdentifier : "NULL::text"
        }.joined(separator: ", ")
    }

    private static func entry(from row: [String?]) -> CatalogEntry {
        CatalogEntry(tableName: row[0] ?? "", datasetID: row[1], domain: row[2], name: row[3], sourceURL: row[4] ?? "",
                     fetchedAt: row[5] ?? "", rowsUpdatedAt: row[6], rowCount: Int(row[7] ?? "") ?? 0,
                     columnsJSON: row[8] ?? "[]", columnMappingJSON: row[9] ?? "{}", etag: row[10],
                     lastModified: row[11], requestSignature: row[12], planJSON: row[13],
                     invalidCellsJSON: row[14], partialReason: row[15], dictionaryJSON: row[16],
                     datasetDescription: row[17])
    }

    public func recordedPlans() throws -> [LoadPlan] {
        guard try run().value("SELECT to_regclass($1) IS NOT NULL", [qualifiedName]) == "t" else { return [] }
        return try run().execute("SELECT \"plan_json\" FROM \(qualifiedName) WHERE \"plan_json\" IS NOT NULL").rows
            .compactMap { $0[0] }.compactMap { try? JSONDecoder().decode(LoadPlan.self, from: Data($0.utf8)) }
    }

    /// Removes a table's entry.
    public func remove(tableName: String) throws {
        guard try run().value("SELECT to_regclass($1) IS NOT NULL", [qualifiedName]) == "t" else { return }
        try run().execute("DELETE FROM \(qualifiedName) WHERE \"table_name\" = $1", [tableName])
        if try run().value("SELECT to_regclass($1) IS NOT NULL", [PostgreSQLTypes.qualified(TableNameIndex.tableName, schema: schema)]) == "t" {
            try recordClaims(of: tableName, plan: nil)
        }
    }
}
