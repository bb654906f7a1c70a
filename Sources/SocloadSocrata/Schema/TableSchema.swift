import SocloadDatabase

/// The table a dataset is loaded into, and how each row's cells become its values.
///
/// Built from the column metadata: user columns are named by `fieldName`; system columns become
/// `_id` (the row identifier as SODA 2's `:id` gives it), `_created_at` and `_updated_at`, and the
/// other system columns only when asked for.
public struct TableSchema: Sendable {
    public let tableName: String
    public let columns: [TableColumn]
    /// How many cells each data row must have (one per metadata column).
    public let cellCount: Int
    let plans: [CellPlan]

    /// What to do with one cell (or, for the row identifier, two).
    enum CellPlan: Sendable {
        case column(cell: Int, type: ColumnType, subColumnTypes: [String]?)
        /// `_id`: the `sid` when it is text (new backend, `row-...`), else the GUID `id` (old backend).
        case identity(sid: Int?, id: Int?)
        case systemTimestamp(cell: Int)
        case systemRaw(cell: Int)
    }

    /// The schema for a dataset's columns.
    public init(tableName: String, view: ViewMetadata, includeSystemColumns: Bool = false) {
        self.tableName = tableName
        var names = ColumnNameAllocator()
        var columns: [TableColumn] = []
        var plans: [CellPlan] = []
        let system = Dictionary(view.columns.enumerated().filter { $0.element.isSystemColumn }
            .map { ($0.element.systemName, $0.offset) }, uniquingKeysWith: { first, _ in first })

        if !system.isEmpty {
            if system["sid"] != nil || system["id"] != nil {
                columns.append(TableColumn(name: names.allocate("_id"), storage: .text, isPrimaryKey: true,
                                           sourceFieldName: ":id"))
                plans.append(.identity(sid: system["sid"], id: system["id"]))
            }
            for field in ["created_at", "updated_at"] {
                if let cell = system[field] {
                    columns.append(TableColumn(name: names.allocate("_" + field), storage: .text, sourceFieldName: ":" + field))
                    plans.append(.systemTimestamp(cell: cell))
                }
            }
            if includeSystemColumns {
                for (field, columnName) in [("sid", "_sid"), ("id", "_row_id"), ("position", "_position"),
                                            ("created_meta", "_created_meta"), ("updated_meta", "_updated_meta"),
                                            ("meta", "_meta")] {
                    if let cell = system[field] {
                        columns.append(TableColumn(name: names.allocate(columnName), storage: .text, sourceFieldName: ":" + field))
                        plans.append(.systemRaw(cell: cell))
                    }
                }
            }
        }

        for (index, column) in view.columns.enumerated() where !column.isSystemColumn {
            let type = ColumnType(dataTypeName: column.dataTypeName)
            let field = column.fieldName ?? column.name ?? ""
            let base = field.isEmpty ? "column_\(index + 1)" : field
            let sourceName = field.isEmpty ? base : field
            for output in type.outputs {
                columns.append(TableColumn(name: names.allocate(base + output.suffix), storage: output.storage,
                                           sourceFieldName: sourceName))
            }
            plans.append(.column(cell: index, type: type, subColumnTypes: column.subColumnTypes))
        }
        self.columns = columns
        self.plans = plans
        cellCount = view.columns.count
    }

    /// The table name for a dataset id: `n5m4-mism` → `n5m4_mism`.
    public static func tableName(forDatasetID id: String) -> String {
        id.replacingOccurrences(of: "-", with: "_")
    }

    /// The row's values in column order. `rowNumber` (1-based) is for the error message.
    public func values(for cells: [JSONValue], rowNumber: Int) throws -> [DatabaseValue] {
        guard cells.count == cellCount else {
            throw LoadError.rowShape(row: rowNumber, expected: cellCount, found: cells.count)
        }
        var values: [DatabaseValue] = []
        values.reserveCapacity(columns.count)
        for plan in plans {
            switch plan {
            case let .column(cell, type, subColumnTypes):
                append(type, cells[cell], subColumnTypes, to: &values)
            case let .identity(sid, id):
                let sidValue = sid.map { cells[$0] } ?? .null
                if case .string = sidValue {
                    values.append(CellConversion.text(sidValue))
                } else if let id, !cells[id].isNull {
                    values.append(CellConversion.text(cells[id]))
                } else {
                    values.append(CellConversion.text(sidValue))
                }
            case let .systemTimestamp(cell):
                values.append(CellConversion.timestamp(cells[cell]))
            case let .systemRaw(cell):
                values.append(CellConversion.text(cells[cell]))
            }
        }
        return values
    }

    private func append(_ type: ColumnType, _ cell: JSONValue, _ subColumnTypes: [String]?, to values: inout [DatabaseValue]) {
        switch type {
        case .text, .geometry, .json: values.append(CellConversion.text(cell))
        case .calendarDate: values.append(CellConversion.calendarDate(cell))
        case .number: values.append(CellConversion.number(cell))
        case .double: values.append(CellConversion.double(cell))
        case .checkbox: values.append(CellConversion.checkbox(cell))
        case .timestamp: values.append(CellConversion.timestamp(cell))
        case .location: values.append(contentsOf: CellConversion.location(cell, subColumnTypes: subColumnTypes))
        case .url: values.append(contentsOf: CellConversion.url(cell, subColumnTypes: subColumnTypes))
        case .point: values.append(contentsOf: CellConversion.point(cell))
        case .phone: values.append(contentsOf: CellConversion.phone(cell, subColumnTypes: subColumnTypes))
        }
    }

    /// Which table columns each source field became, for the catalog.
    public var columnMappingJSON: String {
        var groups: [(field: String, columns: [TableColumn])] = []
        for column in columns {
            if let last = groups.last, last.field == column.sourceFieldName {
                groups[groups.count - 1].columns.append(column)
            } else {
                groups.append((column.sourceFieldName, [column]))
            }
        }
        let entries = groups.map { group -> JSONValue in
            .object([JSONMember(key: "fieldName", value: .string(group.field)),
                     JSONMember(key: "columns", value: .array(group.columns.map { column in
                         .object([JSONMember(key: "name", value: .string(column.name)),
                                  JSONMember(key: "type", value: .string(column.storage.rawValue))])
                     }))])
        }
        return JSONValue.array(entries).jsonText
    }
}
