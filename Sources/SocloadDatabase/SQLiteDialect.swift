import SocloadCore

/// SQLite's SQL: `?` placeholders, values compared as stored.
public struct SQLiteDialect: SQLDialect {
    public init() {}
    public func table(_ name: String) -> String { name.quotedDatabaseIdentifier }
    public func placeholder(_ position: Int) -> String { "?" }
    public func measured(_ column: String, type: LogicalType) -> String { column }
    public func comparable(_ column: String) -> String { column }
    public func text(_ expression: String) -> String { expression }
    public func nullStandIn(_ type: LogicalType) -> String { "0" }
    public var maximumNameBytes: Int? { nil }
    public var flagType: String { "INTEGER" }
    public var namesIgnoreCase: Bool { true }

    /// Through the `fold()` function socload registers on every connection it opens.
    public func folded(_ column: String, _ options: TextFolding.Options) -> String {
        options.isEmpty ? column : "fold(\(column), \(options.rawValue))"
    }

    public func position(of needle: String, in text: String) -> String { "instr(\(text), \(needle))" }
    public func suffix(of text: String, length: String) -> String { "substr(\(text), -\(length))" }
    public func insertionOrder(of alias: String) -> String? { "\(alias).rowid" }
    public var joinsThroughIndexes: Bool { true }
    public func columnToTextStatement(table: String, column: String) -> String? { nil }

    /// The FTS5 table's matches joined by rowid, ranked by bm25 (smaller is better); in a
    /// subquery, so that the table's columns keep their names unqualified.
    public func fullTextSearch(table: String, query: FullTextQuery, placeholder: Int) -> FullTextClause {
        let index = PlanFullText.sqliteTable(of: table).quotedDatabaseIdentifier
        return FullTextClause(
            join: "JOIN (SELECT rowid AS \"_socload_match\", bm25(\(index)) AS \"_socload_rank\" FROM \(index) "
                + "WHERE \(index) MATCH ?) AS \"_socload_search\" ON \"_socload_search\".\"_socload_match\" = \(self.table(table)).rowid",
            condition: "", rank: "\"_socload_search\".\"_socload_rank\"", argument: .text(query.fts5Query))
    }

    public func hasFullTextIndex(table: String, columns: [String], columnsOf: (String) throws -> [String]) throws -> Bool {
        try !columnsOf(PlanFullText.sqliteTable(of: table)).isEmpty
    }

    public var fullTextColumn: String? { nil }

    /// `json_object()` in pieces of 60 members (Debian's SQLite takes 127 arguments), spliced as
    /// text: each piece's closing and opening brace are cut where they meet (the members' values
    /// are scalars, so the brace cut is the object's own).
    /// A boolean (stored 0 or 1) as JSON's `true` or `false`, as PostgreSQL writes it; a number
    /// with the fewest significant digits that give back the stored double (SQLite's JSON writes
    /// 15 always, which rounds `40.81688745834867` to `40.8168874583487`).
    public func jsonValue(_ expression: String, type: LogicalType) -> String {
        switch type {
        case .boolean:
            return "json(CASE WHEN \(expression) IS NULL THEN 'null' WHEN \(expression) THEN 'true' ELSE 'false' END)"
        case .double, .decimal:
            // The fewest digits, of 15, 16 and 17, that give the double back (as PostgreSQL writes it).
            let digits = [15, 16].map { "WHEN CAST(printf('%!.\($0)g', \(expression)) AS REAL) = \(expression) "
                + "THEN printf('%!.\($0)g', \(expression))" }.joined(separator: " ")
            return "CASE WHEN typeof(\(expression)) = 'real' THEN json(CASE \(digits) ELSE printf('%!.17g', \(expression)) END) "
                + "ELSE \(expression) END"
        default:
            return expression
        }
    }

    public func jsonObject(_ members: [(name: String, value: String)]) -> String {
        let pieces = stride(from: 0, to: max(members.count, 1), by: 60).map { start in
            "json_object(" + members[start..<min(start + 60, members.count)]
                .map { "\($0.name.sqlStringLiteral), \($0.value)" }.joined(separator: ", ") + ")"
        }
        guard pieces.count > 1 else { return pieces[0] }
        return pieces.enumerated().map { index, piece in
            index == 0 ? "rtrim(\(piece), '}')" : index == pieces.count - 1 ? "ltrim(\(piece), '{')"
                : "trim(\(piece), '{}')"
        }.joined(separator: " || ',' || ")
    }

    /// The declared type gives the column its affinity.
    public func declaredType(_ type: LogicalType) -> String {
        switch type {
        case .text, .timestamp, .floatingTimestamp, .date, .json, .geometry: return "TEXT"
        case .integer, .boolean: return "INTEGER"
        case .decimal: return "NUMERIC"
        case .double: return "REAL"
        }
    }
}
