/// Reading results: decoded Swift values, rows, or a streaming cursor.
extension Database {
    /// Every row of the query, decoded as `T` by column name.
    ///
    /// For example:
    ///
    ///     struct Nomination: Decodable { var name: String; var agency: String? }
    ///     let rows = try db.fetchAll(Nomination.self, sql: "select name, agency from n5m4_mism where agency = ?",
    ///                                arguments: ["State"])
    ///
    /// A built-in type (`String`, `Int`, `Date`, ...) is read from the first column.
    public func fetchAll<T: Decodable>(_ type: T.Type, sql: String, arguments: StatementArguments = []) throws -> [T] {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        let columns = ColumnLookup(names: statement.columnNames)
        var results: [T] = []
        var rowIndex = 0
        while try statement.step() {
            results.append(try RowDecoder.decode(type, values: statement.values(), columns: columns, rowIndex: rowIndex, statement: sql))
            rowIndex += 1
        }
        return results
    }

    /// Every row of the query decoded as `T` in turn, handed to `body` one at a time and never
    /// held together: flat memory over millions of rows. `body` returns false to stop early.
    ///
    ///     try db.forEach(Nomination.self, sql: "select name, agency from n5m4_mism") { nomination in
    ///         print(nomination.name)
    ///         return true
    ///     }
    public func forEach<T: Decodable>(_ type: T.Type, sql: String, arguments: StatementArguments = [],
                                      _ body: (T) throws -> Bool) throws {
        let statement = try makeStatement(sql: sql)
        try statement.bind(arguments)
        let columns = ColumnLookup(names: statement.columnNames)
        var rowIndex = 0
        while try statement.step() {
            guard try body(try RowDecoder.decode(type, values: statement.values(), columns: columns, rowIndex: rowIndex,
                                                 statement: sql)) else { return }
            rowIndex += 1
        }
    }

    /// The first row of the query decoded as `T`, or nil when there is none.
    public func fetchOne<T: Decodable>(_ type: T.Type, sql: String, arguments: StatementArguments = []) throws -> T? {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try RowDecoder.decode(type, values: statement.values(),
                                     columns: ColumnLookup(names: statement.columnNames), rowIndex: 0, statement: sql)
    }

    /// Every row of the query, as column names and values.
    public func fetchRows(sql: String, arguments: StatementArguments = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql: sql, arguments: arguments) { statement in
            rows.append(Row(columnNames: statement.columnNames, values: statement.values(), index: rows.count))
        }
        return rows
    }

    /// The first column of the first row, or nil when there is no row.
    public func fetchValue(sql: String, arguments: StatementArguments = []) throws -> DatabaseValue? {
        let statement = try makeStatement(sql: sql)
        try statement.bind(arguments)
        guard try statement.step(), statement.columnCount > 0 else { return nil }
        return statement.value(at: 0)
    }

    /// Runs the query and calls `body` with the statement positioned on each row in turn, without
    /// holding the rows in memory. The statement is a fresh one, so `body` may run other queries.
    public func forEachRow(sql: String, arguments: StatementArguments = [],
                           _ body: (Statement) throws -> Void) throws {
        let statement = try makeStatement(sql: sql)
        try statement.bind(arguments)
        while try statement.step() {
            try body(statement)
        }
    }

    /// True when a table (not a view or index) of that name exists, the name compared as SQLite
    /// compares names (ASCII case ignored).
    ///
    ///     let loaded = try db.tableExists("n5m4_mism")
    public func tableExists(_ name: String) throws -> Bool {
        // From the schema SQLite holds in memory: a read of `sqlite_schema` would cost a scan of
        // every object in the file (thousands in a mirror of a portal), for each table asked about.
        try fetchValue(sql: "SELECT 1 FROM pragma_table_list(?) WHERE schema = 'main' AND type = 'table'", arguments: [name]) != nil
    }
}
