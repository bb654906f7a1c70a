import SocloadCore

/// A table's lookup tables in PostgreSQL (see `PlanLookup`): made when missing (an identity
/// key, the value columns `UNIQUE NULLS NOT DISTINCT`), filled by value from a relation holding
/// the rows as they arrive, joined (by hash) to give each row its foreign key, counted
/// set-based once the rows are in, then kept counted by a trigger function for the user's own
/// INSERT, UPDATE and DELETE. socload drops its trigger while it writes rows itself (a sync)
/// and makes it again after, all inside the load's transaction.
struct PostgreSQLLookups {
    let transaction: PostgreSQLLoadTransaction
    let table: PlanTable

    func statements(_ lookup: PlanLookup) -> LookupStatements {
        LookupStatements(lookupTable: transaction.qualified(lookup.table), key: PlanLookup.keyColumn.quotedDatabaseIdentifier,
                         values: lookup.columns.map { ($0.name.quotedDatabaseIdentifier, Self.nullStandIn($0.type)) })
    }

    /// A value of the type's column that stands for NULL in a match of several columns.
    static func nullStandIn(_ type: LogicalType) -> String {
        switch type {
        case .text, .geometry: return "''"
        case .integer, .decimal, .double: return "0"
        case .boolean: return "false"
        case .timestamp: return "'epoch'::timestamptz"
        case .floatingTimestamp: return "'epoch'::timestamp"
        case .date: return "'epoch'::date"
        case .json: return "'null'::jsonb"
        }
    }

    /// The column names of a relation (quoted and qualified, or a temporary table's quoted name).
    static func columnNames(of relation: String, transaction: PostgreSQLLoadTransaction) throws -> [String] {
        try transaction.execute("""
            SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
            """, [relation]).rows.compactMap { $0[0] }
    }

    /// `_socload_<purpose>_<table>_<lookup>`, within PostgreSQL's 63 bytes.
    func ownedName(_ lookup: PlanLookup, _ purpose: String) -> String {
        Self.ownedName(table: table.name, lookup: lookup.table, purpose)
    }

    static func ownedName(table: String, lookup: String, _ purpose: String) -> String {
        LoadPlan.shortenedName("_socload_\(purpose)_\(table)_\(lookup)", toBytes: 63)
    }

    /// Makes each lookup that `relation` still holds the values of (its foreign key is not a
    /// column there), and adds the values it lacks.
    func addMissingValues(from relation: String, columns relationColumns: Set<String>) throws {
        for lookup in table.lookups where !relationColumns.contains(lookup.foreignKey) {
            try ensureTable(lookup)
            try transaction.execute(statements(lookup).insertMissingValues(from: relation))
        }
    }

    /// The SELECT list and joins that turn rows of `relation` (alias "s") into `columns` of the
    /// table: a lookup's foreign key from its join, where `relation` holds the values.
    func storedRows(_ columns: [String], columns relationColumns: Set<String>) -> (select: String, joins: String) {
        var joins: [String] = []
        var aliases: [String: String] = [:]
        for (index, lookup) in table.lookups.enumerated() where !relationColumns.contains(lookup.foreignKey) {
            let alias = "\"l\(index)\""
            aliases[lookup.foreignKey] = alias
            joins.append(statements(lookup).join(alias: alias, source: "\"s\""))
        }
        let select = columns.map { column in
            aliases[column].map { "\($0).\(PlanLookup.keyColumn.quotedDatabaseIdentifier)" } ?? "\"s\".\(column.quotedDatabaseIdentifier)"
        }.joined(separator: ", ")
        return (select, joins.joined(separator: " "))
    }

    /// After the rows, on the table under its final name: each lookup's foreign key constraint
    /// and indexes, its counts, pruning and trigger.
    func finishRows() throws {
        let target = transaction.qualified(table.name)
        for lookup in table.lookups {
            try ensureTable(lookup)
            let foreignKey = lookup.foreignKey.quotedDatabaseIdentifier
            let constraint = ownedName(lookup, "fk")
            if try transaction.value("SELECT count(*) FROM pg_constraint WHERE conrelid = to_regclass($1) AND conname = $2",
                                     [target, constraint]) == "0" {
                try transaction.execute("ALTER TABLE \(target) ADD CONSTRAINT \(constraint.quotedDatabaseIdentifier) FOREIGN KEY "
                                        + "(\(foreignKey)) REFERENCES \(transaction.qualified(lookup.table)) "
                                        + "(\(PlanLookup.keyColumn.quotedDatabaseIdentifier))")
            }
            try transaction.execute("CREATE INDEX IF NOT EXISTS \(ownedName(lookup, "fk").quotedDatabaseIdentifier) ON \(target) (\(foreignKey))")
            for count in lookup.distinctCounts {
                try transaction.execute("CREATE INDEX IF NOT EXISTS \(ownedName(lookup, "distinct_" + count.sourceColumn).quotedDatabaseIdentifier) "
                                        + "ON \(target) (\(foreignKey), \(count.sourceColumn.quotedDatabaseIdentifier))")
            }
            for sql in lookup.recountStatements(statements(lookup), table: target) { try transaction.execute(sql) }
            try createTrigger(lookup)
        }
    }

    /// Drops socload's count triggers on the table, before socload writes rows into it itself.
    func dropTriggers() throws {
        for lookup in table.lookups {
            for purpose in ["count", "truncate"] {
                try transaction.execute("DROP TRIGGER IF EXISTS \(ownedName(lookup, purpose).quotedDatabaseIdentifier) "
                                        + "ON \(transaction.qualified(table.name))")
            }
        }
    }

    /// Creates the lookup table when it is missing; an existing one must have a lookup's shape
    /// (`PostgreSQLLookupShape`), and gets the count columns it lacks.
    func ensureTable(_ lookup: PlanLookup) throws {
        let quoted = transaction.qualified(lookup.table)
        let counts = (lookup.countColumn.map { [$0] } ?? []) + lookup.distinctCounts.map(\.countColumn)
        let existing = try Self.columnNames(of: quoted, transaction: transaction)
        if existing.isEmpty {
            let definitions = ["\(PlanLookup.keyColumn.quotedDatabaseIdentifier) bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"]
                + lookup.columns.map { "\($0.name.quotedDatabaseIdentifier) \(PostgreSQLTypes.declaredType($0.type))" }
                + counts.map { "\($0.quotedDatabaseIdentifier) bigint NOT NULL DEFAULT 0" }
                + ["CONSTRAINT \(LoadPlan.shortenedName("_socload_unique_" + lookup.table, toBytes: 63).quotedDatabaseIdentifier) "
                   + "UNIQUE NULLS NOT DISTINCT (\(statements(lookup).valueList))"]
            try transaction.execute("CREATE TABLE \(quoted) (\(definitions.joined(separator: ", ")))")
            return
        }
        try PostgreSQLLookupShape(transaction: transaction).check(lookup, relation: quoted, counts: counts)
        for column in counts where !existing.contains(column) {
            try transaction.execute("ALTER TABLE \(quoted) ADD COLUMN \(column.quotedDatabaseIdentifier) bigint NOT NULL DEFAULT 0")
        }
    }

    /// One trigger function per lookup keeps the counts right, and prunes, for the user's own
    /// writes: a plain count moves by one; a distinct count is counted again for the lookup rows
    /// a row left or joined (over the index on the foreign key and that column).
    private func createTrigger(_ lookup: PlanLookup) throws {
        guard lookup.keepsCounts || lookup.prune else { return }
        let target = transaction.qualified(table.name)
        let quotedLookup = transaction.qualified(lookup.table)
        let key = PlanLookup.keyColumn.quotedDatabaseIdentifier
        let foreignKey = lookup.foreignKey.quotedDatabaseIdentifier
        func recount(_ row: String) -> [String] {
            lookup.distinctCounts.map {
                "UPDATE \(quotedLookup) SET \($0.countColumn.quotedDatabaseIdentifier) = (SELECT count(DISTINCT "
                    + "\($0.sourceColumn.quotedDatabaseIdentifier)) FROM \(target) WHERE \(foreignKey) = \(row).\(foreignKey)) "
                    + "WHERE \(key) = \(row).\(foreignKey);"
            }
        }
        func step(_ row: String, _ sign: String) -> [String] {
            lookup.countColumn.map { count in
                let quoted = count.quotedDatabaseIdentifier
                return ["UPDATE \(quotedLookup) SET \(quoted) = \(quoted) \(sign) 1 WHERE \(key) = \(row).\(foreignKey);"]
            } ?? []
        }
        let prune = lookup.prune ? ["DELETE FROM \(quotedLookup) WHERE \(key) = OLD.\(foreignKey) AND NOT EXISTS "
            + "(SELECT 1 FROM \(target) WHERE \(foreignKey) = OLD.\(foreignKey));"] : []
        // TRUNCATE fires no row triggers: a statement trigger counts everything again.
        let all = lookup.recountStatements(statements(lookup), table: target).map { $0 + ";" }
        // NULL; keeps a branch with nothing else to do valid.
        var body = ["IF TG_OP = 'TRUNCATE' THEN NULL;"] + all
        body += ["ELSIF TG_OP = 'DELETE' THEN NULL;"] + step("OLD", "-") + recount("OLD") + prune
        body += ["ELSIF TG_OP = 'INSERT' THEN NULL;"] + step("NEW", "+") + recount("NEW")
        body += ["ELSIF OLD.\(foreignKey) IS DISTINCT FROM NEW.\(foreignKey) THEN NULL;"]
            + step("OLD", "-") + step("NEW", "+") + recount("OLD") + recount("NEW") + prune
        body += ["ELSE NULL;"] + recount("OLD") + ["END IF;", "RETURN NULL;"]
        let text = "BEGIN " + body.joined(separator: " ") + " END;"
        // A dollar quote that the body (which holds the table's names) does not contain.
        var tag = "$socload$"
        var attempt = 0
        while text.contains(tag) {
            attempt += 1
            tag = "$socload\(attempt)$"
        }
        let function = transaction.qualified(ownedName(lookup, "count"))
        let watched = ([lookup.foreignKey] + lookup.distinctCounts.map(\.sourceColumn)).map(\.quotedDatabaseIdentifier)
            .joined(separator: ", ")
        try transaction.execute("CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS \(tag)\(text)\(tag)")
        try transaction.execute("CREATE TRIGGER \(ownedName(lookup, "count").quotedDatabaseIdentifier) AFTER INSERT OR DELETE OR UPDATE OF "
                                + "\(watched) ON \(target) FOR EACH ROW EXECUTE FUNCTION \(function)()")
        try transaction.execute("CREATE TRIGGER \(ownedName(lookup, "truncate").quotedDatabaseIdentifier) AFTER TRUNCATE ON \(target) "
                                + "FOR EACH STATEMENT EXECUTE FUNCTION \(function)()")
    }
}
