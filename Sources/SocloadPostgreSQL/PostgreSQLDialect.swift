import SocloadCore

/// PostgreSQL's SQL for what the core writes once: tables qualified by the schema, `$n`
/// placeholders, booleans and instants measured as integers and ISO-8601 text, values compared
/// as text.
public struct PostgreSQLDialect: SQLDialect {
    public let schema: String

    public init(schema: String) {
        self.schema = schema
    }

    public func table(_ name: String) -> String { PostgreSQLTypes.qualified(name, schema: schema) }

    public func placeholder(_ position: Int) -> String { "$\(position)" }

    /// Booleans have no min() or max(); timestamps are compared as ISO-8601 text.
    public func measured(_ column: String, type: LogicalType) -> String {
        switch type {
        case .boolean: return "\(column)::int"
        case .timestamp: return "to_char(\(column), 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        case .floatingTimestamp: return "to_char(\(column), 'YYYY-MM-DD\"T\"HH24:MI:SS.MS')"
        default: return column
        }
    }

    public func comparable(_ column: String) -> String { "\(column)::text" }

    public func text(_ expression: String) -> String { "(\(expression))::text" }

    public func nullStandIn(_ type: LogicalType) -> String {
        switch type {
        case .text, .geometry: return "''"
        case .integer, .decimal, .double: return "0"
        case .boolean: return "false"
        case .timestamp: return "'epoch'::timestamptz"
        case .floatingTimestamp: return "'epoch'::timestamp"
        case .date: return "'epoch'::date"
        case .json: return "'null'::jsonb"
        }
    }

    public var maximumNameBytes: Int? { PostgreSQLTypes.maximumNameBytes }
    public func declaredType(_ type: LogicalType) -> String { PostgreSQLTypes.declaredType(type) }
    public var flagType: String { "smallint" }
    public var namesIgnoreCase: Bool { false }

    /// `lower()` for case and `unaccent()` for accents (only offered where the database has
    /// the extension: socload never installs one).
    public func folded(_ column: String, _ options: TextFolding.Options) -> String {
        var expression = comparable(column)
        if options.contains(.diacriticInsensitive) { expression = "unaccent(\(expression))" }
        if options.contains(.caseInsensitive) { expression = "lower(\(expression))" }
        return expression
    }

    public func position(of needle: String, in text: String) -> String { "strpos(\(text), \(needle))" }

    public func fullTextSearch(table: String, query: FullTextQuery, placeholder: Int) -> FullTextClause {
        PostgreSQLFullText.search(table: table, schema: schema, query: query, placeholder: placeholder)
    }

    public func hasFullTextIndex(table: String, columns: [String], columnsOf: (String) throws -> [String]) throws -> Bool {
        columns.contains(PlanFullText.postgreSQLColumn)
    }

    public var fullTextColumn: String? { PlanFullText.postgreSQLColumn }
    public func suffix(of text: String, length: String) -> String { "right(\(text), (\(length))::int)" }

    /// Rows are found by their key.
    public func insertionOrder(of alias: String) -> String? { nil }
    public var joinsThroughIndexes: Bool { false }

    public func columnToTextStatement(table: String, column: String) -> String? {
        "ALTER TABLE \(self.table(table)) ALTER COLUMN \(column.quotedDatabaseIdentifier) TYPE text"
    }

    /// `jsonb_build_object()` in pieces of 50 members (a function takes 100 arguments), joined
    /// with `||`, as text.
    /// A `timestamptz` as the ISO-8601 text SQLite keeps, `Z` for UTC (the session's time zone
    /// is UTC): `2015-02-10T11:28:27Z`, not `+00:00`.
    public func jsonValue(_ expression: String, type: LogicalType) -> String {
        guard type == .timestamp else { return expression }
        return "regexp_replace(to_jsonb(\(expression)) #>> '{}', '\\+00:00$', 'Z')"
    }

    public func jsonObject(_ members: [(name: String, value: String)]) -> String {
        let pieces = stride(from: 0, to: max(members.count, 1), by: 50).map { start in
            "jsonb_build_object(" + members[start..<min(start + 50, members.count)]
                .map { "\($0.name.sqlStringLiteral)::text, \($0.value)" }.joined(separator: ", ") + ")"
        }
        return "(" + pieces.joined(separator: " || ") + ")::text"
    }
}
