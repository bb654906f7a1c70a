import Foundation

extension LoadPlan {
    /// The plan as compact JSON with sorted keys, for the catalog.
    public var jsonText: String {
        Self.encode(self)
    }

    package static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// Which table columns each source field became, for the catalog's `column_mapping_json`.
    public var columnMappingJSON: String {
        var groups: [(field: String, columns: [PlanColumn])] = []
        for column in mainTable.columns {
            let field: String
            switch column.source {
            case .field(let cell), .part(let cell, _, _): field = cell < sourceFields.count ? sourceFields[cell] : ""
            case .rowIdentifier: field = ":id"
            case .absent: field = ""
            }
            if let last = groups.last, last.field == field {
                groups[groups.count - 1].columns.append(column)
            } else {
                groups.append((field, [column]))
            }
        }
        let entries = groups.map { group -> JSONValue in
            .object([JSONMember(key: "fieldName", value: .string(group.field)),
                     JSONMember(key: "columns", value: .array(group.columns.map { column in
                         .object([JSONMember(key: "name", value: .string(column.name)),
                                  JSONMember(key: "type", value: .string(column.type.rawValue))])
                     }))])
        }
        return JSONValue.array(entries).jsonText
    }
}
