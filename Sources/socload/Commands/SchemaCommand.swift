import SocloadDatabase

/// `socload schema TABLE`: the CREATE statement and the columns with their types.
enum SchemaCommand: Command {
    static let spec = CommandSpec(
        name: "schema",
        abstract: "Print a table's CREATE statement and its columns with their types.",
        arguments: [ArgumentSpec(name: "table", help: "The table name.")],
        options: [DatabaseOption.spec])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let table = arguments.positionals[0]
        let queue = try DatabaseOption.openExisting(arguments, context)
        try queue.read { db in
            guard let create = try db.fetchOne(String.self, sql: "select sql from sqlite_schema where type = 'table' and name = ?",
                                               arguments: [table]) else {
                throw CommandFailure("no table '\(TerminalText.escaped(table))' in '\(queue.path)'", exitCode: .noInput)
            }
            let lines = create.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
            context.output.write(lines.joined(separator: "\n") + ";\n\n")
            let writer = TableWriter(output: context.output)
            try db.write(sql: "select name as column, type, \"notnull\" as not_null, pk as primary_key from pragma_table_info(?)",
                         arguments: [table], to: writer)
        }
    }
}
