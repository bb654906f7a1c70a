extension LoadPlan {
    /// How this plan's main table differs from `previous`'s. A column is known across the two by
    /// its portal column id when both loads had the portal's column metadata (`columns`, from
    /// the catalog's `columns_json` and the new view): then a new name for the same id is a
    /// rename. Without ids (a document loaded with `load`) a rename is a removal and an addition.
    public func schemaChanges(from previous: LoadPlan, previousColumns: [ColumnMetadata] = [],
                              columns: [ColumnMetadata] = []) -> [SchemaChange] {
        let table = mainTable.name
        let old = previous.mainTable
        let new = mainTable
        let oldIdentities = previous.columnIdentities(portalColumns: previousColumns)
        let newIdentities = columnIdentities(portalColumns: columns)
        var changes: [SchemaChange] = []
        var matchedOld = Set<String>()
        var added: [PlanColumn] = []
        for column in new.columns {
            if let same = old.column(named: column.name) {
                matchedOld.insert(same.name.lowercased())
                if same.type != column.type {
                    changes.append(SchemaChange(table: table, kind: .columnRetyped, name: same.name,
                                                before: same.type.rawValue, after: column.type.rawValue))
                }
            } else {
                added.append(column)
            }
        }
        var removed = old.columns.filter { !matchedOld.contains($0.name.lowercased()) }
        // A column that is gone and one that is new with the same portal identity: a rename.
        for column in added {
            guard let identity = newIdentities[column.name],
                  let index = removed.firstIndex(where: { oldIdentities[$0.name] == identity }) else {
                changes.append(SchemaChange(table: table, kind: .columnAdded, name: column.name, after: column.type.rawValue))
                continue
            }
            let was = removed.remove(at: index)
            changes.append(SchemaChange(table: table, kind: .columnRenamed, name: was.name, before: was.name, after: column.name))
            if was.type != column.type {
                changes.append(SchemaChange(table: table, kind: .columnRetyped, name: column.name,
                                            before: was.type.rawValue, after: column.type.rawValue))
            }
        }
        for column in removed {
            changes.append(SchemaChange(table: table, kind: .columnRemoved, name: column.name, before: column.type.rawValue))
        }
        let oldKey = old.primaryKey.map { $0.lowercased() }
        if oldKey != new.primaryKey.map({ $0.lowercased() }) {
            changes.append(SchemaChange(table: table, kind: .keyChanged, name: "key", before: old.primaryKey.joined(separator: ", "),
                                        after: new.primaryKey.joined(separator: ", ")))
        }
        changes += Self.difference(old.lookups.map(\.table), new.lookups.map(\.table), table: table,
                                   added: .lookupAdded, removed: .lookupRemoved)
        let children = { (plan: LoadPlan) in plan.tables.dropFirst().filter { $0.nesting != nil }.map(\.name) }
        changes += Self.difference(children(previous), children(self), table: table,
                                   added: .childTableAdded, removed: .childTableRemoved)
        return changes
    }

    private static func difference(_ before: [String], _ after: [String], table: String,
                                   added: SchemaChange.Kind, removed: SchemaChange.Kind) -> [SchemaChange] {
        let old = Set(before.map { $0.lowercased() })
        let new = Set(after.map { $0.lowercased() })
        return after.filter { !old.contains($0.lowercased()) }.map { SchemaChange(table: table, kind: added, name: $0) }
            + before.filter { !new.contains($0.lowercased()) }.map { SchemaChange(table: table, kind: removed, name: $0) }
    }

    /// Each main-table column's identity on the portal: its column id (with the part of a
    /// compound value), when the metadata gives one; `:id` for the row identifier.
    func columnIdentities(portalColumns: [ColumnMetadata]) -> [String: String] {
        // System columns (id -1) may share a field name with a data column (`position`).
        let ids = Dictionary(portalColumns.filter { !$0.isSystemColumn && ($0.id ?? -1) >= 0 }.compactMap { column in
            column.fieldName.flatMap { field in column.id.map { (field, $0) } }
        }, uniquingKeysWith: { first, _ in first })
        var identities: [String: String] = [:]
        for column in mainTable.columns {
            switch column.source {
            case .rowIdentifier:
                identities[column.name] = ":id"
            case .absent:
                break
            case .field(let cell):
                if cell < sourceFields.count, let id = ids[sourceFields[cell]] { identities[column.name] = "\(id)" }
            case .part(let cell, let part, _):
                if cell < sourceFields.count, let id = ids[sourceFields[cell]] {
                    identities[column.name] = "\(id).\(part.rawValue)"
                }
            }
        }
        return identities
    }
}
