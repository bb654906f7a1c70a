import Foundation

/// SQL text with `?` placeholders and the values to bind to them, in order.
public struct SQLFragment: Sendable, Equatable {
    public var sql: String
    public var arguments: [DatabaseValue]

    public init(sql: String, arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

extension Predicate {
    /// The predicate as a WHERE condition, or nil when it is no condition at all.
    public func sql() -> SQLFragment? {
        switch self {
        case let .comparison(column, op, value):
            let name = column.quotedDatabaseIdentifier
            if op == .lessOrEqual, let end = Self.periodEnd(value) {
                return SQLFragment(sql: "\(name) < ?", arguments: [end])
            }
            return SQLFragment(sql: "\(name) \(op.rawValue) ?", arguments: [value])
        case let .isIn(column, values):
            guard !values.isEmpty else { return nil }
            let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
            return SQLFragment(sql: "\(column.quotedDatabaseIdentifier) IN (\(placeholders))", arguments: values)
        case let .between(column, lower, upper):
            let name = column.quotedDatabaseIdentifier
            if let end = Self.periodEnd(upper) {
                return SQLFragment(sql: "\(name) >= ? AND \(name) < ?", arguments: [lower, end])
            }
            return SQLFragment(sql: "\(name) BETWEEN ? AND ?", arguments: [lower, upper])
        case let .isNull(column):
            return SQLFragment(sql: "\(column.quotedDatabaseIdentifier) IS NULL")
        case let .textMatch(column, kind, text, options):
            let expression = options.isEmpty ? column.quotedDatabaseIdentifier
                : "fold(\(column.quotedDatabaseIdentifier), \(options.rawValue))"
            let value = DatabaseValue.text(TextFolding.fold(text, options))
            switch kind {
            case .contains:
                return SQLFragment(sql: "instr(\(expression), ?) > 0", arguments: [value])
            case .beginsWith:
                return SQLFragment(sql: "instr(\(expression), ?) = 1", arguments: [value])
            case .endsWith:
                let length = Int64(TextFolding.fold(text, options).unicodeScalars.count)
                guard length > 0 else { return SQLFragment(sql: "\(column.quotedDatabaseIdentifier) IS NOT NULL") }
                return SQLFragment(sql: "substr(\(expression), ?) = ?", arguments: [.integer(-length), value])
            }
        case let .like(column, pattern):
            return SQLFragment(sql: "\(column.quotedDatabaseIdentifier) LIKE ? ESCAPE '\\'", arguments: [.text(pattern)])
        case let .related(foreignKey, table, key, inner):
            guard let condition = inner.sql() else { return nil }
            return SQLFragment(sql: "\(foreignKey.quotedDatabaseIdentifier) IN (SELECT \(key.quotedDatabaseIdentifier) FROM "
                               + "\(table.quotedDatabaseIdentifier) WHERE \(condition.sql))", arguments: condition.arguments)
        case .all(let parts):
            return Self.join(parts, with: "AND")
        case .any(let parts):
            return Self.join(parts, with: "OR")
        case .not(let inner):
            guard let fragment = inner.sql() else { return nil }
            return SQLFragment(sql: "NOT (\(fragment.sql))", arguments: fragment.arguments)
        }
    }

    private static func join(_ parts: [Predicate], with keyword: String) -> SQLFragment? {
        let fragments = parts.compactMap { part in part.sql().map { (part, $0) } }
        guard fragments.count > 1 else { return fragments.first?.1 }
        let wrapped = fragments.map { part, fragment -> SQLFragment in
            switch part {
            case .all, .any, .between:
                // Compound conditions keep their grouping; BETWEEN ... AND ... reads clearer grouped too.
                return SQLFragment(sql: "(\(fragment.sql))", arguments: fragment.arguments)
            default:
                return fragment
            }
        }
        return SQLFragment(sql: wrapped.map(\.sql).joined(separator: " \(keyword) "), arguments: wrapped.flatMap(\.arguments))
    }

    /// For a text value that names a period finer than a year (`2015-10`, `2015-10-29`,
    /// `2015-10-29T12:30`, see `DatePeriod`), the start of the next one: an upper bound
    /// `<= 2015-10-29` becomes `< 2015-10-30`, so the whole period is included, timestamps during
    /// it too. A bare year is left alone: it may be a number.
    static func periodEnd(_ value: DatabaseValue) -> DatabaseValue? {
        guard case .text(let text) = value, text.contains("-"), let end = DatePeriod(text)?.end else { return nil }
        return .text(end)
    }
}
