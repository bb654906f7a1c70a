
/// The counts a lookup keeps, and the statements that make them again.
extension PlanLookup {
    /// Each count this lookup keeps: its column, and the column counted distinctly (nil: rows).
    public var keptCounts: [(column: String, distinct: String?)] {
        (countColumn.map { [($0, nil)] } ?? []) + distinctCounts.map { ($0.countColumn, $0.sourceColumn) }
    }

    /// The statements that make every count this lookup keeps for `table` (quoted) again from
    /// its rows, then prune it when it prunes: what a load's end, `recount` and PostgreSQL's
    /// TRUNCATE trigger run alike.
    /// `distributed`: the table is spread over servers (Citus), which take no correlated
    /// subquery over it: the prune says NOT IN instead of NOT EXISTS.
    public func recountStatements(_ statements: LookupStatements, table: String, distributed: Bool = false) -> [String] {
        let foreignKey = self.foreignKey.quotedDatabaseIdentifier
        return statements.recount(table: table, foreignKey: foreignKey, count: countColumn?.quotedDatabaseIdentifier,
                                  distinct: distinctCounts.map { ($0.sourceColumn.quotedDatabaseIdentifier,
                                                                  $0.countColumn.quotedDatabaseIdentifier) })
            + (prune ? [statements.prune(table: table, foreignKey: foreignKey, distributed: distributed)] : [])
    }
}
