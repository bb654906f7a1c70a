import SocloadCore
import SocloadFiles

/// The columns of SODA row objects (`{"name": "Ann", ":id": "row-..."}`, null fields absent):
/// the metadata columns with the system fields SODA returns. Its plan's source fields are these
/// columns' names, so `RowConverter` maps each object's members to the same cells a rows.json
/// row has: one plan and one set of conversions for every API.
struct SODARowLayout {
    /// The columns, with the system fields SODA returns (`:id`, `:created_at`, `:updated_at`).
    let view: ViewMetadata

    static let systemFields = DocumentSystemFields.all

    /// From the dataset's metadata. Pass the fields a `$select` asked for, to keep only those
    /// (see `fieldNames(inSelect:)`: `*` keeps every user column, `:*` every system field), and
    /// the system fields the rows carry when that is known (a saved page has no `:id`).
    init(view: ViewMetadata, selectedFields: Set<String>? = nil, systemFields carried: Set<String>? = nil) {
        var columns = view.columns.filter { !$0.isSystemColumn }
        if let selectedFields, !selectedFields.contains("*") {
            columns = columns.filter { selectedFields.contains($0.fieldName ?? "") }
        }
        let system = Self.systemFields.filter { field in
            (selectedFields.map { $0.contains(field) || $0.contains(":*") } ?? true) && (carried?.contains(field) ?? true)
        }
            .map { ColumnMetadata(name: String($0.dropFirst()), fieldName: $0, dataTypeName: "meta_data") }
        var adjusted = view
        adjusted.columns = system + columns
        self.init(columns: adjusted)
    }

    /// From the `X-SODA2-Fields` and `X-SODA2-Types` headers, when no metadata can be had. They are
    /// deprecated and dropped on wide datasets, so nil is a real possibility.
    init?(head: HTTPResponseHead, id: String?) {
        guard let fieldsText = head.headers["x-soda2-fields"], let typesText = head.headers["x-soda2-types"],
              case .array(let fields)? = try? JSONValueParser.parse(Array(fieldsText.utf8)),
              case .array(let types)? = try? JSONValueParser.parse(Array(typesText.utf8)),
              fields.count == types.count else { return nil }
        var columns: [ColumnMetadata] = []
        for (field, type) in zip(fields, types) {
            guard case .string(let name) = field, case .string(let typeName) = type else { return nil }
            let isSystem = ColumnMetadata.isSystemField(name)
            columns.append(ColumnMetadata(name: name, fieldName: name,
                                          dataTypeName: isSystem ? "meta_data" : Self.typeName(fromSODA2: typeName)))
        }
        let system = columns.filter(\.isSystemColumn)
        self.init(columns: ViewMetadata(id: id, columns: system + columns.filter { !$0.isSystemColumn }))
    }

    private init(columns view: ViewMetadata) {
        self.view = view
    }

    /// SODA 2 type names that differ from the view metadata's.
    static func typeName(fromSODA2 name: String) -> String {
        switch name {
        case "floating_timestamp": return "calendar_date"
        case "fixed_timestamp": return "date"
        case "boolean": return "checkbox"
        default: return name
        }
    }

    /// The plain field names a `$select` list mentions (`name, agency, upper(x) as y` → name, agency, x, y);
    /// a `*` standing alone as an item is `*` (every user column), `:*` every system field.
    static func fieldNames(inSelect select: String) -> Set<String> {
        var names = Set<String>()
        var current = ""
        var depth = 0
        for character in select + " " {
            if character.isLetter || character.isNumber || character == "_" || character == ":" || character == "@" {
                current.append(character)
            } else if character == "*", depth == 0, current.isEmpty || current == ":" {
                names.insert(current + "*")
                current = ""
            } else {
                if !current.isEmpty { names.insert(current) }
                current = ""
                if character == "(" { depth += 1 }
                if character == ")" { depth = max(0, depth - 1) }
            }
        }
        return names
    }
}

extension ViewMetadata {
    /// The columns of this dataset's SODA row objects: the system fields `:id`, `:created_at` and
    /// `:updated_at`, then the user columns. A SODA load is planned from these.
    public var sodaRowColumns: ViewMetadata { SODARowLayout(view: self).view }
}
