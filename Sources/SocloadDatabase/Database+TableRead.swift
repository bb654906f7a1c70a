/// Reading a table's rows as records, through a `RowFilter`, with the lookups socload's
/// `extract` made: a property the table lost to a lookup is read from it when asked
/// (`following`), and is an error naming the lookup when not — never a silent nil.
extension Database {
    /// The rows of `table` where `predicate` holds, decoded as `T` by column name. `following`
    /// names columns that live in a lookup a foreign key of the table references (socload
    /// `extract` moved them there): each is read from the lookup row, as if the table had it.
    ///
    ///     let events = try db.fetchAll(Event.self, from: "t",
    ///                                  where: .in("category", cats) && .contains("note", "cafe", caseInsensitive: true, diacriticInsensitive: true),
    ///                                  orderBy: ["start_time"], limit: 100)
    ///     let nominations = try db.fetchAll(Nomination.self, from: "n5m4_mism", following: ["agency"])
    ///
    /// A property of `T` that is no column of the table but one of such a lookup, and not
    /// followed, is `SelectError.columnInLookup` (an optional property would otherwise be nil
    /// in every row).
    public func fetchAll<T: Decodable>(_ type: T.Type, from table: String, columns: [String]? = nil,
                                       where predicate: RowFilter = .all([]), orderBy: [String] = [],
                                       limit: Int? = nil, timestampForms: [String: TimestampForm]? = nil,
                                       following: [String] = []) throws -> [T] {
        let followed = try following.map { name -> FollowedColumn in
            guard let lookup = try lookupColumn(named: name, of: table) else { throw SelectError.notInALookup(name, table: table) }
            return FollowedColumn(column: lookup.column, lookup: lookup.lookup, key: lookup.key, foreignKey: lookup.foreignKey)
        }
        let query = try selectQuery(from: table, columns: columns, where: predicate, orderBy: orderBy, limit: limit,
                                    timestampForms: timestampForms, following: followed)
        let statement = try makeStatement(sql: query.sql)
        try statement.bind(StatementArguments(positional: query.arguments))
        let names = ColumnLookup(names: statement.columnNames)
        var results: [T] = []
        while try statement.step() {
            let absent = results.isEmpty ? AbsentKeyLog() : nil
            results.append(try RowDecoder.decode(type, values: statement.values(), columns: names, rowIndex: results.count,
                                                 absentKeys: absent, statement: query.sql))
            for name in absent?.names ?? [] {
                if let lookup = try lookupColumn(named: name, of: table) {
                    throw SelectError.columnInLookup(name, table: table, lookup: lookup.lookup, foreignKey: lookup.foreignKey)
                }
            }
        }
        return results
    }

    /// Where a column of a lookup of `table` is: a foreign key of the table referencing a table
    /// that has a column `name` (names compared as SQLite compares them).
    func lookupColumn(named name: String, of table: String) throws -> (lookup: String, column: String, foreignKey: String, key: String)? {
        for reference in try fetchRows(sql: "SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)", arguments: [table]) {
            guard case .text(let lookup) = reference[0], case .text(let foreignKey) = reference[1] else { continue }
            let columns = try fetchAll(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [lookup])
            guard let column = columns.first(where: { $0.lowercased() == name.lowercased() }) else { continue }
            let key: String
            if case .text(let named) = reference[2] { key = named } else {
                key = try fetchOne(String.self, sql: "SELECT name FROM pragma_table_info(?) WHERE pk = 1", arguments: [lookup]) ?? "rowid"
            }
            return (lookup, column, foreignKey, key)
        }
        return nil
    }
}
