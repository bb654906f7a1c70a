extension LoadPlan {
    /// This plan shaped to keep the columns `previous`'s table had (`--on-schema-change
    /// evolve`): its columns in their old order and names (a renamed column under its old name,
    /// with its new type), a column gone upstream kept with no source (NULL in every new row),
    /// then the columns that are new. The key follows a renamed key column.
    public func evolved(keepingColumnsOf previous: LoadPlan, changes: [SchemaChange]) -> LoadPlan {
        var renamedTo: [String: String] = [:]   // old name (lowercased) -> new name
        for change in changes where change.kind == .columnRenamed {
            if let after = change.after { renamedTo[change.name.lowercased()] = after }
        }
        var plan = self
        var columns: [PlanColumn] = []
        var placed = Set<String>()
        for old in previous.mainTable.columns {
            let newName = renamedTo[old.name.lowercased()] ?? old.name
            if var column = mainTable.column(named: newName) {
                placed.insert(column.name.lowercased())
                column.name = old.name
                columns.append(column)
            } else {
                columns.append(PlanColumn(name: old.name, type: old.type, source: .absent))
            }
        }
        columns += mainTable.columns.filter { !placed.contains($0.name.lowercased()) }
        let oldName = Dictionary(renamedTo.map { ($0.value.lowercased(), $0.key) }, uniquingKeysWith: { first, _ in first })
        let keptName = { (name: String) in
            oldName[name.lowercased()].flatMap { old in previous.mainTable.column(named: old)?.name } ?? name
        }
        plan.tables[0].columns = columns
        plan.tables[0].primaryKey = mainTable.primaryKey.map(keptName)
        return plan
    }

    /// The changes an evolved table had kept already at its last refresh (a column kept after it
    /// went, a column kept under its old name for the same field): said once, not every night.
    public func isAlreadyKept(_ change: SchemaChange, in previous: LoadPlan) -> Bool {
        guard let old = previous.mainTable.column(named: change.name) else { return false }
        switch change.kind {
        case .columnRemoved:
            if case .absent = old.source { return true }
            return false
        case .columnRenamed:
            guard let new = mainTable.column(named: change.after ?? "") else { return false }
            return previous.sourceField(of: old) != nil && previous.sourceField(of: old) == sourceField(of: new)
        default:
            return false
        }
    }

    /// The source field a main-table column is read from (nil for the row identifier and a kept column).
    public func sourceField(of column: PlanColumn) -> String? {
        switch column.source {
        case .field(let cell), .part(let cell, _, _): return cell < sourceFields.count ? sourceFields[cell] : nil
        case .rowIdentifier, .absent: return nil
        }
    }
}
