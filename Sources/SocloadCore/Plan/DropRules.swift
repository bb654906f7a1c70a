/// What `socload drop` may remove, decided from the plans the catalog records (no SQL): a table
/// that another loaded table uses — as its lookup, or as its child table — is refused (socload
/// never cascades), and a dataset's child tables go with it only when they are really its own,
/// whatever a hand-edited plan says. Each destination adds the foreign keys its catalog shows.
public enum DropRules {
    /// The loaded tables (other than `table` itself) whose plans use `table` as a lookup or a
    /// child table, sorted.
    public static func users(of table: String, plans: [LoadPlan]) -> [String] {
        let name = table.lowercased()
        var users = Set<String>()
        for plan in plans where plan.mainTable.name.lowercased() != name {
            for planned in plan.tables {
                if planned.lookups.contains(where: { $0.table.lowercased() == name }) { users.insert(planned.name) }
                if planned.nesting != nil, planned.glue == nil, planned.name.lowercased() == name { users.insert(plan.mainTable.name) }
            }
        }
        return users.sorted()
    }

    /// The child tables of `plan` that go with it: never the main table of another loaded
    /// dataset, nor a table another dataset also records as its child.
    public static func ownChildren(of plan: LoadPlan, plans: [LoadPlan]) -> [PlanTable] {
        let main = plan.mainTable.name.lowercased()
        let others = plans.filter { $0.mainTable.name.lowercased() != main }
        let taken = Set(others.flatMap { $0.tables.map { $0.name.lowercased() } })
        return plan.tables.dropFirst().filter { child in
            child.nesting != nil && child.glue == nil && child.name.lowercased() != main && !taken.contains(child.name.lowercased())
        }
    }
}
