import SocloadCore

/// `socload query SQL`: runs one statement and prints its rows.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "query",
        abstract: "Run one SQL statement and print its result.",
        discussion: """
            Values are bound, never spliced into the SQL: write ? (or :name) in the statement and
            give each value with --param, in order (or as --param :name=value).

            The database is read-only unless --write is given: a statement that would change it
            (INSERT, DELETE, DROP, ATTACH, VACUUM INTO, a PRAGMA that sets something) is refused
            with exit 77 before it runs. To remove a loaded table, use socload drop.

            In a PostgreSQL database (--db postgresql://...) the statement is PostgreSQL's own, as
            written: placeholders are $1, $2 (given with --param, in order), and nothing in it is
            rewritten (? is a jsonb operator there, :: a cast). Without --write it runs in a READ
            ONLY transaction that is rolled back, and COPY is refused.
            """)

    @Argument(name: "sql", help: "The SQL statement to run.") var sql: String
    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()
    @RepeatedOption(valueName: "value", help: "A value for the next ? parameter, or :name=value for a named one.")
    var param: [String]
    @Flag(help: "Allow the statement to change the database.") var write: Bool
    @Option(valueName: "seconds", help: "Cancel the statement after this many seconds (exit 75).") var timeout: Seconds?

    func run(context: CommandContext) throws {
        context.statements.timeout = timeout?.value
        let writer = output.writer(context)
        let database = try database.openLoaded(context, command: Self.spec, acceptsChanges: write)
        var begun = false
        do {
            try database.runUserStatement(sql, parameters: Self.parameters(param), allowingChanges: write, columns: { names in
                begun = true
                writer.begin(columns: names)
            }, row: writer.write)
            if begun { writer.finish() }
        } catch ReadError.changeRefused {
            throw CommandFailure("query is read-only and this statement would change the database "
                                 + "(pass --write to allow it): \(sql)", exitCode: .noPermission)
        } catch ReadError.parameters(let message) {
            throw UsageError(message.hasPrefix("PostgreSQL takes") ? message : "--param: \(message)", command: Self.spec)
        }
    }

    /// `--param VALUE` binds the next `?`; `--param :name=VALUE` binds `:name`. Values are text;
    /// SQLite converts them where a column's type asks for a number.
    static func parameters(_ values: [String]) -> UserParameters {
        var parameters = UserParameters()
        for value in values {
            if value.hasPrefix(":"), let equals = value.firstIndex(of: "=") {
                let name = String(value[value.index(after: value.startIndex)..<equals])
                parameters.named[name] = String(value[value.index(after: equals)...])
            } else {
                parameters.positional.append(value)
            }
        }
        return parameters
    }
}
