import SocloadCore

/// The plan of a Socrata dataset, from its column metadata.
///
/// User columns are named by `fieldName`; system columns become `_id` (the row identifier as
/// SODA 2's `:id` gives it, and the table's key), `_created_at` and `_updated_at`, and the other
/// system columns only when asked for. Compound types are split into several columns.
extension LoadPlan {
    public static func socrata(view: ViewMetadata, options: PlanOptions) throws -> LoadPlan {
        var names = ColumnNameAllocator()
        var columns: [PlanColumn] = []
        var used = Set<String>()
        let overrides = options.typeOverrides
        func override(_ key: String) -> LogicalType? {
            guard let type = overrides[key] else { return nil }
            used.insert(key)
            return type
        }
        let system = Dictionary(view.columns.enumerated().filter { $0.element.isSystemColumn }
            .map { ($0.element.systemName, $0.offset) }, uniquingKeysWith: { first, _ in first })

        var primaryKey: [String] = []
        if system["sid"] != nil || system["id"] != nil {
            let name = names.allocate("_id")
            columns.append(PlanColumn(name: name, type: override(name) ?? .text,
                                      source: .rowIdentifier(sid: system["sid"], id: system["id"])))
            primaryKey = [name]
        }
        for field in ["created_at", "updated_at"] {
            if let cell = system[field] {
                let name = names.allocate("_" + field)
                columns.append(PlanColumn(name: name, type: override(name) ?? .timestamp, source: .field(cell: cell)))
            }
        }
        if options.includeSystemColumns {
            for (field, base) in [("sid", "_sid"), ("id", "_row_id"), ("position", "_position"),
                                  ("created_meta", "_created_meta"), ("updated_meta", "_updated_meta"), ("meta", "_meta")] {
                if let cell = system[field] {
                    let name = names.allocate(base)
                    columns.append(PlanColumn(name: name, type: override(name) ?? .text, source: .field(cell: cell)))
                }
            }
        }

        for (index, column) in view.columns.enumerated() where !column.isSystemColumn {
            let field = column.fieldName ?? column.name ?? ""
            let base = field.isEmpty ? "column_\(index + 1)" : ColumnMetadata.columnName(forField: field)
            if let type = override(base) {
                columns.append(PlanColumn(name: names.allocate(base), type: type, source: .field(cell: index)))
                continue
            }
            for (suffix, type, part) in socrataColumns(dataTypeName: column.dataTypeName) {
                let source: ColumnSource = part.map { .part(cell: index, part: $0, subColumnTypes: column.subColumnTypes) }
                    ?? .field(cell: index)
                var planColumn = PlanColumn(name: names.allocate(base + suffix), type: type, source: source)
                if type == .geometry, part == nil { planColumn.geometryKind = column.dataTypeName.flatMap(Geometry.Kind.init(socrataType:)) }
                columns.append(planColumn)
            }
        }

        if let unknown = overrides.keys.sorted().first(where: { !used.contains($0) }) {
            throw PlanError("--type \(unknown)=...: the dataset has no column '\(unknown)'")
        }
        var table = PlanTable(name: options.tableName, columns: columns, primaryKey: primaryKey)
        table.descriptions = Self.descriptions(of: columns, in: view)
        try table.apply(options)
        let fields = view.columns.map { $0.fieldName ?? $0.name ?? "" }
        return LoadPlan(tables: [table], sourceFields: fields, options: options)
    }

    /// The columns one Socrata column becomes: a name suffix ("" for the main column), a logical
    /// type, and the part of the value it holds (nil: the whole value).
    static func socrataColumns(dataTypeName: String?) -> [(String, LogicalType, FieldPart?)] {
        switch dataTypeName?.lowercased() ?? "" {
        case "text", "html", "email", "flag", "drop_down_list": return [("", .text, nil)]
        case "number", "money", "percent", "stars": return [("", .decimal, nil)]
        case "double": return [("", .double, nil)]
        case "checkbox", "boolean": return [("", .boolean, nil)]
        case "calendar_date", "floating_timestamp": return [("", .floatingTimestamp, nil)]
        case "date", "fixed_timestamp": return [("", .timestamp, nil)]
        case "location":
            return [("", .json, .locationAddress), ("_latitude", .double, .locationLatitude),
                    ("_longitude", .double, .locationLongitude)]
        case "url": return [("", .text, .url), ("_description", .text, .urlDescription)]
        case "phone": return [("", .text, .phoneNumber), ("_type", .text, .phoneType)]
        case "point":
            return [("", .geometry, .pointGeometry), ("_longitude", .double, .pointLongitude),
                    ("_latitude", .double, .pointLatitude)]
        case "line", "linestring", "polygon", "multipoint", "multiline", "multilinestring", "multipolygon":
            return [("", .geometry, nil)]
        default: return [("", .json, nil)]
        }
    }

    /// The portal's descriptions of the dataset and of each column's field (nil when it gave none).
    static func descriptions(of columns: [PlanColumn], in view: ViewMetadata) -> TableDescriptions? {
        let described = TableDescriptions.columnTexts(of: columns, from: view.columns)
        guard view.dictionary.description != nil || !described.isEmpty else { return nil }
        return TableDescriptions(table: view.dictionary.description, columns: described)
    }
}
