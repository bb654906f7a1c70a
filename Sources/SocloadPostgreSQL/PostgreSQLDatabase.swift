import SocloadCore

/// What socload's commands do in a PostgreSQL database besides loading: list the loaded
/// tables, run a user's statement read-only, drop a table with its catalog entry.
///
///     let database = PostgreSQLDatabase(connection: try PostgreSQLConnection(PostgreSQLConnectionString("postgres:")!))
///     for table in try database.tables() { print(table.name, table.rowCount) }
public struct PostgreSQLDatabase {
    public let connection: PostgreSQLConnection
    public let schema: String

    public init(connection: PostgreSQLConnection, schema: String = "public") {
        self.connection = connection
        self.schema = schema
    }

    public var catalog: PostgreSQLCatalog { PostgreSQLCatalog(connection: connection, schema: schema) }

    /// `"schema"."name"`.
    public func qualified(_ name: String) -> String { PostgreSQLTypes.qualified(name, schema: schema) }

    /// A table of the schema: its name, its row count and its name as SQL must write it
    /// (`quote_ident`: `"5mtp_qs2h"`, `"Name"`).
    public typealias Table = TableSummary

    /// The schema's tables, socload's catalog aside, by name.
    public func tables() throws -> [Table] {
        let names = try connection.execute("""
            SELECT c.relname, quote_ident(c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND c.relname NOT LIKE '\\_socload\\_%'
            ORDER BY c.relname COLLATE "C"
            """, [schema]).rows
        return try names.compactMap { row in
            guard let name = row[0] else { return nil }
            let count = try connection.value("SELECT count(*) FROM \(qualified(name))")
            return Table(name: name, rowCount: Int(count ?? "0") ?? 0, nameInSQL: row[1] ?? name)
        }
    }

    /// Runs one statement of the user's with `$1`, `$2`... bound to `parameters` (as text; the
    /// SQL is never rewritten). Unless `allowingChanges`, it runs in a READ ONLY transaction that
    /// is always rolled back, and COPY is refused: `PostgreSQLDatabaseError.changeRefused`. With
    /// `allowingChanges` it runs as sent, in its own transaction (so VACUUM works too).
    /// `columns` gets the result's column names before its first row (only for a statement
    /// that returns rows); each row goes to `row` as it arrives.
    @discardableResult
    public func run(_ sql: String, parameters: [String?] = [], allowingChanges: Bool = false,
                    columns onColumns: ([String]) -> Void = { _ in },
                    row: ([DatabaseValue]) throws -> Void) throws -> [String] {
        let convert = { (result: PostgreSQLRow) in
            try row((0..<result.count).map { PostgreSQLValues.databaseValue(result[$0], typeOID: result.columns[$0].typeOID) })
        }
        if allowingChanges {
            return try connection.query(sql, parameters, columns: { onColumns($0.map(\.name)) }, row: convert).map(\.name)
        }
        if Self.firstKeyword(of: sql) == "copy" { throw PostgreSQLDatabaseError.changeRefused }
        try connection.execute("BEGIN READ ONLY")
        do {
            let columns = try connection.query(sql, parameters, columns: { onColumns($0.map(\.name)) }, row: convert)
            try connection.execute("ROLLBACK")
            return columns.map(\.name)
        } catch let error as PostgreSQLError {
            _ = try? connection.execute("ROLLBACK")
            if error.sqlState == "25006" { throw PostgreSQLDatabaseError.changeRefused }
            throw error
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The statement's first word, lower-cased, comments and parentheses skipped.
    static func firstKeyword(of sql: String) -> String {
        var text = Substring(sql)
        while true {
            text = text.drop { $0.isWhitespace || $0 == "(" }
            if text.hasPrefix("--") {
                text = text.drop { $0 != "\n" }
            } else if text.hasPrefix("/*"), let end = text.range(of: "*/") {
                text = text[end.upperBound...]
            } else {
                break
            }
        }
        return String(text.prefix { $0.isLetter }).lowercased()
    }

    /// The tables of the schema whose foreign keys reference `table`.
    func referencingTables(_ table: String) throws -> [String] {
        try connection.execute("""
            SELECT DISTINCT c.relname::text FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
            WHERE k.contype = 'f' AND k.confrelid = to_regclass($1) AND k.conrelid <> k.confrelid
            """, [qualified(table)]).rows.compactMap { $0[0] }
    }

    /// Drops a loaded table (by name or dataset id) and its catalog entry in one transaction,
    /// never with CASCADE: a view of the user's on it stops the drop. Returns the table's name,
    /// or nil when neither the table nor an entry exists.
    public func drop(_ tableOrDatasetID: String) throws -> String? {
        try connection.execute("BEGIN")
        do {
            let entry = try catalog.entry(for: tableOrDatasetID, withDescription: false)
            let name = entry?.tableName ?? tableOrDatasetID
            if name.hasPrefix("_socload_") { throw ReadError.notALoadedTable(name, what: "socload's own table") }
            let exists = try connection.value("SELECT c.relkind IN ('r', 'p') FROM pg_class c WHERE c.oid = to_regclass($1)",
                                              [qualified(name)]) == "t"
            guard entry != nil || exists else {
                try connection.execute("ROLLBACK")
                return nil
            }
            // Its child tables (`socload load`) go with it, first (they reference it); glue and
            // lookup tables are shared and stay. What another table uses stops the drop.
            let plans = try catalog.recordedPlans()
            let children = try entry?.plan.map { plan in
                try DropRules.ownChildren(of: plan, plans: plans).filter { try referencingTables(name).contains($0.name) }
            } ?? []
            let ours = Set([name] + children.map(\.name))
            let users = Set(DropRules.users(of: name, plans: plans) + (try referencingTables(name).filter { !ours.contains($0) }))
            if !users.isEmpty { throw ReadError.inUse(name, by: users.sorted()) }
            for child in children {
                try connection.execute("DROP TABLE IF EXISTS \(qualified(child.name))")
            }
            if exists { try connection.execute("DROP TABLE \(qualified(name))") }
            try connection.execute("DROP TABLE IF EXISTS \(qualified(RowChangeSQL.fingerprintTables(of: name, dialect: dialect).kept))")
            if entry?.plan?.options?.keepsHistory == true {
                try connection.execute("DROP TABLE IF EXISTS \(qualified(HistorySQL.historyTable(of: name, dialect: dialect)))")
            }
            // The functions of its lookup counts' triggers (the lookup tables stay: ids are stable).
            for lookup in entry?.plan?.mainTable.lookups ?? [] {
                let function = qualified(PostgreSQLLookups.ownedName(table: name, lookup: lookup.table, "count"))
                try connection.execute("DROP FUNCTION IF EXISTS \(function)()")
            }
            if entry != nil { try catalog.remove(tableName: name) }
            // Its watch, as the last refresh judged it (`socload report`), goes with it.
            if try connection.value("SELECT to_regclass($1) IS NOT NULL", [dialect.table(WatchLog.tableName)]) == "t" {
                try connection.execute("DELETE FROM \(dialect.table(WatchLog.tableName)) WHERE \"table_name\" = $1", [name])
            }
            try connection.execute("COMMIT")
            return name
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }
}

/// A command refused in a PostgreSQL database.
public enum PostgreSQLDatabaseError: Error, Equatable, CustomStringConvertible {
    /// A read-only statement would have changed the database.
    case changeRefused

    public var description: String { "the statement would change the database" }
}
