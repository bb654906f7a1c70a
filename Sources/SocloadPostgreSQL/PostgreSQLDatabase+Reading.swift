import SocloadCore

extension PostgreSQLDatabase {
    /// The columns of a table of the schema, in order, with their PostgreSQL types; empty when
    /// there is no such table.
    public func columns(of table: String) throws -> [(name: String, type: String, notNull: Bool)] {
        try connection.execute("""
            SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull::text FROM pg_attribute a
            WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
            """, [qualified(table)]).rows.map { ($0[0] ?? "", $0[1] ?? "", $0[2] == "true") }
    }

    /// True when the database has the `unaccent` extension (for accent-blind `--contains`).
    public var hasUnaccent: Bool {
        (try? connection.value("SELECT count(*) FROM pg_extension WHERE extname = 'unaccent'")) == "1"
    }

    /// The SELECT `socload select` runs: the table's columns checked, values bound as `$n`.
    public func selectQuery(from table: String, columns selected: [String]? = nil, where predicate: Predicate = .all([]),
                            orderBy: [String] = [], limit: Int? = nil) throws -> (sql: String, parameters: [String?]) {
        let available = try columns(of: table).map(\.name)
        guard !available.isEmpty else { throw SelectError.unknownTable(table) }
        let known = Set(available)
        let ordering = orderBy.map { term -> (name: String, descending: Bool) in
            term.hasPrefix("-") ? (String(term.dropFirst()), true) : (term, false)
        }
        for name in (selected ?? []) + predicate.columns + ordering.map(\.name) where !known.contains(name) {
            throw SelectError.unknownColumn(name, table: table, columns: available)
        }
        for (related, names) in predicate.relatedColumns {
            let columns = try columns(of: related).map(\.name)
            guard !columns.isEmpty else { throw SelectError.unknownTable(related) }
            if let name = names.first(where: { !columns.contains($0) }) {
                throw SelectError.unknownColumn(name, table: related, columns: columns)
            }
        }
        // The value columns of lookups are typed too, for conditions through them (`related`).
        let types = try catalog.planTable(named: table)
            .map { Dictionary(($0.storedColumns + $0.lookups.flatMap(\.columns)).map { ($0.name, $0.type) },
                              uniquingKeysWith: { first, _ in first }) } ?? [:]
        var writer = PostgreSQLPredicateWriter(columnTypes: types, foldsAccents: hasUnaccent, schema: schema)
        var sql = "SELECT \(selected.map { $0.map(\.quotedDatabaseIdentifier).joined(separator: ", ") } ?? "*") FROM \(qualified(table))"
        if let condition = writer.condition(predicate) { sql += " WHERE \(condition)" }
        var parameters = writer.parameters
        if !ordering.isEmpty {
            sql += " ORDER BY " + ordering.map { "\($0.name.quotedDatabaseIdentifier)\($0.descending ? " DESC" : "")" }
                .joined(separator: ", ")
        }
        if let limit {
            parameters.append(String(limit))
            sql += " LIMIT $\(parameters.count)"
        }
        return (sql, parameters)
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

    /// How many cells of each column are set.
    public func nonNullCounts(of table: String, columns: [String]) throws -> [String: Int] {
        guard !columns.isEmpty else { return [:] }
        let plan = try catalog.entry(for: table).flatMap { $0.tableName == table ? $0.plan : nil }
        let row = try connection.execute("SELECT " + columns.map { "count(\($0.quotedDatabaseIdentifier))" }.joined(separator: ", ")
                                         + " FROM \(relation(of: table, plan: plan))").rows.first ?? []
        return Dictionary(zip(columns, row.map { Int($0 ?? "0") ?? 0 }), uniquingKeysWith: { first, _ in first })
    }

    /// The table with the value columns of its lookups beside its own (see
    /// `LookupStatements.relationWithValues`): what counts through a foreign key read.
    private func relation(of table: String, plan: LoadPlan?) -> String {
        LookupStatements.relationWithValues(
            of: qualified(table), key: PlanLookup.keyColumn.quotedDatabaseIdentifier,
            lookups: (plan?.mainTable.lookups ?? []).map { lookup in
                (qualified(lookup.table), lookup.foreignKey.quotedDatabaseIdentifier, lookup.valueColumns.map(\.quotedDatabaseIdentifier))
            })
    }

    /// Holds the table against the portal's statistics its catalog entry recorded (see
    /// `PortalCheck`); nil when the catalog has no such table.
    public func verify(_ tableOrDatasetID: String) throws -> PortalVerification? {
        guard let entry = try catalog.entry(for: tableOrDatasetID) else { return nil }
        guard let plan = entry.plan else {
            return PortalVerification(tableName: entry.tableName, partialReason: "loaded by an older socload, without a plan",
                                      results: [])
        }
        guard try tableExists(entry.tableName) else { throw LoadError.tableMissing(entry.tableName) }
        let checks = PortalCheck.checks(plan: plan, columns: entry.columns, invalidCells: entry.invalidCells)
        let table = relation(of: entry.tableName, plan: plan)
        let results = try checks.map { check in
            PortalCheckResult(check: check, answer: try measure(check, table: table))
        }
        var verification = PortalVerification(tableName: entry.tableName, partialReason: entry.partialReason, results: results)
        verification.driftedCounts = try driftedCounts(of: plan.mainTable)
        return verification
    }

    private func measure(_ check: PortalCheck, table: String) throws -> String? {
        let column = check.columns[0].quotedDatabaseIdentifier
        // Booleans have no min() or max(); timestamps are compared as ISO-8601 text.
        let measured: String
        switch check.type {
        case .boolean: measured = "\(column)::int"
        case .timestamp: measured = "to_char(\(column), 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        case .floatingTimestamp: measured = "to_char(\(column), 'YYYY-MM-DD\"T\"HH24:MI:SS.MS')"
        default: measured = column
        }
        switch check.question {
        case .nonNullCount:
            let anySet = check.columns.map { "\($0.quotedDatabaseIdentifier) IS NOT NULL" }.joined(separator: " OR ")
            return try connection.value("SELECT count(*) FROM \(table) WHERE \(anySet)")
        case .smallest:
            return try connection.value("SELECT min(\(measured))::text FROM \(table)")
        case .largest:
            return try connection.value("SELECT max(\(measured))::text FROM \(table)")
        case .contains(let probe):
            let text: String?
            switch probe {
            case .null: text = nil
            case .integer(let value): text = String(value)
            case .real(let value): text = String(value)
            case .text(let value), .decimal(let value): text = value
            }
            return try connection.value("SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(column)::text = $1)::int::text", [text])
        }
    }
}
