extension CatalogStore {
    /// A lookup may not be a table the catalog lists as loaded (it would be replaced by a load
    /// of its own, or replace one).
    /// And a lookup that prunes is one table's alone: pruning looks only at that table's rows, so
    /// it would delete values another table still references.
    public func checkLookupNames(of table: PlanTable) throws {
        guard !table.lookups.isEmpty else { return }
        let others = try plans(claiming: Set(table.lookups.map { $0.table.lowercased() })).map(\.mainTable).filter { $0.name.lowercased() != table.name.lowercased() }
        for lookup in table.lookups {
            if let entry = try entry(for: lookup.table, withDescription: false), entry.tableName.lowercased() == lookup.table.lowercased() {
                throw PlanError("the lookup \(lookup.table) of \(table.name) would be the loaded table \(entry.tableName); "
                                + "name it otherwise (:LOOKUP, or --into)")
            }
            for other in others {
                guard let shared = other.lookup(named: lookup.table), shared.prune || lookup.prune else { continue }
                throw PlanError("the lookup \(lookup.table) of \(table.name) is also \(other.name)'s, and +prune needs a lookup "
                                + "of its own (it would delete values the other table references); name it otherwise")
            }
        }
    }
}
