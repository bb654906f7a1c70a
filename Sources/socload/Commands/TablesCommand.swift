import SocloadCore

/// `socload tables`: the tables in the database with their row counts.
struct TablesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(name: "tables", abstract: "List the tables in the database with their row counts and their names as SQL needs them.")

    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()

    func run(context: CommandContext) throws {
        let writer = output.writer(context)
        let tables = try database.openLoaded(context, command: Self.spec).tables()
        // in_sql: the name as a query must write it ("5mtp_qs2h" needs its quotes).
        writer.begin(columns: ["table", "rows", "in_sql"])
        for table in tables {
            writer.write([.text(table.name), .integer(Int64(table.rowCount)), .text(table.nameInSQL)])
        }
        writer.finish()
    }
}
