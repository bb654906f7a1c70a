import SocloadDatabase

/// `socload query SQL`: runs one statement and prints its rows.
enum QueryCommand: Command {
    static let spec = CommandSpec(
        name: "query",
        abstract: "Run one SQL statement and print its result.",
        discussion: """
            Values are bound, never spliced into the SQL: write ? (or :name) in the statement and
            give each value with --param, in order (or as --param :name=value).
            """,
        arguments: [ArgumentSpec(name: "sql", help: "The SQL statement to run.")],
        options: [
            DatabaseOption.spec,
            FormatOption.spec,
            .value("param", "value", help: "A value for the next ? parameter, or :name=value for a named one.",
                   repeatable: true),
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let sql = arguments.positionals[0]
        let parameters = parameters(arguments.values("param"))
        let writer = try FormatOption.writer(arguments, context, command: spec)
        let queue = try DatabaseOption.openExisting(arguments, context)
        try queue.inDatabase { db in
            try db.write(sql: sql, arguments: parameters, to: writer)
        }
    }

    /// `--param VALUE` binds the next `?`; `--param :name=VALUE` binds `:name`. Values are text;
    /// SQLite converts them where a column's type asks for a number.
    static func parameters(_ values: [String]) -> StatementArguments {
        var arguments = StatementArguments()
        for value in values {
            if value.hasPrefix(":"), let equals = value.firstIndex(of: "=") {
                let name = String(value[value.index(after: value.startIndex)..<equals])
                arguments.named[name] = .text(String(value[value.index(after: equals)...]))
            } else {
                arguments.positional.append(.text(value))
            }
        }
        return arguments
    }
}
