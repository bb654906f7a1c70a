/// A `RowFilter` as a WHERE condition in a database's own SQL, written once for every database:
/// each value bound through the dialect's placeholders, in order; text matching through the
/// dialect's folding and position functions; a date period (`2014-06`) on a date or time
/// column taken whole.
///
/// The date rules, the same on every database: on a date or timestamp column, an upper bound
/// that names a period finer than a year (`<= 2014-06`, `--on 2014-06-15`) ends at the start
/// of the next period, and a year or a month given alone means its first day (`>= 2014` is
/// `>= 2014-01-01`). When the column types are not known (a table socload did not load), any
/// text value that names a period finer than a year is taken as one and nothing is spelled out.
///
///     var writer = ConditionWriter(dialect: SQLiteDialect())
///     let condition = writer.condition(.lessThanOrEqual("d", "2014-06"))
///     // condition == "\"d\" < ?", writer.arguments == [.text("2014-07")]
public struct ConditionWriter {
    public let dialect: any SQLDialect
    /// The logical type of each column a condition may name (the table's and, for `related`,
    /// its lookups'); nil when unknown.
    public let columnTypes: [String: LogicalType]?
    /// False when the database cannot fold accents: text matching then folds case only.
    public let foldsAccents: Bool
    /// The values bound to the placeholders written so far, in order.
    public private(set) var arguments: [DatabaseValue]

    public init(dialect: any SQLDialect, columnTypes: [String: LogicalType]? = nil, foldsAccents: Bool = true,
                arguments: [DatabaseValue] = []) {
        self.dialect = dialect
        self.foldsAccents = foldsAccents
        self.arguments = arguments
        self.columnTypes = columnTypes.map { types in
            guard dialect.namesIgnoreCase else { return types }
            return Dictionary(types.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The condition, or nil when the predicate is no condition at all (an empty `in`, `all([])`).
    public mutating func condition(_ predicate: RowFilter) -> String? {
        switch predicate {
        case let .comparison(column, op, value):
            let name = column.quotedDatabaseIdentifier
            // `= NULL` matches nothing in SQL: equal to nil means IS NULL, as GRDB users expect.
            if value == .null, op == .equal { return "\(name) IS NULL" }
            if value == .null, op == .notEqual { return "\(name) IS NOT NULL" }
            if op == .lessOrEqual, let end = periodEnd(value, column: column) {
                return "\(name) < \(bind(end, column: column))"
            }
            return "\(name) \(op.rawValue) \(bind(value, column: column))"
        case let .isIn(column, values):
            guard !values.isEmpty else { return nil }
            return "\(column.quotedDatabaseIdentifier) IN (\(values.map { bind($0, column: column) }.joined(separator: ", ")))"
        case let .between(column, lower, upper):
            let name = column.quotedDatabaseIdentifier
            if let end = periodEnd(upper, column: column) {
                return "\(name) >= \(bind(lower, column: column)) AND \(name) < \(bind(end, column: column))"
            }
            return "\(name) BETWEEN \(bind(lower, column: column)) AND \(bind(upper, column: column))"
        case let .isNull(column):
            return "\(column.quotedDatabaseIdentifier) IS NULL"
        case let .textMatch(column, kind, text, options):
            return textMatch(column, kind, text, options)
        case let .like(column, pattern):
            return "\(dialect.comparable(column.quotedDatabaseIdentifier)) LIKE \(bind(.text(pattern))) ESCAPE '\\'"
        case let .related(foreignKey, table, key, inner):
            guard let condition = condition(inner) else { return nil }
            return "\(foreignKey.quotedDatabaseIdentifier) IN (SELECT \(key.quotedDatabaseIdentifier) FROM "
                + "\(dialect.table(table)) WHERE \(condition))"
        case .all(let parts):
            return join(parts, with: "AND")
        case .any(let parts):
            return join(parts, with: "OR")
        case .not(let inner):
            return condition(inner).map { "NOT (\($0))" }
        }
    }

    private mutating func textMatch(_ column: String, _ kind: RowFilter.TextMatchKind, _ text: String,
                                    _ options: TextFolding.Options) -> String {
        var folding = options
        if !foldsAccents { folding.remove(.diacriticInsensitive) }
        let expression = dialect.folded(column.quotedDatabaseIdentifier, folding)
        let folded = TextFolding.fold(text, folding)
        switch kind {
        case .contains:
            return "\(dialect.position(of: dialect.text(bind(.text(folded))), in: expression)) > 0"
        case .beginsWith:
            return "\(dialect.position(of: dialect.text(bind(.text(folded))), in: expression)) = 1"
        case .endsWith:
            let length = folded.unicodeScalars.count
            guard length > 0 else { return "\(column.quotedDatabaseIdentifier) IS NOT NULL" }
            let suffix = dialect.suffix(of: expression, length: bind(.integer(Int64(length))))
            return "\(suffix) = \(dialect.text(bind(.text(folded))))"
        }
    }

    private mutating func join(_ parts: [RowFilter], with keyword: String) -> String? {
        let conditions = parts.compactMap { part in condition(part).map { (part, $0) } }
        guard conditions.count > 1 else { return conditions.first?.1 }
        return conditions.map { part, text in
            switch part {
            // Compound conditions keep their grouping; BETWEEN ... AND ... reads clearer grouped too.
            case .all, .any, .between: return "(\(text))"
            default: return text
            }
        }.joined(separator: " \(keyword) ")
    }

    /// The placeholder of `value`, bound next; on a date or time column a year or a month
    /// given alone is spelled as its first day.
    private mutating func bind(_ value: DatabaseValue, column: String? = nil) -> String {
        if let column, isTemporal(column) == true, case .text(let text) = value {
            arguments.append(.text(Self.firstDay(text)))
        } else {
            arguments.append(value)
        }
        return dialect.placeholder(arguments.count)
    }

    /// True for a date or timestamp column, false for another, nil when the types are unknown.
    private func isTemporal(_ column: String) -> Bool? {
        guard let columnTypes else { return nil }
        let type = columnTypes[dialect.namesIgnoreCase ? column.lowercased() : column]
        return type == .timestamp || type == .floatingTimestamp || type == .date
    }

    /// For a text value that names a period finer than a year (`2015-10`, `2015-10-29`,
    /// `2015-10-29T12:30`, see `DatePeriod`), the start of the next one, so that an upper bound
    /// takes the whole period in. A bare year is left alone: it may be a number.
    private func periodEnd(_ value: DatabaseValue, column: String) -> DatabaseValue? {
        guard isTemporal(column) != false, case .text(let text) = value, text.contains("-"),
              let end = DatePeriod(text)?.end else { return nil }
        return .text(end)
    }

    /// `2014` → `2014-01-01`, `2014-06` → `2014-06-01`; anything else as given.
    static func firstDay(_ text: String) -> String {
        if text.count == 4, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) { return text + "-01-01" }
        if text.count == 7, DatePeriod(text) != nil { return text + "-01" }
        return text
    }
}
