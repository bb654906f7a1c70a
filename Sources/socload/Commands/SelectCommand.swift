import Foundation
import SocloadCore

/// `socload select TABLE`: filter a table without writing SQL; all conditions are AND-ed.
struct SelectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "select",
        abstract: "Print the rows of a table that match conditions, without writing SQL.",
        discussion: """
            Every condition option may repeat; all conditions are AND-ed. Values are bound, never
            spliced into SQL. --in col=a,b,c splits on commas; give the same column several --in
            options to take each value whole (values with commas), or --in col=@file for one value
            per line. An empty list is no condition. --contains ignores case and accents.

            --from, --to and --on take a date or timestamp as people write it, which names a period:
            2014 is all of 2014, 2014-06 all of June, 2014-06-15 that day, 2014-06-15T10:30 that
            minute. --from is on or after its start, --to on or before its end, --on within it
            (--from d=2014-06 --to d=2014-06 is all of June). Periods are read in UTC for fixed
            timestamp columns (stored with Z) and as written for floating ones. On a timestamp
            column, --eq with a date is --on: --eq day=2014-06-16 is that whole day.

            In PostgreSQL, --contains ignores accents only where the database has the unaccent
            extension (socload never installs one: CREATE EXTENSION unaccent); without it, it
            ignores case only.

            --search WORDS finds the rows that have every word (in any order, in any of the indexed
            columns, ignoring case and accents) in the full-text index fetch or load --fts built, best
            matches first (with --order, the rank breaks ties). A word is a run of letters and digits:
            "O'Brien" is o and brien, on both databases.
            """)

    @Argument(name: "table", help: "The table to read.") var table: String
    @OptionGroup var database = DatabaseOptions()
    @Option(valueName: "a,b,...", help: "Only these columns, in this order.") var columns: ColumnList?
    @RepeatedOption(valueName: "col=value", help: "The column equals the value (on a timestamp column a date means --on).")
    var eq: [ColumnValue]
    @RepeatedOption(name: "in", valueName: "col=a,b,c", help: "The column is one of the values (or col=@file, one per line).")
    var oneOf: [ColumnValue]
    @RepeatedOption(valueName: "col=text", help: "The column contains the text, ignoring case and accents.")
    var contains: [ColumnValue]
    @RepeatedOption(valueName: "col=date", help: "The column is on or after the start of the date's period.") var from: [ColumnPeriod]
    @RepeatedOption(valueName: "col=date", help: "The column is on or before the end of the date's period.") var to: [ColumnPeriod]
    @RepeatedOption(valueName: "col=date", help: "The column is within the date's period (2014, 2014-06, 2014-06-15...).")
    var on: [ColumnPeriod]
    @RepeatedOption(valueName: "col", help: "The column is NULL.") var null: [String]
    @Option(valueName: "words", help: "Rows with every one of these words in the table's full-text index (--fts), best first.")
    var search: String?
    @Option(valueName: "col,-col", help: "Sort by these columns; a leading - sorts descending.") var order: ColumnList?
    @Option(valueName: "n", help: "At most N rows.") var limit: Int?
    @OptionGroup var output = FormatOptions()
    @Flag(help: "Print the SQL and its bound values instead of running it.") var sql: Bool
    @Option(valueName: "seconds", help: "Cancel the statement after this many seconds (exit 75).") var timeout: Seconds?

    func run(context: CommandContext) throws {
        context.statements.timeout = timeout?.value
        let writer = sql ? nil : output.writer(context)
        let loaded = try database.openLoaded(context, command: Self.spec)
        let table = try database.loadedName(table, in: loaded)
        let database = loaded
        if search != nil, !database.containsIgnoresAccents {
            StandardError.line("Note: this database has no unaccent extension, so --search matches accents as written "
                               + "(CREATE EXTENSION unaccent, as a superuser, then a refresh makes it match as in SQLite)")
        }
        if !contains.isEmpty, !database.containsIgnoresAccents {
            StandardError.line("Note: this database has no unaccent extension, so --contains ignores case but not accents "
                               + "(CREATE EXTENSION unaccent, as a superuser, makes it match as in SQLite)")
        }
        var request = SelectRequest(table: table, columns: columns?.names, predicate: try predicate(database.planTable(named: table)),
                                    orderBy: order?.names ?? [], limit: limit)
        if let search {
            guard let query = FullTextQuery(search) else {
                throw UsageError("--search \(TerminalText.escaped(search)): no word to search for (letters or digits)", command: Self.spec)
            }
            request.search = query
        }
        let statement: SQLFragment
        do {
            statement = try database.selectStatement(request)
        } catch let error as SelectError {
            if case .unknownTable = error { throw CommandFailure(error.description, exitCode: .noInput) }
            throw UsageError(error.description + (try Self.lookupHint(error, plan: database.planTable(named: table))), command: Self.spec)
        }
        guard let writer else {
            context.output.write(statement.sql + "\n")
            context.output.write("-- arguments: [" + statement.arguments.map(JSONWriter.literal).joined(separator: ", ") + "]\n")
            return
        }
        var begun = false
        try database.read(statement, columns: { names in
            begun = true
            writer.begin(columns: names)
        }, row: writer.write)
        if begun { writer.finish() }
    }
}
