/// One column of the table a dataset is loaded into.
public struct TableColumn: Sendable, Codable, Equatable {
    /// The column name, unique in the table (case-insensitively); always quoted in SQL.
    public let name: String
    public let storage: ColumnStorage
    public let isPrimaryKey: Bool
    /// The Socrata fieldName it comes from (`:id`, `location`, ...).
    public let sourceFieldName: String

    public init(name: String, storage: ColumnStorage, isPrimaryKey: Bool = false, sourceFieldName: String) {
        self.name = name
        self.storage = storage
        self.isPrimaryKey = isPrimaryKey
        self.sourceFieldName = sourceFieldName
    }
}

/// Hands out column names that are unique case-insensitively (SQLite's rule): a name already
/// taken gets the first free numeric suffix, `name_2`, `name_3`, ... in column order, so the
/// result is the same on every load.
struct ColumnNameAllocator {
    private var used = Set<String>()

    mutating func reserve(_ name: String) {
        used.insert(name.lowercased())
    }

    mutating func allocate(_ base: String) -> String {
        var name = base
        var suffix = 2
        while used.contains(name.lowercased()) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        used.insert(name.lowercased())
        return name
    }
}
