import SocloadDatabase
import SocloadPostgreSQL

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

    @Argument(name: "sql", help: "The SQL statement to run.") var sql: String?
    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()
    @RepeatedOption(valueName: "value", help: "A value for the next ? parameter, or :name=value for a named one.")
    var param: [String]
    @Flag(help: "Allow the statement to change the database.") var write: Bool
    @Option(valueName: "seconds", help: "Cancel the statement after this many seconds (exit 75).") var timeout: Seconds?

    func run(context: CommandContext) throws {
        context.statements.timeout = timeout?.value
        let writer = try output.writer(context, command: Self.spec)
        if let (connectionString, schema) = try database.postgreSQL(context, command: Self.spec) {
            return try runInPostgreSQL(connectionString, schema: schema, writer: writer, context: context)
        }
        let queue = try database.openExisting(context, command: Self.spec, acceptsChanges: write)
        do {
            try queue.inDatabase { db in
                try db.write(sql: sql ?? "", arguments: Self.parameters(param), to: writer)
            }
            if write { queue.checkpoint() }
        } catch let error as DatabaseError where error.isNotAuthorized && !write {
            throw CommandFailure("query is read-only and this statement would change the database "
                                 + "(pass --write to allow it): \(sql ?? "")", exitCode: .noPermission)
        }
        catch let error as DatabaseError where error.isArgumentMismatch {
            throw UsageError("--param: \(error.message)", command: Self.spec)
        }
        catch let error as DatabaseError {
            throw Self.withQuotingHint(error)
        }
    }

    private func runInPostgreSQL(_ connectionString: PostgreSQLConnectionString, schema: String,
                                 writer: any ResultWriter, context: CommandContext) throws {
        if let named = param.first(where: { $0.hasPrefix(":") && $0.contains("=") }) {
            throw UsageError("PostgreSQL takes $1, $2... placeholders: give --param values in order, not '\(named)'",
                             command: Self.spec)
        }
        let database = PostgreSQLDatabase(connection: try database.connect(connectionString, context), schema: schema)
        // The schema first; public after it, where extensions such as PostGIS usually live.
        try database.connection.execute("SELECT set_config('search_path', $1, false)", [schema.quotedDatabaseIdentifier + ", public"])
        var begun = false
        do {
            try database.run(sql ?? "", parameters: param, allowingChanges: write, columns: { names in
                begun = true
                writer.begin(columns: names)
            }, row: writer.write)
            if begun { writer.finish() }
        } catch let error as PostgreSQLError where error.sqlState == "08P01" && error.message.contains("bind message supplies") {
            throw UsageError("--param: \(error.message)", command: Self.spec)
        } catch PostgreSQLDatabaseError.changeRefused {
            throw CommandFailure("query is read-only and this statement would change the database "
                                 + "(pass --write to allow it): \(sql ?? "")", exitCode: .noPermission)
        }
    }

    /// SQLite reads `5mtp_qs2h` (a table named after a 4x4 id) as a malformed number: the error
    /// says how to write the name.
    static func withQuotingHint(_ error: DatabaseError) -> any Error {
        let prefix = "unrecognized token: \""
        guard error.message.hasPrefix(prefix), error.message.hasSuffix("\"") else { return error }
        let token = String(error.message.dropFirst(prefix.count).dropLast())
        guard let first = token.unicodeScalars.first, ("0"..."9").contains(first),
              token.unicodeScalars.contains(where: { !("0"..."9").contains($0) && $0 != "." }) else { return error }
        return CommandFailure(error.description + "; a name that starts with a digit is written in double quotes: "
                              + token.quotedDatabaseIdentifier, exitCode: .ioError)
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
