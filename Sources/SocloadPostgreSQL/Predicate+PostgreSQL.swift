import SocloadCore

/// A `Predicate` in PostgreSQL's dialect: `$n` placeholders bound as text (the server reads
/// each as its column's type), dates of `DatePeriod` form spelled out in full for date and
/// timestamp columns, and text matching folded with `lower()` and, where the database has the
/// `unaccent` extension, `unaccent()` (socload never installs an extension itself).
public struct PostgreSQLPredicateWriter {
    /// The logical type of each column, from the catalog's plan (compared with dates by type).
    public var columnTypes: [String: LogicalType]
    /// True when `unaccent()` can be called: `--contains` then ignores accents, as on SQLite.
    public var foldsAccents: Bool
    /// The values for `$1`, `$2`...
    public private(set) var parameters: [String?] = []

    /// The schema of the tables a `related` predicate names (nil: the search path's).
    public var schema: String?

    public init(columnTypes: [String: LogicalType], foldsAccents: Bool, schema: String? = nil, firstParameters: [String?] = []) {
        self.columnTypes = columnTypes
        self.foldsAccents = foldsAccents
        self.schema = schema
        parameters = firstParameters
    }

    /// The condition, or nil when the predicate is no condition.
    public mutating func condition(_ predicate: Predicate) -> String? {
        switch predicate {
        case let .comparison(column, op, value):
            let name = column.quotedDatabaseIdentifier
            if op == .lessOrEqual, let end = upperBound(value, column: column) {
                return "\(name) < \(bind(end, column: column))"
            }
            return "\(name) \(op.rawValue) \(bind(value, column: column))"
        case let .isIn(column, values):
            guard !values.isEmpty else { return nil }
            return "\(column.quotedDatabaseIdentifier) IN (\(values.map { bind($0, column: column) }.joined(separator: ", ")))"
        case let .between(column, lower, upper):
            let name = column.quotedDatabaseIdentifier
            if let end = upperBound(upper, column: column) {
                return "\(name) >= \(bind(lower, column: column)) AND \(name) < \(bind(end, column: column))"
            }
            return "\(name) BETWEEN \(bind(lower, column: column)) AND \(bind(upper, column: column))"
        case let .isNull(column):
            return "\(column.quotedDatabaseIdentifier) IS NULL"
        case let .textMatch(column, kind, text, options):
            var folding = options
            if !foldsAccents { folding.remove(.diacriticInsensitive) }
            var expression = "\(column.quotedDatabaseIdentifier)::text"
            if folding.contains(.diacriticInsensitive) { expression = "unaccent(\(expression))" }
            if folding.contains(.caseInsensitive) { expression = "lower(\(expression))" }
            let folded = TextFolding.fold(text, folding)
            let placeholder = bind(.text(folded), column: nil)
            switch kind {
            case .contains: return "strpos(\(expression), \(placeholder)::text) > 0"
            case .beginsWith: return "strpos(\(expression), \(placeholder)::text) = 1"
            case .endsWith: return "right(\(expression), char_length(\(placeholder)::text)) = \(placeholder)::text"
            }
        case let .like(column, pattern):
            return "\(column.quotedDatabaseIdentifier)::text LIKE \(bind(.text(pattern), column: nil)) ESCAPE '\\'"
        case let .related(foreignKey, table, key, inner):
            guard let condition = condition(inner) else { return nil }
            let relation = schema.map { PostgreSQLTypes.qualified(table, schema: $0) } ?? table.quotedDatabaseIdentifier
            return "\(foreignKey.quotedDatabaseIdentifier) IN (SELECT \(key.quotedDatabaseIdentifier) FROM \(relation) WHERE \(condition))"
        case .all(let parts):
            return join(parts, with: "AND")
        case .any(let parts):
            return join(parts, with: "OR")
        case .not(let inner):
            return condition(inner).map { "NOT (\($0))" }
        }
    }

    private mutating func join(_ parts: [Predicate], with keyword: String) -> String? {
        let conditions = parts.compactMap { part in condition(part).map { (part, $0) } }
        guard conditions.count > 1 else { return conditions.first?.1 }
        return conditions.map { part, text in
            switch part {
            case .all, .any, .between: return "(\(text))"
            default: return text
            }
        }.joined(separator: " \(keyword) ")
    }

    /// `$n` for a value, as text; a period's start spelled in full for a date or timestamp column.
    private mutating func bind(_ value: DatabaseValue, column: String?) -> String {
        let text: String?
        switch value {
        case .null: text = nil
        case .integer(let integer): text = String(integer)
        case .real(let real): text = String(real)
        case .text(let string): text = isTemporal(column) ? Self.fullDate(string) : string
        case .blob: text = nil
        }
        parameters.append(text)
        return "$\(parameters.count)"
    }

    private func isTemporal(_ column: String?) -> Bool {
        guard let column, let type = columnTypes[column] else { return false }
        return type == .timestamp || type == .floatingTimestamp || type == .date
    }

    /// For a date or timestamp column, a text naming a period finer than a year ends at the
    /// start of the next one (as `Predicate.sql()` does for SQLite).
    private func upperBound(_ value: DatabaseValue, column: String) -> DatabaseValue? {
        guard isTemporal(column), case .text(let text) = value, text.contains("-"), let end = DatePeriod(text)?.end else { return nil }
        return .text(end)
    }

    /// `2014` → `2014-01-01`, `2014-06` → `2014-06-01`; anything else as given.
    static func fullDate(_ text: String) -> String {
        if text.count == 4, text.allSatisfy(\.isNumber) { return text + "-01-01" }
        if text.count == 7, DatePeriod(text) != nil { return text + "-01" }
        return text
    }
}
