import Foundation
import SocloadCore
import SocloadDatabase

/// The catalog's version and schema change log in a SQLite file.
extension SQLiteCatalog {
    /// Brings a catalog made by an earlier release to `CatalogVersion.current`: the datasets
    /// table's newer columns, the schema change log, the version row. Runs inside the load's
    /// transaction, so a failed load leaves an old file as it was.
    func migrate() throws {
        let dialect = SQLiteDialect()
        try db.execute(sql: Self.createSQL)
        try addMissingColumns()
        try db.execute(sql: SchemaChangeLog(dialect: dialect).createStatement)
        try db.execute(sql: RefreshLog(dialect: dialect).createStatement)
        let logColumns = Set(try db.fetchAll(String.self, sql: "SELECT lower(name) FROM pragma_table_info(?)", arguments: [RefreshLog.tableName]))
        for (name, type) in RefreshLog.laterColumns where !logColumns.contains(name) {
            try db.execute(sql: "ALTER TABLE \(RefreshLog.tableName.quotedDatabaseIdentifier) ADD COLUMN \(name.quotedDatabaseIdentifier) "
                                + dialect.declaredType(type))
        }
        for statement in CatalogLookupIndexes.createStatements(dialect) { try db.execute(sql: statement) }
        if try version() < CatalogVersion.current || !tableExists(TableNameIndex.tableName) {
            // A catalog from before the index, or written since by a release that did not keep
            // it: filled again from every plan.
            let entries = try db.fetchRows(sql: "SELECT \"table_name\", \"plan_json\" FROM \"_socload_datasets\" WHERE \"plan_json\" IS NOT NULL")
            for statement in TableNameIndex(dialect: dialect).createStatements { try db.execute(sql: statement) }
            try db.execute(sql: "DELETE FROM \(TableNameIndex.tableName.quotedDatabaseIdentifier)")
            for row in entries {
                guard case .text(let table) = row[0], case .text(let json) = row[1] else { continue }
                try recordClaims(of: table, plan: try? JSONDecoder().decode(LoadPlan.self, from: Data(json.utf8)))
            }
        }
        try db.execute(sql: CatalogVersion.createStatement(dialect))
        let statements = CatalogVersion.statements(dialect)
        try db.execute(sql: statements.delete)
        try db.execute(sql: statements.insert)
    }

    /// The catalog's version: 1 for a file an earlier release made, 0 for one with no catalog.
    public func version() throws -> Int {
        guard try tableExists(CatalogVersion.tableName) else { return try tableExists(Self.tableName) ? 1 : 0 }
        return try db.fetchOne(String.self, sql: CatalogVersion.selectStatement(SQLiteDialect())).flatMap { Int($0) } ?? 1
    }

    public func recordSchemaChanges(_ changes: [SchemaChange], at time: String) throws {
        guard !changes.isEmpty else { return }
        try migrate()
        let log = SchemaChangeLog(dialect: SQLiteDialect())
        for (position, change) in changes.enumerated() {
            try db.execute(sql: log.insertStatement,
                           arguments: StatementArguments(positional: log.arguments(for: change, at: time, position: position)))
        }
    }

    public func schemaChanges(of table: String) throws -> [RecordedSchemaChange] {
        guard try tableExists(SchemaChangeLog.tableName) else { return [] }
        return try db.fetchRows(sql: SchemaChangeLog(dialect: SQLiteDialect()).selectStatement, arguments: [table]).compactMap { row in
            SchemaChangeLog.change(fromRow: row.values.map { value -> String? in
                if case .text(let text) = value { return text }
                return nil
            })
        }
    }

    public func recordRefresh(_ record: RefreshRecord) throws {
        try migrate()
        let log = RefreshLog(dialect: SQLiteDialect())
        try db.execute(sql: log.insertStatement, arguments: StatementArguments(positional: log.arguments(for: record)))
    }

    public func refreshes(of table: String) throws -> [RefreshRecord] {
        guard try tableExists(RefreshLog.tableName) else { return [] }
        return try db.fetchRows(sql: RefreshLog(dialect: SQLiteDialect()).selectStatement, arguments: [table]).compactMap { row in
            RefreshLog.record(fromRow: row.values.map(\.textValue))
        }
    }

    func tableExists(_ name: String) throws -> Bool {
        try db.tableExists(name)
    }
}
