import SocloadDatabase

/// `socload tables`: the tables in the database with their row counts.
enum TablesCommand: Command {
    static let spec = CommandSpec(
        name: "tables",
        abstract: "List the tables in the database with their row counts.",
        options: [DatabaseOption.spec, FormatOption.spec])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let writer = try FormatOption.writer(arguments, context, command: spec)
        let queue = try DatabaseOption.openExisting(arguments, context)
        try queue.read { db in
            let names = try db.fetchAll(String.self, sql: """
                select name from sqlite_schema
                where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like '\\_socload\\_%' escape '\\'
                order by name
                """)
            writer.begin(columns: ["table", "rows"])
            for name in names {
                let count = try db.fetchValue(sql: "select count(*) from \(name.quotedDatabaseIdentifier)") ?? .null
                writer.write([.text(name), count])
            }
            writer.finish()
        }
    }
}
