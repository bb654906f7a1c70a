/// The statements both destinations run to apply a lookup table set-based, in the SQL that
/// SQLite and PostgreSQL share: find-or-create the distinct values of a relation, join each
/// row to its lookup row, recompute counts, prune. Names come in quoted (and qualified) by the
/// destination; values never appear in the SQL.
///
/// A value of several columns matches NULL to NULL, as `IS NOT DISTINCT FROM` would, but
/// written as equalities over `(column IS NULL)` and `coalesce(column, default)` so that the
/// join can use an index (SQLite) or a hash (PostgreSQL).
public struct LookupStatements: Sendable {
    /// The lookup table, quoted and qualified.
    public var lookupTable: String
    /// The lookup's key column, quoted.
    public var key: String
    /// The value columns, quoted, each with a literal of its type that stands for NULL in a match.
    public var values: [(column: String, nullStandIn: String)]

    public init(lookupTable: String, key: String, values: [(column: String, nullStandIn: String)]) {
        self.lookupTable = lookupTable
        self.key = key
        self.values = values
    }

    /// The value columns, quoted, separated by commas.
    public var valueList: String { values.map(\.column).joined(separator: ", ") }

    /// The expressions a unique index over a value of several columns is built on, so that two
    /// rows with NULL in the same places are one value.
    public var nullSafeIndexExpressions: [String] {
        values.flatMap { ["(\($0.column) IS NULL)", "coalesce(\($0.column), \($0.nullStandIn))"] }
    }

    /// The condition under which the lookup row `lookup` holds the value of the row `source`
    /// (both table aliases, quoted).
    public func match(lookup: String, source: String) -> String {
        if values.count == 1 {
            return "\(lookup).\(values[0].column) = \(source).\(values[0].column)"
        }
        return values.map { value in
            "(\(lookup).\(value.column) IS NULL) = (\(source).\(value.column) IS NULL) AND "
                + "coalesce(\(lookup).\(value.column), \(value.nullStandIn)) = coalesce(\(source).\(value.column), \(value.nullStandIn))"
        }.joined(separator: " AND ")
    }

    /// The condition under which the lookup row `lookup` (an alias, quoted) holds the value bound
    /// to parameters `?first`, `?first+1`, ... (one per value column): what finds a single row's
    /// lookup while the rows stream, over the same unique index as `match(lookup:source:)`.
    public func matchParameters(lookup: String, first: Int = 1) -> String {
        if values.count == 1 {
            return "\(lookup).\(values[0].column) = ?\(first)"
        }
        return values.enumerated().map { index, value in
            let parameter = "?\(first + index)"
            return "(\(lookup).\(value.column) IS NULL) = (\(parameter) IS NULL) AND "
                + "coalesce(\(lookup).\(value.column), \(value.nullStandIn)) = coalesce(\(parameter), \(value.nullStandIn))"
        }.joined(separator: " AND ")
    }

    /// True for a row `source` whose value is not NULL in every column.
    public func hasValue(_ source: String) -> String {
        "(" + values.map { "\(source).\($0.column) IS NOT NULL" }.joined(separator: " OR ") + ")"
    }

    /// Adds to the lookup the values of `relation` it does not have yet, in sorted order (so ids
    /// are the same on every machine); a value NULL in every column is no value.
    public func insertMissingValues(from relation: String) -> String {
        """
        INSERT INTO \(lookupTable) (\(valueList)) SELECT DISTINCT \(values.map { "\"s\".\($0.column)" }.joined(separator: ", ")) \
        FROM \(relation) AS "s" WHERE \(hasValue("\"s\"")) \
        AND NOT EXISTS (SELECT 1 FROM \(lookupTable) AS "l" WHERE \(match(lookup: "\"l\"", source: "\"s\""))) \
        ORDER BY \((1...values.count).map(String.init).joined(separator: ", "))
        """
    }

    /// The join that gives each row of the relation aliased `source` its lookup row, aliased `alias`.
    public func join(alias: String, source: String) -> String {
        let condition = match(lookup: alias, source: source) + (values.count > 1 ? " AND " + hasValue(source) : "")
        return "LEFT JOIN \(lookupTable) AS \(alias) ON \(condition)"
    }

    /// Sets every count of the lookup from the source table, in two set-based statements:
    /// all to 0, then each referenced row's from one GROUP BY over the source.
    public func recount(table: String, foreignKey: String, count: String?,
                        distinct: [(sourceColumn: String, count: String)]) -> [String] {
        let counted = (count.map { [($0, "count(*)")] } ?? []) + distinct.map { ($0.count, "count(DISTINCT \($0.sourceColumn))") }
        guard !counted.isEmpty else { return [] }
        let zero = "UPDATE \(lookupTable) SET " + counted.map { "\($0.0) = 0" }.joined(separator: ", ")
        let groups = counted.enumerated().map { "\($0.element.1) AS \"n\($0.offset)\"" }.joined(separator: ", ")
        let update = "UPDATE \(lookupTable) AS \"l\" SET " + counted.enumerated().map { "\($0.element.0) = \"g\".\"n\($0.offset)\"" }
            .joined(separator: ", ")
            + " FROM (SELECT \(foreignKey) AS \"k\", \(groups) FROM \(table) WHERE \(foreignKey) IS NOT NULL "
            + "GROUP BY \(foreignKey)) AS \"g\" WHERE \"l\".\(key) = \"g\".\"k\""
        return [zero, update]
    }

    /// How many lookup rows hold a kept count (`countColumn`) other than the rows of `table`
    /// give now: `distinct` nil counts the rows, else the distinct non-NULL values of that
    /// column. Nonzero means the counts drifted (a write the triggers did not see).
    /// `distributed` (Citus, which takes no correlated subquery over a distributed table): the
    /// table's counts grouped once and joined instead.
    public func driftedRows(table: String, foreignKey: String, countColumn: String, distinct: String?,
                            distributed: Bool = false) -> String {
        let counted = distinct.map { "count(DISTINCT \"t\".\($0))" } ?? "count(*)"
        guard distributed else {
            return "SELECT count(*) FROM \(lookupTable) AS \"l\" WHERE \"l\".\(countColumn) <> "
                + "(SELECT \(counted) FROM \(table) AS \"t\" WHERE \"t\".\(foreignKey) = \"l\".\(key))"
        }
        return "SELECT count(*) FROM \(lookupTable) AS \"l\" LEFT JOIN (SELECT \"t\".\(foreignKey) AS \"k\", \(counted) AS \"n\" "
            + "FROM \(table) AS \"t\" WHERE \"t\".\(foreignKey) IS NOT NULL GROUP BY \"t\".\(foreignKey)) AS \"g\" "
            + "ON \"g\".\"k\" = \"l\".\(key) WHERE \"l\".\(countColumn) <> coalesce(\"g\".\"n\", 0)"
    }

    /// Deletes the lookup rows no row of `table` references through `foreignKey`
    /// (`distributed`: with NOT IN, the subquery not correlated, as Citus needs).
    public func prune(table: String, foreignKey: String, distributed: Bool = false) -> String {
        guard distributed else {
            return "DELETE FROM \(lookupTable) WHERE NOT EXISTS (SELECT 1 FROM \(table) AS \"t\" WHERE \"t\".\(foreignKey) = "
                + "\(lookupTable).\(key))"
        }
        return "DELETE FROM \(lookupTable) WHERE \(key) NOT IN (SELECT \"t\".\(foreignKey) FROM \(table) AS \"t\" "
            + "WHERE \"t\".\(foreignKey) IS NOT NULL)"
    }
}

extension LookupStatements {
    /// A table as a relation that also has the value columns of its lookups, joined through
    /// their foreign keys: what counts and bounds over a column extracted into a lookup read.
    /// `table` is quoted (and qualified); each lookup is its quoted table, foreign key and value
    /// columns. The table itself when it has no lookup.
    public static func relationWithValues(of table: String, key: String,
                                          lookups: [(table: String, foreignKey: String, values: [String])]) -> String {
        guard !lookups.isEmpty else { return table }
        var columns = ["\"t\".*"]
        var joins: [String] = []
        for (index, lookup) in lookups.enumerated() {
            let alias = "\"l\(index)\""
            columns += lookup.values.map { "\(alias).\($0)" }
            joins.append("LEFT JOIN \(lookup.table) AS \(alias) ON \(alias).\(key) = \"t\".\(lookup.foreignKey)")
        }
        return "(SELECT \(columns.joined(separator: ", ")) FROM \(table) AS \"t\" \(joins.joined(separator: " "))) AS \"v\""
    }
}
