import SocloadCore

/// `socload schema TABLE`: the CREATE statements (table, indexes, triggers) and the columns with
/// their types, key and logical types.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "schema", abstract: "Print a table's CREATE statement and its columns with their types.")

    @Argument(name: "table", help: "The table name.") var table: String
    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()

    func run(context: CommandContext) throws {
        let format = OutputFormat.resolve(output.format, output: context.output)
        let loaded = try database.openLoaded(context, command: Self.spec)
        let table = try database.loadedName(table, in: loaded)
        let database = loaded
        let statements = try database.definition(of: table)
        guard !statements.isEmpty else {
            throw CommandFailure("no table '\(TerminalText.escaped(table))' in \(database.place)", exitCode: .noInput)
        }
        // The statements are for reading: the table format shows them above the columns; the
        // other formats hold one record shape, the columns.
        if format == .table {
            let lines = statements.map { statement in
                statement.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
                    .joined(separator: "\n") + ";"
            }
            context.output.write(lines.joined(separator: "\n") + "\n\n")
        }
        // The logical types come from the plan socload recorded.
        let plan = try database.planTable(named: table)
        let writer = format.makeWriter(output: context.output)
        writer.begin(columns: ["column", "type", "not_null", "primary_key", "logical_type"])
        for column in try database.columns(of: table) {
            writer.write([.text(column.name), .text(column.type), .integer(column.notNull ? 1 : 0), .integer(Int64(column.keyPosition)),
                          plan?.storedColumn(named: column.name).map { .text($0.type.rawValue) } ?? .null])
        }
        writer.finish()
    }
}
