/// Child tables: the arrays of objects nested in a document's records, one table per field.
extension LoadPlan {
    /// Adds the child table of the arrays of objects under `field` of the first table's source
    /// rows: named `<table>_<field>`, its first columns the parent's key (`<table>_<keycolumn>`, a
    /// foreign key to the parent), then the element's position in its array (from 1) unless
    /// `childKey` names the elements' own id field, then the elements' fields typed as `types`
    /// says. Its key is the parent's key with the position or the id field.
    public mutating func addChildTable(arrayField field: String, elementFields: [String], types: [String: LogicalType],
                                       childKey: String?) throws {
        let parent = mainTable
        guard !parent.primaryKey.isEmpty else {
            throw PlanError("\(field) holds arrays of objects, and a child table needs the key of \(parent.name) (--pk)")
        }
        var names = ColumnNameAllocator()
        var columns: [PlanColumn] = []
        var fields: [String] = []
        var parentKeyFields: [String] = []
        var parentColumns: [String] = []
        for (index, keyName) in parent.primaryKey.enumerated() {
            guard let keyColumn = parent.column(named: keyName) else { continue }
            switch keyColumn.source {
            case .field(let cell), .rowIdentifier(sid: .some(let cell), id: _), .rowIdentifier(sid: nil, id: .some(let cell)):
                parentKeyFields.append(sourceFields[cell])
            default:
                throw PlanError("\(field): the key column \(keyName) of \(parent.name) is part of a field, not one a child table can name")
            }
            let name = names.allocate(parent.name + "_" + keyName)
            columns.append(PlanColumn(name: name, type: keyColumn.type, source: .field(cell: fields.count)))
            fields.append(PlanNesting.parentKeyField(index))
            parentColumns.append(name)
        }
        var key = parentColumns
        if childKey == nil {
            let name = names.allocate("position")
            columns.append(PlanColumn(name: name, type: .integer, source: .field(cell: fields.count)))
            fields.append(PlanNesting.positionField)
            key.append(name)
        } else if let childKey, !elementFields.contains(childKey) {
            throw PlanError("--child-key \(field):\(childKey): the objects under \(field) have no field '\(childKey)' "
                            + "(their fields: \(elementFields.joined(separator: ", ")))")
        }
        let own = Set(fields)
        for (index, elementField) in elementFields.enumerated() where !own.contains(elementField) {
            let name = names.allocate(elementField.isEmpty ? "column_\(index + 1)" : elementField)
            columns.append(PlanColumn(name: name, type: types[elementField] ?? .text, source: .field(cell: fields.count)))
            fields.append(elementField)
            if elementField == childKey { key.append(name) }
        }
        var table = PlanTable(name: parent.name + "_" + field, columns: columns, primaryKey: key,
                              foreignKeys: [PlanForeignKey(columns: parentColumns, referencedTable: parent.name,
                                                           referencedColumns: parent.primaryKey)])
        table.nesting = PlanNesting(arrayField: field, parentKeyFields: parentKeyFields, numbersElements: childKey == nil,
                                    sourceFields: fields)
        if tables.contains(where: { $0.name.lowercased() == table.name.lowercased() }) {
            throw PlanError("\(field): the child table \(table.name) would have the name of another table of the load")
        }
        tables.append(table)
    }

    /// Adds the glue table the arrays under `glue.arrayField` fill: its columns are both tables'
    /// keys (`<table>_<key>`, in the tables' alphabetical order), then every other field of the
    /// elements as an attribute of the link (typed as `types` says), then the two
    /// `_from_<table>` columns; its key is the pair.
    public mutating func addGlueTable(_ spec: GlueSpec, elementFields: [String], types: [String: LogicalType]) throws {
        let parent = mainTable
        guard parent.primaryKey.count == 1, let keyColumn = parent.column(named: parent.primaryKey[0]) else {
            throw PlanError("--glue \(spec.arrayField): a glue table needs \(parent.name) to have a key of one column "
                            + "(--pk, or :id in the records)")
        }
        guard elementFields.contains(spec.idField) else {
            throw PlanError("--glue \(spec.arrayField):\(spec.otherTable).\(spec.otherKey): the objects under \(spec.arrayField) "
                            + "have no field '\(spec.idField)' (their fields: \(elementFields.joined(separator: ", ")))")
        }
        guard spec.otherTable.lowercased() != parent.name.lowercased() else {
            throw PlanError("--glue \(spec.arrayField): a glue table links \(parent.name) to another table")
        }
        let parentField: String
        switch keyColumn.source {
        case .field(let cell), .rowIdentifier(sid: .some(let cell), id: _), .rowIdentifier(sid: nil, id: .some(let cell)):
            parentField = sourceFields[cell]
        default:
            throw PlanError("--glue \(spec.arrayField): the key of \(parent.name) is part of a field")
        }
        let thisColumn = parent.name + "_" + keyColumn.name
        let otherColumn = spec.otherTable + "_" + spec.otherKey
        var names = ColumnNameAllocator()
        let thisFirst = parent.name.lowercased() <= spec.otherTable.lowercased()
        let idNames = thisFirst ? [thisColumn, otherColumn] : [otherColumn, thisColumn]
        for name in idNames { _ = names.allocate(name) }
        let thisAsserted = names.allocate("_from_" + parent.name)
        let otherAsserted = names.allocate("_from_" + spec.otherTable)
        var fields = [PlanNesting.parentKeyField(0), spec.idField]
        let idColumns = [PlanColumn(name: thisColumn, type: keyColumn.type, source: .field(cell: 0)),
                         PlanColumn(name: otherColumn, type: types[spec.idField] ?? .text, source: .field(cell: 1))]
        var columns = thisFirst ? idColumns : idColumns.reversed()
        for (index, field) in elementFields.enumerated() where field != spec.idField && !fields.contains(field) {
            columns.append(PlanColumn(name: names.allocate(field.isEmpty ? "column_\(index + 1)" : field),
                                      type: types[field] ?? .text, source: .field(cell: fields.count)))
            fields.append(field)
        }
        let tableNames = [parent.name, spec.otherTable].sorted { $0.lowercased() < $1.lowercased() }
        var table = PlanTable(name: tableNames.joined(separator: "_"), columns: columns, primaryKey: idNames)
        table.nesting = PlanNesting(arrayField: spec.arrayField, parentKeyFields: [parentField], numbersElements: false,
                                    sourceFields: fields)
        table.glue = PlanGlue(table: parent.name, tableColumn: thisColumn, otherTable: spec.otherTable, otherKey: spec.otherKey,
                              otherColumn: otherColumn, assertedColumn: thisAsserted, otherAssertedColumn: otherAsserted,
                              idField: spec.idField)
        if tables.contains(where: { $0.name.lowercased() == table.name.lowercased() }) {
            throw PlanError("--glue \(spec.arrayField): the glue table \(table.name) would have the name of another table of the load")
        }
        tables.append(table)
    }
}
