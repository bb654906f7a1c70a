/// The SQL of a table's lookups that both databases share, written once against the dialect:
/// which lookups a relation of arriving rows still holds the values of, the values it adds, the
/// SELECT list and joins that give each row its foreign keys, and the indexes after the rows.
/// What differs per database (the lookup table's DDL, the triggers) stays with each.
public struct LookupWriting: Sendable {
    public let table: PlanTable
    public let dialect: any SQLDialect

    public init(table: PlanTable, dialect: any SQLDialect) {
        self.table = table
        self.dialect = dialect
    }

    /// The shared statements for one lookup.
    public func statements(_ lookup: PlanLookup) -> LookupStatements {
        LookupStatements(lookupTable: dialect.table(lookup.table), key: PlanLookup.keyColumn.quotedDatabaseIdentifier,
                         values: lookup.columns.map { ($0.name.quotedDatabaseIdentifier, dialect.nullStandIn($0.type)) })
    }

    /// `_socload_<purpose>_<table>_<lookup>`: socload's own objects, never rebuilt as the user's
    /// (shortened where the database keeps shorter names).
    public func ownedName(_ lookup: PlanLookup, _ purpose: String) -> String {
        Self.ownedName(table: table.name, lookup: lookup.table, purpose, maximumNameBytes: dialect.maximumNameBytes)
    }

    /// The same name from the tables' names alone (a drop, a swap), for a database that keeps
    /// names of at most `maximumNameBytes`.
    public static func ownedName(table: String, lookup: String, _ purpose: String, maximumNameBytes: Int?) -> String {
        let name = "_socload_\(purpose)_\(table)_\(lookup)"
        return maximumNameBytes.map { LoadPlan.shortenedName(name, toBytes: $0) } ?? name
    }

    /// The lookups whose values a relation with `columns` still holds (their foreign key is not
    /// one of its columns, as the database compares names).
    public func lookupsToFill(from columns: Set<String>) -> [PlanLookup] {
        let present = dialect.namesIgnoreCase ? Set(columns.map { $0.lowercased() }) : columns
        return table.lookups.filter { !present.contains(dialect.namesIgnoreCase ? $0.foreignKey.lowercased() : $0.foreignKey) }
    }

    /// The SELECT list and joins that turn rows of a relation (alias "s") with `relationColumns`
    /// into `columns` of the table: a lookup's foreign key from its join, where the relation
    /// holds the values.
    public func storedRows(_ columns: [String], relationColumns: Set<String>) -> (select: String, joins: String) {
        var joins: [String] = []
        var aliases: [String: String] = [:]
        let filled = Set(lookupsToFill(from: relationColumns).map(\.table))
        for (index, lookup) in table.lookups.enumerated() where filled.contains(lookup.table) {
            let alias = "\"l\(index)\""
            aliases[lookup.foreignKey] = alias
            joins.append(statements(lookup).join(alias: alias, source: "\"s\""))
        }
        let select = columns.map { column in
            aliases[column].map { "\($0).\(PlanLookup.keyColumn.quotedDatabaseIdentifier)" } ?? "\"s\".\(column.quotedDatabaseIdentifier)"
        }.joined(separator: ", ")
        return (select, joins.joined(separator: " "))
    }

    /// The indexes each lookup needs on the table once its rows are in: over the foreign key,
    /// and over it with each column counted distinctly. An index over the foreign key and a
    /// counted column serves every search by the foreign key too, so a lookup with a distinct
    /// count has no index over the foreign key alone (one less index to build at every load).
    public func indexStatements() -> [String] {
        let target = dialect.table(table.name)
        return table.lookups.flatMap { lookup -> [String] in
            let foreignKey = lookup.foreignKey.quotedDatabaseIdentifier
            guard !lookup.distinctCounts.isEmpty else {
                return ["CREATE INDEX IF NOT EXISTS \(ownedName(lookup, "fk").quotedDatabaseIdentifier) ON \(target) (\(foreignKey))"]
            }
            return lookup.distinctCounts.map { count in
                "CREATE INDEX IF NOT EXISTS \(ownedName(lookup, "distinct_" + count.sourceColumn).quotedDatabaseIdentifier) "
                    + "ON \(target) (\(foreignKey), \(count.sourceColumn.quotedDatabaseIdentifier))"
            }
        }
    }

    /// One query per count the lookups keep: how many lookup rows hold a count that differs
    /// from the table's rows now (what `verify` reports as drift).
    public func driftQueries() -> [(lookupTable: String, countColumn: String, sql: String)] {
        table.lookups.flatMap { lookup in
            lookup.keptCounts.map { column, distinct in
                (lookup.table, column, statements(lookup).driftedRows(
                    table: dialect.table(table.name), foreignKey: lookup.foreignKey.quotedDatabaseIdentifier,
                    countColumn: column.quotedDatabaseIdentifier, distinct: distinct?.quotedDatabaseIdentifier,
                    distributed: table.distributionColumn != nil))
            }
        }
    }

    /// Every kept count made again from the rows, and pruning lookups pruned: the end of a load,
    /// `socload recount`.
    public func recountStatements() -> [String] {
        table.lookups.flatMap { lookup in
            lookup.recountStatements(statements(lookup), table: dialect.table(table.name), distributed: table.distributionColumn != nil)
        }
    }
}
