import SocloadDatabase
import SocloadPostgreSQL

/// `socload tables`: the tables in the database with their row counts.
struct TablesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(name: "tables", abstract: "List the tables in the database with their row counts and their names as SQL needs them.")

    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()

    func run(context: CommandContext) throws {
        let writer = try output.writer(context, command: Self.spec)
        if let (connectionString, schema) = try database.postgreSQL(context, command: Self.spec) {
            let tables = try PostgreSQLDatabase(connection: database.connect(connectionString, context), schema: schema).tables()
            writer.begin(columns: ["table", "rows", "in_sql"])
            for table in tables {
                writer.write([.text(table.name), .integer(Int64(table.rowCount)), .text(table.nameInSQL)])
            }
            writer.finish()
            return
        }
        let queue = try database.openExisting(context, command: Self.spec)
        try queue.read { db in
            let names = try db.fetchAll(String.self, sql: """
                select name from sqlite_schema
                where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like '\\_socload\\_%' escape '\\'
                order by name
                """)
            // in_sql: the name as a query must write it ("5mtp_qs2h" needs its quotes).
            writer.begin(columns: ["table", "rows", "in_sql"])
            for name in names {
                let count = try db.fetchValue(sql: "select count(*) from \(name.quotedDatabaseIdentifier)") ?? .null
                writer.write([.text(name), count, .text(name.sqlIdentifier)])
            }
            writer.finish()
        }
    }
}
