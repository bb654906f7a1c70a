import SocloadCore
import SocloadEngine
import SocloadTransport

/// The plan of a plain JSON document (`socload load`), from the fields its records hold and
/// the types inferred from every value: no Socrata metadata, real or pretended.
extension LoadPlan {
    /// `fields` are the records' fields in cell order; the system fields among them (`:id`,
    /// `:created_at`, `:updated_at`, as a saved SODA page may carry) become `_id` (the key),
    /// `_created_at` and `_updated_at`, as `fetch` names them. Each other field is a column of
    /// its inferred type (an empty name is `column_N`, N its position), unless
    /// `options.typeOverrides` gives another; an override of no field is a `PlanError`.
    public static func document(fields: [String], types: [String: LogicalType], options: PlanOptions) throws -> LoadPlan {
        var names = ColumnNameAllocator()
        var columns: [PlanColumn] = []
        var used = Set<String>()
        func type(_ key: String, inferred: LogicalType) -> LogicalType {
            guard let given = options.typeOverrides[key] else { return inferred }
            used.insert(key)
            return given
        }
        var primaryKey: [String] = []
        if let id = fields.firstIndex(of: ":id") {
            let name = names.allocate("_id")
            columns.append(PlanColumn(name: name, type: type(name, inferred: .text), source: .rowIdentifier(sid: nil, id: id)))
            primaryKey = [name]
        }
        for field in [":created_at", ":updated_at"] {
            if let cell = fields.firstIndex(of: field) {
                let name = names.allocate("_" + field.dropFirst())
                columns.append(PlanColumn(name: name, type: type(name, inferred: .timestamp), source: .field(cell: cell)))
            }
        }
        for (index, field) in fields.enumerated() where !DocumentSystemFields.all.contains(field) {
            // A computed region is named without its `:@`, as a fetch names it.
            let base = field.isEmpty ? "column_\(index + 1)" : ColumnMetadata.columnName(forField: field)
            columns.append(PlanColumn(name: names.allocate(base), type: type(base, inferred: types[field] ?? .text),
                                      source: .field(cell: index)))
        }
        if let unknown = options.typeOverrides.keys.sorted().first(where: { !used.contains($0) }) {
            throw PlanError("--type \(unknown)=...: the dataset has no column '\(unknown)'")
        }
        var table = PlanTable(name: options.tableName, columns: columns, primaryKey: primaryKey)
        try table.apply(options)
        return LoadPlan(tables: [table], sourceFields: fields, options: options)
    }
}
