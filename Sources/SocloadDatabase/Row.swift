/// One result row: its column names and values, read by index or by column name.
///
/// Name look-up is case-insensitive and the leftmost of duplicate names wins, as in SQLite.
public struct Row: Sendable, Hashable {
    public let columnNames: [String]
    public let values: [DatabaseValue]

    public init(columnNames: [String], values: [DatabaseValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The value at a 0-based column index.
    public subscript(index: Int) -> DatabaseValue { values[index] }

    /// The value of the leftmost column with that name (case-insensitive), or nil when there is none.
    public subscript(name: String) -> DatabaseValue? {
        let lowered = name.lowercased()
        return columnNames.firstIndex { $0.lowercased() == lowered }.map { values[$0] }
    }
}

/// Maps column names to indexes once per statement, for decoding many rows.
final class ColumnLookup: Sendable {
    let names: [String]
    private let indexes: [String: Int]

    init(names: [String]) {
        self.names = names
        var indexes: [String: Int] = [:]
        for (index, name) in names.enumerated() where indexes[name.lowercased()] == nil {
            indexes[name.lowercased()] = index
        }
        self.indexes = indexes
    }

    /// The index of the leftmost column with that name, case-insensitive.
    func index(of name: String) -> Int? {
        indexes[name] ?? indexes[name.lowercased()]
    }
}
