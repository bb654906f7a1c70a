import Foundation
import SocloadDatabase
import SocloadSQLite
import SocloadPostgreSQL

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
            timestamp columns (stored with Z) and as written for floating ones.

            In PostgreSQL, --contains ignores accents only where the database has the unaccent
            extension (socload never installs one: CREATE EXTENSION unaccent); without it, it
            ignores case only.
            """)

    @Argument(name: "table", help: "The table to read.") var table: String?
    @OptionGroup var database = DatabaseOptions()
    @Option(valueName: "a,b,...", help: "Only these columns, in this order.") var columns: ColumnList?
    @RepeatedOption(valueName: "col=value", help: "The column equals the value.") var eq: [ColumnValue]
    @RepeatedOption(name: "in", valueName: "col=a,b,c", help: "The column is one of the values (or col=@file, one per line).")
    var oneOf: [ColumnValue]
    @RepeatedOption(valueName: "col=text", help: "The column contains the text, ignoring case and accents.")
    var contains: [ColumnValue]
    @RepeatedOption(valueName: "col=date", help: "The column is on or after the start of the date's period.") var from: [ColumnPeriod]
    @RepeatedOption(valueName: "col=date", help: "The column is on or before the end of the date's period.") var to: [ColumnPeriod]
    @RepeatedOption(valueName: "col=date", help: "The column is within the date's period (2014, 2014-06, 2014-06-15...).")
    var on: [ColumnPeriod]
    @RepeatedOption(valueName: "col", help: "The column is NULL.") var null: [String]
    @Option(valueName: "col,-col", help: "Sort by these columns; a leading - sorts descending.") var order: ColumnList?
    @Option(valueName: "n", help: "At most N rows.") var limit: Int?
    @OptionGroup var output = FormatOptions()
    @Flag(help: "Print the SQL and its bound values instead of running it.") var sql: Bool

    func run(context: CommandContext) throws {
        let table = self.table ?? ""
        let predicate = try predicate()
        let writer = sql ? nil : try output.writer(context, command: Self.spec)
        if let database = try database.openPostgreSQL(context, command: Self.spec) {
            return try run(in: database, table: table, predicate: predicate, writer: writer, context: context)
        }
        let queue = try database.openExisting(context, command: Self.spec)
        try queue.read { db in
            let query: SQLFragment
            do {
                query = try db.selectQuery(from: table, columns: columns?.names, where: predicate, orderBy: order?.names ?? [],
                                           limit: limit, timestampForms: try SQLiteCatalog(db: db).timestampForms(of: table))
            } catch let error as SelectError {
                if case .unknownTable = error { throw CommandFailure(error.description, exitCode: .noInput) }
                throw UsageError(error.description, command: Self.spec)
            }
            guard let writer else {
                context.output.write(query.sql + "\n")
                context.output.write("-- arguments: [" + query.arguments.map(JSONWriter.literal).joined(separator: ", ") + "]\n")
                return
            }
            try db.write(sql: query.sql, arguments: StatementArguments(positional: query.arguments), to: writer)
        }
    }

    private func run(in database: PostgreSQLDatabase, table: String, predicate: SocloadDatabase.Predicate,
                     writer: (any ResultWriter)?, context: CommandContext) throws {
        let query: (sql: String, parameters: [String?])
        do {
            query = try database.selectQuery(from: table, columns: columns?.names, where: predicate,
                                             orderBy: order?.names ?? [], limit: limit)
        } catch let error as SelectError {
            if case .unknownTable = error { throw CommandFailure(error.description, exitCode: .noInput) }
            throw UsageError(error.description, command: Self.spec)
        }
        guard let writer else {
            context.output.write(query.sql + "\n")
            context.output.write("-- arguments: [" + query.parameters.map { $0.map { JSONWriter.literal(.text($0)) } ?? "null" }
                .joined(separator: ", ") + "]\n")
            return
        }
        var begun = false
        try database.run(query.sql, parameters: query.parameters, columns: { names in
            begun = true
            writer.begin(columns: names)
        }, row: writer.write)
        if begun { writer.finish() }
    }

    /// The AND of every condition option.
    func predicate() throws -> SocloadDatabase.Predicate {
        var parts: [SocloadDatabase.Predicate] = []
        parts += eq.map { .equals($0.column, $0.value) }
        parts += try Self.inLists(oneOf).map { .in($0.0, $0.1) }
        parts += contains.map { .contains($0.column, $0.value, caseInsensitive: true, diacriticInsensitive: true) }
        for bound in from + on {
            parts.append(.greaterThanOrEqual(bound.column, bound.period.start))
        }
        // A period that ends after 9999 has no upper bound: every stored date is before it.
        for bound in to + on {
            if let end = bound.period.end { parts.append(.lessThan(bound.column, end)) }
        }
        parts += null.map { .isNull($0) }
        return .all(parts)
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

/// `column=value`, as the condition options take it.
struct ColumnValue: ExpressibleByArgument {
    let column: String
    let value: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else { return nil }
        column = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
    }

    static var expectation: String { "COLUMN=VALUE" }
}

/// `column=date` for the date options: the date is read as the period it names (`DatePeriod`);
/// anything else is a usage error naming the forms.
struct ColumnPeriod: ExpressibleByArgument {
    let column: String
    let period: DatePeriod

    init?(argument: String) {
        guard let pair = ColumnValue(argument: argument), let period = DatePeriod(pair.value) else { return nil }
        column = pair.column
        self.period = period
    }

    static var expectation: String { "COLUMN=DATE with a date or timestamp such as \(DatePeriod.forms)" }
}

/// `a,b,c`: column names (blanks dropped).
struct ColumnList: ExpressibleByArgument {
    let names: [String]

    init?(argument: String) {
        names = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static var expectation: String { "column names separated by commas" }
}
