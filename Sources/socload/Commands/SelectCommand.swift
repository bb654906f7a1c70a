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
            throw UsageError(error.description, command: Self.spec)
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

    /// The AND of every condition option, for a table loaded with the plan `table` (nil: not
    /// loaded by socload). `--eq`, `--in` and `--contains` also take `RELATION.COLUMN`: a column
    /// of one of the table's lookups, through its foreign key. `--eq` on a timestamp column
    /// with a date (or any period) means `--on`: the instants stored there are never a bare day.
    func predicate(_ table: PlanTable? = nil) throws -> SocloadCore.RowFilter {
        let lookups = table?.lookups ?? []
        let timed = Set((table?.storedColumns ?? []).filter { $0.type == .timestamp || $0.type == .floatingTimestamp }
            .map { $0.name.lowercased() })
        func condition(_ column: String, _ make: (String) -> SocloadCore.RowFilter) throws -> SocloadCore.RowFilter {
            guard let (lookup, inner) = try Self.lookupColumn(column, lookups: lookups) else {
                // A name in double quotes, as in SQL, is the name inside them.
                var scanner = QuotedNameScanner(column, separators: [])
                if column.hasPrefix("\""), let name = scanner.name(), scanner.isAtEnd { return make(name) }
                return make(column)
            }
            return .related(lookup.foreignKey, to: lookup.table, key: PlanLookup.keyColumn, where: make(inner))
        }
        var parts: [SocloadCore.RowFilter] = []
        var periods = from + on
        var ends = to + on
        parts += try eq.compactMap { option in
            if timed.contains(option.column.lowercased()), let period = DatePeriod(option.value) {
                periods.append(ColumnPeriod(column: option.column, period: period))
                ends.append(ColumnPeriod(column: option.column, period: period))
                return nil
            }
            return try condition(option.column) { .equals($0, option.value) }
        }
        parts += try Self.inLists(oneOf).map { column, values in try condition(column) { .in($0, values) } }
        parts += try contains.map { option in
            try condition(option.column) { .contains($0, option.value, caseInsensitive: true, diacriticInsensitive: true) }
        }
        for bound in periods {
            parts.append(.greaterThanOrEqual(bound.column, bound.period.start))
        }
        // A period that ends after 9999 has no upper bound: every stored date is before it.
        for bound in ends {
            if let end = bound.period.end { parts.append(.lessThan(bound.column, end)) }
        }
        parts += null.map { .isNull($0) }
        return .all(parts)
    }

    /// `RELATION.COLUMN` (names quoted as in SQL when they hold a dot) where RELATION is one of
    /// the table's lookups: that lookup and its column. nil for a plain column name.
    static func lookupColumn(_ text: String, lookups: [PlanLookup]) throws -> (PlanLookup, String)? {
        guard !lookups.isEmpty, text.contains(".") else { return nil }
        var scanner = QuotedNameScanner(text, separators: ["."])
        guard let relation = scanner.name(), scanner.separator() == ".", let column = scanner.name(), scanner.isAtEnd,
              let lookup = lookups.first(where: { $0.table == relation }) ?? lookups.first(where: {
                  $0.table.lowercased() == relation.lowercased() }) else { return nil }
        return (lookup, column)
    }

    /// `--in` values per column, in the order the columns first appear. One option for a column
    /// splits on commas; several options for the same column each give one whole value.
    static func inLists(_ options: [ColumnValue]) throws -> [(String, [String])] {
        var order: [String] = []
        var raw: [String: [String]] = [:]
        for option in options {
            if raw[option.column] == nil { order.append(option.column) }
            raw[option.column, default: []].append(option.value)
        }
        return try order.map { column in
            let given = raw[column] ?? []
            var values: [String] = []
            for value in given {
                if value.hasPrefix("@") {
                    values += try lines(ofFile: String(value.dropFirst()))
                } else if given.count == 1 {
                    values += value.isEmpty ? [] : value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                } else {
                    values.append(value)
                }
            }
            return (column, values)
        }
    }

    /// One value per line (LF or CRLF); blank lines are skipped.
    static func lines(ofFile path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read the values file '\(path)'", exitCode: .noInput)
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }
}
