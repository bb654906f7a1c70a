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
}
