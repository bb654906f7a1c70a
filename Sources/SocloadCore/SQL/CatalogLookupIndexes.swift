/// The indexes the catalog's lookups of one table go through: the datasets table by table name (as
/// the database compares names) and by dataset id, and the refresh and schema change logs by
/// table. Without them each lookup reads the whole table, so a load, a `status` or a `history`
/// costs more with every dataset (and every night) the database holds. A catalog's migration
/// makes them (`IF NOT EXISTS`: a catalog made before them gains them at its next load).
///
///     for statement in CatalogLookupIndexes.createStatements(SQLiteDialect()) { _ = statement }
public enum CatalogLookupIndexes {
    /// The `CREATE INDEX IF NOT EXISTS` statements, for the tables `CatalogStore` creates.
    public static func createStatements(_ dialect: any SQLDialect) -> [String] {
        // Lookups compare names as the database does: SQLite ignoring case.
        let byTable = dialect.namesIgnoreCase ? "lower(\"table_name\")" : "\"table_name\""
        var statements = [
            "CREATE INDEX IF NOT EXISTS \"_socload_datasets_by_dataset\" ON \(dialect.table("_socload_datasets")) (\"dataset_id\")",
            "CREATE INDEX IF NOT EXISTS \"_socload_refreshes_by_table\" ON \(dialect.table(RefreshLog.tableName)) (\(byTable))",
            "CREATE INDEX IF NOT EXISTS \"_socload_schema_changes_by_table\" ON \(dialect.table(SchemaChangeLog.tableName)) (\(byTable))",
        ]
        if dialect.namesIgnoreCase {
            // The table name is the primary key, compared exactly; lookups ignore case.
            statements.append("CREATE INDEX IF NOT EXISTS \"_socload_datasets_by_name\" ON \(dialect.table("_socload_datasets")) "
                              + "(\"table_name\" COLLATE NOCASE)")
        }
        return statements
    }
}
