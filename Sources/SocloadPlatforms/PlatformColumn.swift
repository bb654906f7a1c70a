import SocloadCore

/// One column as a platform describes it: the field its records carry, the platform's own type
/// name (kept in the data dictionary), the type socload stores it as, and what else the platform
/// says of it (a label, a description, coded values).
package struct PlatformColumn: Sendable, Equatable {
    /// The records' field name (`OBJECTID`, `_id`, `geo_point_2d`).
    package var field: String
    /// The platform's type name as it gave it (`int4`, `esriFieldTypeDate`, `geo_point_2d`).
    package var platformType: String
    package var type: LogicalType
    /// For a geometry, the kind the platform states (nil: any).
    package var geometryKind: Geometry.Kind?
    package var label: String?
    package var description: String?
    /// Coded values (ArcGIS domains): code → name, in the platform's order.
    package var codedValues: [(code: String, name: String)] = []

    package init(field: String, platformType: String, type: LogicalType, geometryKind: Geometry.Kind? = nil,
                 label: String? = nil, description: String? = nil) {
        self.field = field
        self.platformType = platformType
        self.type = type
        self.geometryKind = geometryKind
        self.label = label
        self.description = description
    }

    package static func == (lhs: PlatformColumn, rhs: PlatformColumn) -> Bool {
        lhs.field == rhs.field && lhs.platformType == rhs.platformType && lhs.type == rhs.type && lhs.geometryKind == rhs.geometryKind
            && lhs.label == rhs.label && lhs.description == rhs.description
            && lhs.codedValues.map(\.code) == rhs.codedValues.map(\.code) && lhs.codedValues.map(\.name) == rhs.codedValues.map(\.name)
    }

    /// The column as the catalog keeps it (`columns_json`): its display name, field, the
    /// platform's type, description and coded values; `statedCount` the rows the platform counts,
    /// stated of the key column so that `verify` compares them.
    func metadata(position: Int, statedCount: Int?) -> ColumnMetadata {
        var column = ColumnMetadata(name: label ?? field, fieldName: field, dataTypeName: platformType)
        column.position = position
        var text = description ?? ""
        if !codedValues.isEmpty {
            let list = codedValues.map { "\($0.code) = \($0.name)" }.joined(separator: "; ")
            text += (text.isEmpty ? "" : " ") + "Coded values: " + list
            column.format = ["codedValues": JSONValue.object(codedValues.map { JSONMember(key: $0.code, value: .string($0.name)) }).jsonText]
        }
        column.description = text.isEmpty ? nil : text
        if let statedCount { column.cachedContents = ColumnStatistics(nonNull: statedCount, null: 0) }
        return column
    }
}
