/// Reading a table through a `RowFilter`, with the columns checked before anything runs.
extension Database {
    /// A SELECT of `columns` (all when nil) from `table` where `predicate` holds, ordered by
    /// `orderBy` (a leading `-` sorts that column descending), at most `limit` rows. Every column
    /// named is checked against the table first.
    ///
    /// A `Date` in the predicate is compared in its column's form (see `TimestampForm`): the form
    /// given in `timestampForms` (socload's catalog knows it from each column's logical type:
    /// `SQLiteCatalog.timestampForms(of:)`), else the form of a value stored in the column.
    /// `columnTypes` (the plan's `conditionColumnTypes`) applies the date rules by type, as on
    /// every database (see `ConditionWriter`); without them any value naming a period is one.
    public func selectQuery(from table: String, columns: [String]? = nil, where predicate: RowFilter = .all([]),
                            orderBy: [String] = [], limit: Int? = nil,
                            timestampForms: [String: TimestampForm]? = nil,
                            columnTypes: [String: LogicalType]? = nil, following: [FollowedColumn] = [],
                            search: FullTextQuery? = nil) throws -> SQLFragment {
        try checkedSelect(from: table, columns: columns, where: predicate, orderBy: orderBy, limit: limit,
                          timestampForms: timestampForms, columnTypes: columnTypes, following: following, search: search).select
    }

    /// The SELECT of `selectQuery`, and its condition alone (nil: none), for a statement of
    /// another kind over the same rows (`count(in:matching:)`, `delete(from:matching:)`).
    func checkedSelect(from table: String, columns: [String]? = nil, where predicate: RowFilter, orderBy: [String] = [],
                       limit: Int? = nil, timestampForms: [String: TimestampForm]? = nil,
                       columnTypes: [String: LogicalType]? = nil, following: [FollowedColumn] = [],
                       search: FullTextQuery? = nil) throws -> (select: SQLFragment, condition: SQLFragment?) {
        let writer = SelectStatementWriter(dialect: SQLiteDialect()) { table in
            try self.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
        }
        var request = SelectRequest(table: table, columns: columns, predicate: predicate, orderBy: orderBy, limit: limit)
        request.following = following
        request.search = search
        var written: SQLFragment?
        let select = try writer.statement(request) { predicate, boundBefore in
            let forms = try timestampForms ?? storedTimestampForms(in: table, of: predicate.columnsComparedWithTimestamps)
            var condition = ConditionWriter(dialect: SQLiteDialect(), columnTypes: columnTypes, arguments: boundBefore)
            let sql = try condition.condition(adaptingRelated(predicate.adapted(to: forms)))
            written = sql.map { SQLFragment(sql: $0, arguments: condition.arguments) }
            return sql.map { ($0, condition.arguments) }
        }
        return (select, written)
    }

    /// The conditions on other tables (`.related`) with their `Date` values in the forms those
    /// tables' columns store (a lookup's floating timestamp matches a `Date` as the same
    /// condition on the table itself does).
    private func adaptingRelated(_ predicate: RowFilter) throws -> RowFilter {
        switch predicate {
        case let .related(foreignKey, table, key, inner):
            let forms = try storedTimestampForms(in: table, of: inner.columnsComparedWithTimestamps)
            return .related(foreignKey: foreignKey, table: table, key: key, predicate: try adaptingRelated(inner.adapted(to: forms)))
        case .all(let parts): return .all(try parts.map(adaptingRelated))
        case .any(let parts): return .any(try parts.map(adaptingRelated))
        case .not(let inner): return .not(try adaptingRelated(inner))
        default: return predicate
        }
    }

    /// The form of a text value stored in each of `columns` (one sample each).
    private func storedTimestampForms(in table: String, of columns: Set<String>) throws -> [String: TimestampForm] {
        var forms: [String: TimestampForm] = [:]
        for column in columns {
            let name = column.quotedDatabaseIdentifier
            let sample = try fetchOne(String.self, sql: "SELECT \(name) FROM \(table.quotedDatabaseIdentifier) "
                                      + "WHERE typeof(\(name)) = 'text' LIMIT 1")
            if let form = sample.flatMap(TimestampForm.init(storedValue:)) { forms[column] = form }
        }
        return forms
    }
}
