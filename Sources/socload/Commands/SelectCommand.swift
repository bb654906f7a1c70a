import Foundation
import SocloadDatabase

/// `socload select TABLE`: filter a table without writing SQL; all conditions are AND-ed.
enum SelectCommand: Command {
    static let spec = CommandSpec(
        name: "select",
        abstract: "Print the rows of a table that match conditions, without writing SQL.",
        discussion: """
            Every condition option may repeat; all conditions are AND-ed. Values are bound, never
            spliced into SQL. --in col=a,b,c splits on commas; give the same column several --in
            options to take each value whole (values with commas), or --in col=@file for one value
            per line. An empty list is no condition. --contains ignores case and accents. A date-only
            --to bound (2015-10-29) includes that whole day.
            """,
        arguments: [ArgumentSpec(name: "table", help: "The table to read.")],
        options: [
            DatabaseOption.spec,
            .value("columns", "a,b,...", help: "Only these columns, in this order."),
            .value("eq", "col=value", help: "The column equals the value.", repeatable: true),
            .value("in", "col=a,b,c", help: "The column is one of the values (or col=@file, one per line).", repeatable: true),
            .value("contains", "col=text", help: "The column contains the text, ignoring case and accents.", repeatable: true),
            .value("from", "col=date", help: "The column is on or after the date (or timestamp).", repeatable: true),
            .value("to", "col=date", help: "The column is on or before the date (or timestamp).", repeatable: true),
            .value("null", "col", help: "The column is NULL.", repeatable: true),
            .value("order", "col,-col", help: "Sort by these columns; a leading - sorts descending."),
            .value("limit", "n", help: "At most N rows."),
            FormatOption.spec,
            .flag("sql", help: "Print the SQL and its bound values instead of running it."),
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let table = arguments.positionals[0]
        let predicate = try predicate(from: arguments)
        let columns = arguments.value("columns").map(list)
        let order = arguments.value("order").map(list) ?? []
        let limit = try LoadOptions.nonNegativeInteger(arguments, "limit", command: spec)
        let writer = arguments.flag("sql") ? nil : try FormatOption.writer(arguments, context, command: spec)
        let queue = try DatabaseOption.openExisting(arguments, context)
        try queue.read { db in
            let query: SQLFragment
            do {
                query = try db.selectQuery(from: table, columns: columns, where: predicate, orderBy: order, limit: limit)
            } catch let error as SelectError {
                if case .unknownTable = error { throw CommandFailure(error.description, exitCode: .noInput) }
                throw UsageError(error.description, command: spec)
            }
            guard let writer else {
                context.output.write(query.sql + "\n")
                context.output.write("-- arguments: [" + query.arguments.map(JSONWriter.literal).joined(separator: ", ") + "]\n")
                return
            }
            try db.write(sql: query.sql, arguments: StatementArguments(positional: query.arguments), to: writer)
        }
    }

    /// The AND of every condition option.
    static func predicate(from arguments: ParsedArguments) throws -> SocloadDatabase.Predicate {
        var parts: [SocloadDatabase.Predicate] = []
        for option in arguments.values("eq") {
            let (column, value) = try pair(option, "eq")
            parts.append(.equals(column, value))
        }
        for (column, values) in try inLists(arguments.values("in")) {
            parts.append(.in(column, values))
        }
        for option in arguments.values("contains") {
            let (column, text) = try pair(option, "contains")
            parts.append(.contains(column, text, caseInsensitive: true, diacriticInsensitive: true))
        }
        for option in arguments.values("from") {
            let (column, value) = try pair(option, "from")
            parts.append(.greaterThanOrEqual(column, value))
        }
        for option in arguments.values("to") {
            let (column, value) = try pair(option, "to")
            parts.append(.lessThanOrEqual(column, value))
        }
        for column in arguments.values("null") {
            parts.append(.isNull(column))
        }
        return .all(parts)
    }

    /// `--in` values per column, in the order the columns first appear. One option for a column
    /// splits on commas; several options for the same column each give one whole value.
    static func inLists(_ options: [String]) throws -> [(String, [String])] {
        var order: [String] = []
        var raw: [String: [String]] = [:]
        for option in options {
            let (column, value) = try pair(option, "in")
            if raw[column] == nil { order.append(column) }
            raw[column, default: []].append(value)
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

    private static func pair(_ option: String, _ name: String) throws -> (String, String) {
        guard let equals = option.firstIndex(of: "="), equals != option.startIndex else {
            throw UsageError("--\(name) takes COLUMN=VALUE, not '\(option)'", command: spec)
        }
        return (String(option[..<equals]), String(option[option.index(after: equals)...]))
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
