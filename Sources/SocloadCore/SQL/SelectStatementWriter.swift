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

    /// `condition` writes the request's predicate in the database's SQL (nil: no condition):
    /// it gets the values bound before it (a search's words), numbers its own after them and
    /// returns all of them; the limit is bound last.
    public func statement(_ request: SelectRequest,
                          condition: (RowFilter, _ boundBefore: [DatabaseValue]) throws
                            -> (sql: String, arguments: [DatabaseValue])?) throws -> SQLFragment {
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
        let target = dialect.table(request.table)
        // A search needs the index; any select leaves out a column of the index's own.
        let asksForIndex = request.search != nil || dialect.fullTextColumn.map(available.contains) == true
        let indexed = try asksForIndex && dialect.hasFullTextIndex(table: request.table, columns: available, columnsOf: columns)
        if request.search != nil, !indexed { throw SelectError.noFullTextIndex(request.table) }
        // Every column but the index's own (PostgreSQL's tsvector), named by the table's.
        let all = indexed && dialect.fullTextColumn != nil
            ? available.filter { $0 != dialect.fullTextColumn }.map { "\(target).\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
            : request.search == nil ? "*" : "\(target).*"
        let selected = (request.columns.map { $0.map(\.quotedDatabaseIdentifier).joined(separator: ", ") } ?? all) + followed
        var sql = "SELECT \(selected) FROM \(target)"
        var arguments: [DatabaseValue] = []
        var conditions: [String] = []
        var rank: String?
        if let search = request.search {
            let clause = dialect.fullTextSearch(table: request.table, query: search, placeholder: 1)
            arguments.append(clause.argument)
            if !clause.join.isEmpty { sql += " " + clause.join }
            if !clause.condition.isEmpty { conditions.append(clause.condition) }
            rank = clause.rank
        }
        if let condition = try condition(request.predicate, arguments) {
            conditions.append(condition.sql)
            arguments = condition.arguments
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        // Empty values last, whichever the direction, on every database (SQLite puts NULL first
        // ascending, PostgreSQL first descending): the top of `--order -score` is scores.
        let order = ordering.map { "\($0.name.quotedDatabaseIdentifier)\($0.descending ? " DESC" : "") NULLS LAST" }
            + (rank.map { [$0] } ?? [])
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if let limit = request.limit {
            arguments.append(.integer(Int64(limit)))
            sql += " LIMIT \(dialect.placeholder(arguments.count))"
        }
        return SQLFragment(sql: sql, arguments: arguments)
    }
}
