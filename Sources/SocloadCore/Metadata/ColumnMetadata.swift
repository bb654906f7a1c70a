/// One column as Socrata describes it in `meta.view.columns` (rows.json) or `/api/views/ID.json`.
///
/// Every field is optional and decoded leniently: a portal that omits or retypes a field must not
/// stop a load.
public struct ColumnMetadata: Codable, Sendable, Equatable {
    public var id: Int?
    public var name: String?
    public var fieldName: String?
    public var dataTypeName: String?
    public var renderTypeName: String?
    public var position: Int?
    public var description: String?
    public var subColumnTypes: [String]?
    public var flags: [String]?
    /// How the portal displays the column (`precisionStyle`, `view`, ...), each as text.
    public var format: [String: String]?
    /// The portal's statistics for the column at export time, when it gave them.
    public var cachedContents: ColumnStatistics?

    public init(id: Int? = nil, name: String? = nil, fieldName: String? = nil, dataTypeName: String? = nil,
                renderTypeName: String? = nil, position: Int? = nil, description: String? = nil,
                subColumnTypes: [String]? = nil, flags: [String]? = nil, cachedContents: ColumnStatistics? = nil) {
        self.id = id
        self.name = name
        self.fieldName = fieldName
        self.dataTypeName = dataTypeName
        self.renderTypeName = renderTypeName
        self.position = position
        self.description = description
        self.subColumnTypes = subColumnTypes
        self.flags = flags
        self.cachedContents = cachedContents
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try? container.decodeIfPresent(Int.self, forKey: .id)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
        fieldName = try? container.decodeIfPresent(String.self, forKey: .fieldName)
        dataTypeName = try? container.decodeIfPresent(String.self, forKey: .dataTypeName)
        renderTypeName = try? container.decodeIfPresent(String.self, forKey: .renderTypeName)
        position = try? container.decodeIfPresent(Int.self, forKey: .position)
        description = try? container.decodeIfPresent(String.self, forKey: .description)
        subColumnTypes = try? container.decodeIfPresent([String].self, forKey: .subColumnTypes)
        flags = try? container.decodeIfPresent([String].self, forKey: .flags)
        format = (try? container.decodeIfPresent([String: LenientText].self, forKey: .format))?.flatMap { $0 }
            .map { $0.mapValues(\.text) }.flatMap { $0.isEmpty ? nil : $0 }
        cachedContents = (try? container.decodeIfPresent(ColumnStatistics.self, forKey: .cachedContents)).flatMap { $0 }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// True for Socrata's own row columns (`:sid`, `:id`, `:created_at`, ...), old or new spelling.
    /// A computed region (`:@computed_region_k83t_ady5`) is data, not a system column.
    public var isSystemColumn: Bool {
        dataTypeName == "meta_data" || (fieldName.map(Self.isSystemField) ?? false)
    }

    /// True for the field name of one of Socrata's own row fields (`:id`, `:created_at`, ...):
    /// a `:` first, but not `:@`, which starts the fields the portal computes from the data
    /// (`:@computed_region_k83t_ady5`, the "Zip Codes" a point falls in), loaded like any other.
    public static func isSystemField(_ field: String) -> Bool {
        field.hasPrefix(":") && !field.hasPrefix(":@")
    }

    /// The column a data field is loaded into: its field name, without the `:@` of a computed
    /// region (`:@computed_region_k83t_ady5` → `computed_region_k83t_ady5`), whichever API or
    /// file gave the rows.
    public static func columnName(forField field: String) -> String {
        field.hasPrefix(":@") && field.count > 2 ? String(field.dropFirst(2)) : field
    }

    /// The system column's name without the colon: `sid`, `id`, `created_at`, ...
    public var systemName: String {
        let raw = fieldName ?? name ?? ""
        return raw.hasPrefix(":") ? String(raw.dropFirst()) : raw
    }
}

/// A JSON scalar read as text (a format's values are strings, numbers or booleans).
struct LenientText: Codable, Sendable, Equatable {
    var text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) { text = string }
        else if let integer = try? container.decode(Int64.self) { text = String(integer) }
        else if let real = try? container.decode(Double.self) { text = String(real) }
        else if let flag = try? container.decode(Bool.self) { text = String(flag) }
        else { text = "" }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
