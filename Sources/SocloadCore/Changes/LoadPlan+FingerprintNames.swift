/// A rename is no change to a row: each column's values are fingerprinted under the name they
/// were first loaded under (`PlanColumn.fingerprintName`), which a rename carries over, so a
/// refresh that only renamed columns counts every row unchanged and logs no row.
extension LoadPlan {
    /// This plan with each main-table column's fingerprint name taken from the column it was in
    /// `previous`: the same name, or the name `changes` says it was renamed from (by its portal
    /// column id). A column new to this plan is fingerprinted under its own name.
    public func keepingFingerprintNames(of previous: LoadPlan, changes: [SchemaChange]) -> LoadPlan {
        var renamedFrom: [String: String] = [:]
        for change in changes where change.kind == .columnRenamed {
            if let after = change.after { renamedFrom[after.lowercased()] = change.before ?? change.name }
        }
        var plan = self
        for index in plan.tables[0].columns.indices {
            let name = plan.tables[0].columns[index].name
            guard let old = previous.mainTable.column(named: renamedFrom[name.lowercased()] ?? name) else { continue }
            let fingerprintName = old.fingerprintName ?? old.name
            plan.tables[0].columns[index].fingerprintName = fingerprintName == name ? nil : fingerprintName
        }
        return plan
    }
}

extension PlanTable {
    /// The columns of `previous` that have another name in this table (a rename carried by
    /// their fingerprint names): previous name → name here.
    public func renamedColumns(since previous: PlanTable) -> [String: String] {
        var renamed: [String: String] = [:]
        for column in columns {
            let identity = (column.fingerprintName ?? column.name).lowercased()
            guard let old = previous.columns.first(where: { ($0.fingerprintName ?? $0.name).lowercased() == identity }),
                  old.name.lowercased() != column.name.lowercased() else { continue }
            renamed[old.name] = column.name
        }
        return renamed
    }
}
