import SocloadCore

extension PostgreSQLDatabase {
    /// The columns of a table of the schema, in order, with their PostgreSQL types and their
    /// place in its primary key; empty when there is no such table.
    public func columns(of table: String) throws -> [TableColumn] {
        let rows = try connection.execute("""
            SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull::text FROM pg_attribute a
            WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
            """, [qualified(table)]).rows
        guard !rows.isEmpty else { return [] }
        let key = try primaryKey(of: table)
        return rows.map { row in
            let name = row[0] ?? ""
            return TableColumn(name: name, type: row[1] ?? "", notNull: row[2] == "true",
                               keyPosition: key.firstIndex(of: name).map { $0 + 1 } ?? 0)
        }
    }

    /// True when the database has the `unaccent` extension (for accent-blind `--contains`).
    public var hasUnaccent: Bool {
        (try? connection.value("SELECT count(*) FROM pg_extension WHERE extname = 'unaccent'")) == "1"
    }

    /// The SELECT `socload select` runs: the table's columns checked, values bound as `$n`
    /// (`read` binds them as the text PostgreSQL reads).
    public func selectQuery(from table: String, columns selected: [String]? = nil, where predicate: RowFilter = .all([]),
                            orderBy: [String] = [], limit: Int? = nil, following: [FollowedColumn] = [],
                            search: FullTextQuery? = nil) throws -> SQLFragment {
        try checkedSelect(from: table, columns: selected, where: predicate, orderBy: orderBy, limit: limit, following: following,
                          search: search).select
    }

    /// The SELECT of `selectQuery`, and its condition alone (nil: none), for a DELETE or a count
    /// over the same rows.
    func checkedSelect(from table: String, columns selected: [String]? = nil, where predicate: RowFilter,
                       orderBy: [String] = [], limit: Int? = nil, following: [FollowedColumn] = [],
                       search: FullTextQuery? = nil) throws -> (select: SQLFragment, condition: SQLFragment?) {
        let writer = SelectStatementWriter(dialect: dialect) { table in try self.columns(of: table).map(\.name) }
        var request = SelectRequest(table: table, columns: selected, predicate: predicate, orderBy: orderBy, limit: limit)
        request.following = following
        request.search = search
        var written: SQLFragment?
        let select = try writer.statement(request) { predicate, boundBefore in
            var condition = ConditionWriter(dialect: dialect, columnTypes: try catalog.planTable(named: table)?.conditionColumnTypes ?? [:],
                                            foldsAccents: hasUnaccent, arguments: boundBefore)
            let sql = condition.condition(predicate)
            written = sql.map { SQLFragment(sql: $0, arguments: condition.arguments) }
            return sql.map { ($0, condition.arguments) }
        }
        return (select, written)
    }

    /// The statements that make the table as it is now: CREATE TABLE, then its constraints,
    /// indexes and triggers. Empty when there is no such table.
    public func definition(of table: String) throws -> [String] {
        let columns = try columns(of: table)
        guard !columns.isEmpty else { return [] }
        let name = qualified(table)
        var statements = ["CREATE TABLE \(name) (\n" + columns.map {
            "  \($0.name.quotedDatabaseIdentifier) \($0.type)\($0.notNull ? " NOT NULL" : "")"
        }.joined(separator: ",\n") + "\n)"]
        statements += try connection.execute("""
            SELECT format('ALTER TABLE %s ADD CONSTRAINT %I %s', $1::text, conname, pg_get_constraintdef(oid))
            FROM pg_constraint WHERE conrelid = to_regclass($1) ORDER BY contype <> 'p', conname
            """, [name]).rows.compactMap { $0[0] }
        statements += try connection.execute("""
            SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid = to_regclass($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
            ORDER BY c.relname
            """, [name]).rows.compactMap { $0[0] }
        statements += try connection.execute("SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = to_regclass($1) "
                                             + "AND NOT tgisinternal ORDER BY tgname", [name]).rows.compactMap { $0[0] }
        return statements
    }

    /// The positions (1-based) of the columns of the table's primary key.
    public func primaryKey(of table: String) throws -> [String] {
        try connection.execute("""
            SELECT a.attname FROM pg_constraint k, unnest(k.conkey) WITH ORDINALITY AS key(attnum, position)
            JOIN pg_attribute a ON a.attnum = key.attnum
            WHERE k.conrelid = to_regclass($1) AND k.contype = 'p' AND a.attrelid = k.conrelid ORDER BY key.position
            """, [qualified(table)]).rows.compactMap { $0[0] }
    }

    /// How many cells of each column are set; a column extracted into a lookup is counted
    /// through its foreign key.
    public func nonNullCounts(of table: String, columns: [String]) throws -> [String: Int] {
        guard !columns.isEmpty else { return [:] }
        let plan = try catalog.entry(for: table, withDescription: false).flatMap { $0.tableName == table ? $0.plan : nil }
        let measurement = PortalMeasurement(dialect: dialect)
        let statement = measurement.nonNullCounts(of: columns, in: measurement.relation(of: table, plan: plan))
        let row = try connection.execute(statement.sql).rows.first ?? []
        return Dictionary(zip(columns, row.map { Int($0 ?? "0") ?? 0 }), uniquingKeysWith: { first, _ in first })
    }

    /// The SQL the core writes once, in this schema's terms.
    public var dialect: PostgreSQLDialect { PostgreSQLDialect(schema: schema) }

    /// Holds the table against the portal's statistics its catalog entry recorded (see
    /// `PortalCheck`); nil when the catalog has no such table.
    public func verify(_ tableOrDatasetID: String) throws -> PortalVerification? {
        guard let entry = try catalog.entry(for: tableOrDatasetID, withDescription: false) else { return nil }
        return try PortalMeasurement(dialect: dialect).verify(entry, tableExists: tableExists, value: { statement in
            try connection.value(statement.sql, statement.arguments.map(Self.parameterText))
        }, driftedCounts: driftedCounts(of:))
    }
}
