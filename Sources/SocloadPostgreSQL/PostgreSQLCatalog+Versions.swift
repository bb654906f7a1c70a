import Foundation
import SocloadCore

/// The catalog's version and schema change log in the load's schema.
extension PostgreSQLCatalog {
    /// Brings a catalog made by an earlier release to `CatalogVersion.current` (see
    /// `SQLiteCatalog.migrate`), inside the load's transaction.
    func migrate() throws {
        let dialect = PostgreSQLDialect(schema: schema)
        // Loads side by side: one at a time creates and rewrites these tables.
        try PostgreSQLLoadTransaction.reserveSharedTables(of: schema, on: run())
        try run().execute(Self.createStatement(qualifiedName))
        // ALTER TABLE locks the table against every reader, even when the column is there: only
        // when it is missing (a load side by side may have read the catalog and waits for this one).
        let present = try columns(of: qualifiedName)
        for column in ["dictionary_json", "description"] where !present.contains(column) {
            try run().execute("ALTER TABLE \(qualifiedName) ADD COLUMN IF NOT EXISTS \(column.quotedDatabaseIdentifier) text")
        }
        try run().execute(SchemaChangeLog(dialect: dialect).createStatement)
        try run().execute(RefreshLog(dialect: dialect).createStatement)
        let refreshLog = dialect.table(RefreshLog.tableName)
        let refreshLogColumns = try columns(of: refreshLog)
        for (name, type) in RefreshLog.laterColumns where !refreshLogColumns.contains(name) {
            try run().execute("ALTER TABLE \(refreshLog) ADD COLUMN IF NOT EXISTS \(name.quotedDatabaseIdentifier) "
                              + dialect.declaredType(type))
        }
        for statement in CatalogLookupIndexes.createStatements(dialect) { try run().execute(statement) }
        let index = PostgreSQLTypes.qualified(TableNameIndex.tableName, schema: schema)
        if try version() < CatalogVersion.current || !exists(index) {
            // A catalog from before the index, or written since by a release that did not keep
            // it: filled again from every plan.
            let entries = try run().execute("SELECT \"table_name\", \"plan_json\" FROM \(qualifiedName) WHERE \"plan_json\" IS NOT NULL").rows
            for statement in TableNameIndex(dialect: dialect).createStatements { try run().execute(statement) }
            try run().execute("DELETE FROM \(index)")
            for row in entries {
                guard let table = row[0], let json = row[1] else { continue }
                try recordClaims(of: table, plan: try? JSONDecoder().decode(LoadPlan.self, from: Data(json.utf8)))
            }
        }
        try run().execute(CatalogVersion.createStatement(dialect))
        let statements = CatalogVersion.statements(dialect)
        try run().execute(statements.delete)
        try run().execute(statements.insert)
    }

    /// The column names of a table (`"schema"."name"`).
    /// The columns the catalog table has.
    func presentColumns() throws -> Set<String> {
        try columns(of: qualifiedName)
    }

    private func columns(of qualifiedTable: String) throws -> Set<String> {
        let result = try run().execute("SELECT attname FROM pg_catalog.pg_attribute WHERE attrelid = to_regclass($1) "
                                       + "AND attnum > 0 AND NOT attisdropped", [qualifiedTable])
        return Set(result.rows.compactMap { $0.first ?? nil })
    }

    /// The catalog's version: 1 for a schema an earlier release loaded into, 0 for one with no catalog.
    public func version() throws -> Int {
        let dialect = PostgreSQLDialect(schema: schema)
        guard try exists(dialect.table(CatalogVersion.tableName)) else { return try exists(qualifiedName) ? 1 : 0 }
        return try run().value(CatalogVersion.selectStatement(dialect)).flatMap { Int($0) } ?? 1
    }

    public func recordSchemaChanges(_ changes: [SchemaChange], at time: String) throws {
        guard !changes.isEmpty else { return }
        try migrate()
        let log = SchemaChangeLog(dialect: PostgreSQLDialect(schema: schema))
        for (position, change) in changes.enumerated() {
            try run().execute(log.insertStatement, log.arguments(for: change, at: time, position: position).map(PostgreSQLDatabase.parameterText))
        }
    }

    public func schemaChanges(of table: String) throws -> [RecordedSchemaChange] {
        let log = SchemaChangeLog(dialect: PostgreSQLDialect(schema: schema))
        guard try exists(log.dialect.table(SchemaChangeLog.tableName)) else { return [] }
        return try run().execute(log.selectStatement, [table]).rows.compactMap(SchemaChangeLog.change(fromRow:))
    }

    public func recordRefresh(_ record: RefreshRecord) throws {
        try migrate()
        let log = RefreshLog(dialect: PostgreSQLDialect(schema: schema))
        try run().execute(log.insertStatement, log.arguments(for: record).map(PostgreSQLDatabase.parameterText))
    }

    public func refreshes(of table: String) throws -> [RefreshRecord] {
        let log = RefreshLog(dialect: PostgreSQLDialect(schema: schema))
        guard try exists(log.dialect.table(RefreshLog.tableName)) else { return [] }
        return try run().execute(log.selectStatement, [table]).rows.compactMap(RefreshLog.record(fromRow:))
    }

    /// The change log's rows for a table at or after a time (`RowChangeLog`).
    public func rowChanges(of table: String, since: String) throws -> [RecordedRowChange] {
        let log = RowChangeLog(dialect: PostgreSQLDialect(schema: schema))
        guard try exists(log.dialect.table(RowChangeLog.tableName)) else { return [] }
        return try run().execute(log.selectStatement, [table, since]).rows.compactMap(RowChangeLog.change(fromRow:))
    }

    private func exists(_ qualified: String) throws -> Bool {
        try run().value("SELECT to_regclass($1) IS NOT NULL", [qualified]) == "t"
    }
}
