/// Distribution over a Citus cluster for the tables a distributed table brings.
extension LoadPlan {
    /// When the first table is distributed: each child table is distributed by its copy of the
    /// parent's distribution column, and each glue table by its column holding the parent's
    /// key, both colocated with the parent, so parent-child joins and foreign keys stay on one
    /// server. Each is checked as the parent is (`PlanTable.distribute(by:)`: the column in
    /// every unique key). Lookups need nothing here: a destination makes them reference tables.
    public mutating func distributeNestedTables() throws {
        let parent = mainTable
        guard let column = parent.distributionColumn else { return }
        for index in tables.indices.dropFirst() {
            var table = tables[index]
            let copy: String?
            if let glue = table.glue {
                // A glue table needs the parent's single-column key, which the distribution column is.
                copy = parent.primaryKey.count == 1 && parent.primaryKey[0].lowercased() == column.lowercased() ? glue.tableColumn : nil
            } else if table.nesting != nil, let link = table.foreignKeys.first(where: { $0.referencedTable == parent.name }),
                      let position = link.referencedColumns.firstIndex(where: { $0.lowercased() == column.lowercased() }) {
                copy = link.columns[position]
            } else {
                copy = nil
            }
            guard let copy else {
                throw PlanError("--distribute-by \(column): \(table.name) has no copy of \(parent.name).\(column) to be distributed by "
                                + "with it")
            }
            do {
                try table.distribute(by: copy)
            } catch let error as PlanError {
                let reason = error.description.drop { $0 != ":" }.dropFirst().drop { $0 == " " }
                throw PlanError("--distribute-by \(column): \(table.name), distributed with \(parent.name) by \(copy): " + reason)
            }
            table.colocatedWith = parent.name
            tables[index] = table
        }
    }
}
