import SocloadDatabase
import SocloadSQLite
import SocloadPostgreSQL

/// `socload schema TABLE`: the CREATE statements (table, indexes, triggers) and the columns with
/// their types, key and logical types.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "schema", abstract: "Print a table's CREATE statement and its columns with their types.")

    @Argument(name: "table", help: "The table name.") var tableName: String?
    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()

    func run(context: CommandContext) throws {
        let table = tableName ?? ""
        let format = try OutputFormat.resolve(output.format, output: context.output, command: Self.spec)
        if let database = try database.openPostgreSQL(context, command: Self.spec) {
            return try run(in: database, table: table, format: format, context: context)
        }
        let queue = try database.openExisting(context, command: Self.spec)
        try queue.read { db in
            guard let create = try db.fetchOne(String.self, sql: "select sql from sqlite_schema where type = 'table' and name = ?",
                                               arguments: [table]) else {
                throw CommandFailure("no table '\(TerminalText.escaped(table))' in '\(queue.path)'", exitCode: .noInput)
            }
            // The table, then its indexes and triggers (the key is a unique index built after the rows).
            let others = try db.fetchAll(String.self, sql: """
                select sql from sqlite_schema where tbl_name = ? and type in ('index', 'trigger') and sql is not null
                order by type, name
                """, arguments: [table])
            let lines = ([create] + others).map { statement in
                statement.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
                    .joined(separator: "\n") + ";"
            }
            // The statements are for reading: the table format shows them above the columns; the
            // other formats hold one record shape, the columns.
            if format == .table { context.output.write(lines.joined(separator: "\n") + "\n\n") }
            // The key and logical types come from the plan socload recorded: the key is a unique
            // index there, which pragma table_info does not call a primary key.
            let plan = try SQLiteCatalog(db: db).planTable(named: table)
            let writer = format.makeWriter(output: context.output)
            writer.begin(columns: ["column", "type", "not_null", "primary_key", "logical_type"])
            for row in try db.fetchRows(sql: "select name, type, \"notnull\", pk from pragma_table_info(?)", arguments: [table]) {
                guard case .text(let name) = row[0] else { continue }
                let column = plan?.storedColumn(named: name)
                var key = row[3]
                if let plan {
                    let position = plan.primaryKey.firstIndex { $0.lowercased() == name.lowercased() }
                    key = .integer(Int64(position.map { $0 + 1 } ?? 0))
                }
                writer.write([row[0], row[1], row[2], key, column.map { .text($0.type.rawValue) } ?? .null])
            }
            writer.finish()
        }
    }

    /// The same for a PostgreSQL table: its DDL as PostgreSQL has it, then its columns.
    private func run(in database: PostgreSQLDatabase, table: String, format: OutputFormat, context: CommandContext) throws {
        let statements = try database.definition(of: table)
        guard !statements.isEmpty else {
            throw CommandFailure("no table '\(TerminalText.escaped(table))' in \(self.database.postgreSQLDescription(context))",
                                 exitCode: .noInput)
        }
        if format == .table {
            let lines = statements.map { statement in
                statement.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
                    .joined(separator: "\n") + ";"
            }
            context.output.write(lines.joined(separator: "\n") + "\n\n")
        }
        let plan = try database.catalog.planTable(named: table)
        let key = try database.primaryKey(of: table)
        let writer = format.makeWriter(output: context.output)
        writer.begin(columns: ["column", "type", "not_null", "primary_key", "logical_type"])
        for column in try database.columns(of: table) {
            let position = key.firstIndex(of: column.name).map { $0 + 1 } ?? 0
            writer.write([.text(column.name), .text(column.type), .integer(column.notNull ? 1 : 0), .integer(Int64(position)),
                          plan?.storedColumn(named: column.name).map { .text($0.type.rawValue) } ?? .null])
        }
        writer.finish()
    }
}
