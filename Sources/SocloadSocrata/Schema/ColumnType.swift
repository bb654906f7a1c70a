/// What a Socrata column becomes in a table, decided by its `dataTypeName`.
///
/// Unknown type names never fail a load: they become `json` (the value kept as JSON text).
public enum ColumnType: String, Sendable, Codable, CaseIterable {
    /// text, html, email, flag, drop_down_list: TEXT as given.
    case text
    /// number, money, percent, stars: NUMERIC; integer when integral, else real; `$` and `,` removed.
    case number
    /// double: REAL; NaN and infinities become NULL.
    case double
    /// checkbox: INTEGER 1 / 0 / NULL.
    case checkbox
    /// calendar_date (floating timestamp): ISO-8601 text without zone, as given.
    case calendarDate = "calendar_date"
    /// date (fixed timestamp): ISO-8601 UTC text with `Z`; epoch seconds are converted.
    case timestamp = "date"
    /// location: human address JSON text, plus `_latitude` and `_longitude` REAL columns.
    case location
    /// url: the URL, plus a `_description` column.
    case url
    /// point: WKT or GeoJSON as given, plus `_longitude` and `_latitude` REAL columns.
    case point
    /// line, polygon and the multi* types: WKT or GeoJSON as given.
    case geometry
    /// phone: the number, plus a `_type` column.
    case phone
    /// photo, document, nested_table, list, object, json and any unknown type: JSON text.
    case json

    public init(dataTypeName: String?) {
        switch dataTypeName?.lowercased() ?? "" {
        case "text", "html", "email", "flag", "drop_down_list": self = .text
        case "number", "money", "percent", "stars": self = .number
        case "double": self = .double
        case "checkbox", "boolean": self = .checkbox
        case "calendar_date", "floating_timestamp": self = .calendarDate
        case "date", "fixed_timestamp": self = .timestamp
        case "location": self = .location
        case "url": self = .url
        case "point": self = .point
        case "line", "linestring", "polygon", "multipoint", "multiline", "multilinestring", "multipolygon":
            self = .geometry
        case "phone": self = .phone
        default: self = .json
        }
    }

    /// The table columns one source column becomes: a name suffix ("" for the main column) and a
    /// storage class.
    public var outputs: [(suffix: String, storage: ColumnStorage)] {
        switch self {
        case .text, .calendarDate, .timestamp, .geometry, .json: return [("", .text)]
        case .number: return [("", .numeric)]
        case .double: return [("", .real)]
        case .checkbox: return [("", .integer)]
        case .location: return [("", .text), ("_latitude", .real), ("_longitude", .real)]
        case .url: return [("", .text), ("_description", .text)]
        case .point: return [("", .text), ("_longitude", .real), ("_latitude", .real)]
        case .phone: return [("", .text), ("_type", .text)]
        }
    }
}

/// A column's storage class in the destination. Each destination spells it in its own dialect.
public enum ColumnStorage: String, Sendable, Codable {
    case text = "TEXT"
    case numeric = "NUMERIC"
    case real = "REAL"
    case integer = "INTEGER"
}
