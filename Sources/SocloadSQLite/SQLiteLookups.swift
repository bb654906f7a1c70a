import SocloadCore
import SocloadDatabase

/// A table's lookup tables in SQLite (see `PlanLookup`): made when missing, filled by value
/// from a relation holding the rows as they arrive, joined to give each row its foreign key,
/// counted set-based once the rows are in, then kept counted by triggers for the user's own
/// INSERT, UPDATE and DELETE. socload's triggers are dropped while it writes rows itself (a
/// sync) and made again after, all inside the load's transaction.
struct SQLiteLookups {
    let db: Database
    let table: PlanTable

    /// The SQL both databases share for these lookups.
    var writing: LookupWriting { LookupWriting(table: table, dialect: SQLiteDialect()) }

    /// Makes each lookup that `relation` still holds the values of (its foreign key is not a
    /// column there), and adds the values it lacks.
    func addMissingValues(from relation: String, columns relationColumns: Set<String>) throws {
        for lookup in writing.lookupsToFill(from: relationColumns) {
            try ensureTable(lookup)
            try db.execute(sql: writing.statements(lookup).insertMissingValues(from: relation))
        }
    }

    /// After the rows: each lookup's indexes on the table, its counts and pruning (as `recount`
    /// makes them), and its triggers.
    func finishRows() throws {
        for lookup in table.lookups { try ensureTable(lookup) }
        for sql in writing.indexStatements() { try db.execute(sql: sql) }
        try SQLiteLookupCounts(db: db, table: table).recount()
        for lookup in table.lookups { try createTriggers(lookup) }
    }

    /// Drops socload's count triggers on the table, before socload writes rows into it itself.
    func dropTriggers() throws {
        for lookup in table.lookups {
            for event in ["insert", "update", "delete"] {
                try db.execute(sql: "DROP TRIGGER IF EXISTS \(writing.ownedName(lookup, event).quotedDatabaseIdentifier)")
            }
        }
    }

    /// Creates the lookup table when it is missing; an existing one must have a lookup's shape
    /// (`SQLiteLookupShape`), and gets the count columns it lacks.
    func ensureTable(_ lookup: PlanLookup) throws {
        let quoted = lookup.table.quotedDatabaseIdentifier
        let counts = (lookup.countColumn.map { [$0] } ?? []) + lookup.distinctCounts.map(\.countColumn)
        let existing = try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [lookup.table])
        if existing.isEmpty {
            let definitions = ["\(PlanLookup.keyColumn.quotedDatabaseIdentifier) INTEGER PRIMARY KEY AUTOINCREMENT"]
                + lookup.columns.map { "\($0.name.quotedDatabaseIdentifier) \(SQLiteTypes.declaredType($0.type))" }
                + counts.map { "\($0.quotedDatabaseIdentifier) INTEGER NOT NULL DEFAULT 0" }
            try db.execute(sql: "CREATE TABLE \(quoted) (\(definitions.joined(separator: ", ")))")
            let statements = writing.statements(lookup)
            let unique = lookup.columns.count == 1 ? statements.valueList : statements.nullSafeIndexExpressions.joined(separator: ", ")
            try db.execute(sql: "CREATE UNIQUE INDEX \(("_socload_unique_" + lookup.table).quotedDatabaseIdentifier) ON \(quoted) (\(unique))")
            return
        }
        try SQLiteLookupShape(db: db).check(lookup, counts: counts)
        let present = Set(existing.map { $0.lowercased() })
        for column in counts where !present.contains(column.lowercased()) {
            try db.execute(sql: "ALTER TABLE \(quoted) ADD COLUMN \(column.quotedDatabaseIdentifier) INTEGER NOT NULL DEFAULT 0")
        }
    }

    /// Triggers that keep the counts right, and prune, for the user's own writes to the table:
    /// a plain count moves by one; a distinct count is counted again for the lookup rows a row
    /// left or joined (over the index on the foreign key and that column).
    private func createTriggers(_ lookup: PlanLookup) throws {
        guard lookup.keepsCounts || lookup.prune else { return }
        let quotedTable = table.name.quotedDatabaseIdentifier
        let quotedLookup = lookup.table.quotedDatabaseIdentifier
        let key = PlanLookup.keyColumn.quotedDatabaseIdentifier
        let foreignKey = lookup.foreignKey.quotedDatabaseIdentifier
        func counts(_ row: String, step: String?) -> String? {
            var sets = lookup.distinctCounts.map {
                "\($0.countColumn.quotedDatabaseIdentifier) = (SELECT count(DISTINCT \($0.sourceColumn.quotedDatabaseIdentifier)) "
                    + "FROM \(quotedTable) WHERE \(foreignKey) = \(row).\(foreignKey))"
            }
            if let count = lookup.countColumn?.quotedDatabaseIdentifier, let step { sets.insert("\(count) = \(count) \(step)", at: 0) }
            return sets.isEmpty ? nil : "UPDATE \(quotedLookup) SET \(sets.joined(separator: ", ")) WHERE \(key) = \(row).\(foreignKey);"
        }
        let moved = "OLD.\(foreignKey) IS NOT NEW.\(foreignKey)"
        let prune = lookup.prune ? "DELETE FROM \(quotedLookup) WHERE \(key) = OLD.\(foreignKey) AND NOT EXISTS "
            + "(SELECT 1 FROM \(quotedTable) WHERE \(foreignKey) = OLD.\(foreignKey))" : nil
        let watched = ([lookup.foreignKey] + lookup.distinctCounts.map(\.sourceColumn)).map(\.quotedDatabaseIdentifier)
        let bodies: [(event: String, header: String, statements: [String?])] = [
            ("insert", "AFTER INSERT ON \(quotedTable) WHEN NEW.\(foreignKey) IS NOT NULL", [counts("NEW", step: "+ 1")]),
            ("delete", "AFTER DELETE ON \(quotedTable) WHEN OLD.\(foreignKey) IS NOT NULL",
             [counts("OLD", step: "- 1"), prune.map { $0 + ";" }]),
            ("update", "AFTER UPDATE OF \(watched.joined(separator: ", ")) ON \(quotedTable)",
             [counts("OLD", step: "- (\(moved))"),
              counts("NEW", step: "+ 1").map { $0.dropLast() + " AND \(moved);" },
              prune.map { $0 + " AND \(moved);" }]),
        ]
        for body in bodies {
            let statements = body.statements.compactMap { $0 }
            guard !statements.isEmpty else { continue }
            try db.execute(sql: "CREATE TRIGGER \(writing.ownedName(lookup, body.event).quotedDatabaseIdentifier) \(body.header) "
                                + "BEGIN \(statements.joined(separator: " ")) END")
        }
    }
}
