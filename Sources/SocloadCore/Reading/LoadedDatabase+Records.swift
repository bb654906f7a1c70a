/// Records from either database, through the read role: the same `Codable` reading by column
/// name, with the same errors, whether the table is in SQLite or PostgreSQL.
///
///     struct Nomination: Decodable { var name: String; var holdover: Bool; var agency: String? }
///     let state = try database.fetchAll(Nomination.self, from: "n5m4_mism", where: .equals("agency", "State"),
///                                       orderBy: ["name"], limit: 10)
///
/// Values arrive in the forms SQLite stores (PostgreSQL's booleans as 0/1, its numerics as the
/// number, its timestamps as ISO-8601 text), so a property reads the same from both.
extension LoadedDatabase {
    /// The rows of `table` where `predicate` holds, decoded as `T` by column name (the SELECT of
    /// `selectStatement`, its columns checked against the table first). `following` names
    /// columns socload's `extract` moved to the table's lookups: each is read from its lookup row
    /// (`FollowedColumn`). A property of `T` moved so and not followed is
    /// `SelectError.columnInLookup` (it would be nil in every row).
    public func fetchAll<T: Decodable>(_ type: T.Type, from table: String, columns: [String]? = nil,
                                       where predicate: RowFilter = .all([]), orderBy: [String] = [],
                                       limit: Int? = nil, following: [String] = []) throws -> [T] {
        var request = SelectRequest(table: table, columns: columns, predicate: predicate, orderBy: orderBy, limit: limit)
        if !following.isEmpty {
            guard let plan = try planTable(named: table) else { throw SelectError.notInALookup(following[0], table: table) }
            request.following = try FollowedColumn.columns(following, of: plan)
        }
        let statement = try selectStatement(request)
        let absent = AbsentKeyLog()
        let records = try fetchAll(type, statement, absentKeys: absent)
        if !absent.names.isEmpty, let plan = try planTable(named: table) {
            for name in absent.names {
                if let lookup = plan.lookups.first(where: { $0.columns.contains { $0.name.lowercased() == name.lowercased() } }) {
                    throw SelectError.columnInLookup(name, table: table, lookup: lookup.table, foreignKey: lookup.foreignKey)
                }
            }
        }
        return records
    }

    /// The rows of a statement in the database's own SQL (`?` for SQLite, `$1` for PostgreSQL),
    /// decoded as `T` by column name; its values are bound, never spliced.
    public func fetchAll<T: Decodable>(_ type: T.Type, _ statement: SQLFragment) throws -> [T] {
        try fetchAll(type, statement, absentKeys: nil)
    }

    /// `fetchAll`, noting in `absentKeys` the properties the first row had no column for.
    private func fetchAll<T: Decodable>(_ type: T.Type, _ statement: SQLFragment, absentKeys: AbsentKeyLog?) throws -> [T] {
        var names = ColumnLookup(names: [])
        var results: [T] = []
        try read(statement, columns: { names = ColumnLookup(names: $0) }) { values in
            results.append(try RowDecoder.decode(type, values: values, columns: names, rowIndex: results.count,
                                                 absentKeys: results.isEmpty ? absentKeys : nil, statement: statement.sql))
        }
        return results
    }

    /// The number of rows of `table` where `predicate` holds.
    public func count(in table: String, matching predicate: RowFilter = .all([])) throws -> Int {
        let select = try selectStatement(SelectRequest(table: table, columns: nil, predicate: predicate, orderBy: [], limit: nil))
        var count = 0
        try read(SQLFragment(sql: "SELECT count(*) FROM (\(select.sql)) AS \"counted\"", arguments: select.arguments),
                 columns: { _ in }) { values in
            if case .integer(let value)? = values.first { count = Int(value) }
        }
        return count
    }
}
