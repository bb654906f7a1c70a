/// The SELECT `socload select` and `fetchAll(from:where:)` run, written once for every
/// database: the table's columns checked (those of the lookups a condition reaches too), the
/// condition in the database's own SQL, the order and the limit, every value bound.
public struct SelectStatementWriter {
    public let dialect: any SQLDialect
    /// The columns of a table, in order; empty when there is no such table.
    public let columns: (String) throws -> [String]

    public init(dialect: any SQLDialect, columns: @escaping (String) throws -> [String]) {
        self.dialect = dialect
        self.columns = columns
    }

    /// `condition` writes the request's predicate in the database's SQL (nil: no condition),
    /// with its values; the limit is bound after them.
    public func statement(_ request: SelectRequest,
                          condition: (Predicate) throws -> (sql: String, arguments: [DatabaseValue])?) throws -> SQLFragment {
        let available = try columns(request.table)
        guard !available.isEmpty else { throw SelectError.unknownTable(request.table) }
        let fold = { (name: String) in dialect.namesIgnoreCase ? name.lowercased() : name }
        let known = Set(available.map(fold))
        let ordering = request.orderBy.map { term -> (name: String, descending: Bool) in
            term.hasPrefix("-") ? (String(term.dropFirst()), true) : (term, false)
        }
        for name in (request.columns ?? []) + request.predicate.columns + ordering.map(\.name) where !known.contains(fold(name)) {
            throw SelectError.unknownColumn(name, table: request.table, columns: available)
        }
        for (related, names) in request.predicate.relatedColumns {
            let columns = try columns(related)
            guard !columns.isEmpty else { throw SelectError.unknownTable(related) }
            let known = Set(columns.map(fold))
            if let name = names.first(where: { !known.contains(fold($0)) }) {
                throw SelectError.unknownColumn(name, table: related, columns: columns)
            }
        }
        let followed = request.following.map { followed in
            ", (SELECT \"l\".\(followed.column.quotedDatabaseIdentifier) FROM \(dialect.table(followed.lookup)) AS \"l\" "
                + "WHERE \"l\".\(followed.key.quotedDatabaseIdentifier) = \(dialect.table(request.table))."
                + "\(followed.foreignKey.quotedDatabaseIdentifier)) AS \(followed.column.quotedDatabaseIdentifier)"
        }.joined()
        let selected = (request.columns.map { $0.map(\.quotedDatabaseIdentifier).joined(separator: ", ") } ?? "*") + followed
        var sql = "SELECT \(selected) FROM \(dialect.table(request.table))"
        var arguments: [DatabaseValue] = []
        if let condition = try condition(request.predicate) {
            sql += " WHERE \(condition.sql)"
            arguments = condition.arguments
        }
        if !ordering.isEmpty {
            sql += " ORDER BY " + ordering.map { "\($0.name.quotedDatabaseIdentifier)\($0.descending ? " DESC" : "")" }
                .joined(separator: ", ")
        }
        if let limit = request.limit {
            arguments.append(.integer(Int64(limit)))
            sql += " LIMIT \(dialect.placeholder(arguments.count))"
        }
        return SQLFragment(sql: sql, arguments: arguments)
    }
}
