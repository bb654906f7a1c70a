/// One result row: its column names and values, read by index or by column name, as stored
/// values or typed.
///
///     let row = try db.fetchRows(sql: "SELECT name, votes FROM t")[0]
///     let name: String? = try row["name"]           // nil for NULL
///     let votes = try row.decode(Int.self, column: "votes")
///
/// Name look-up is case-insensitive and the leftmost of duplicate names wins, as in SQLite.
public struct Row: Sendable, Hashable, CustomStringConvertible {
    public let columnNames: [String]
    public let values: [DatabaseValue]
    /// The row's 0-based position in the results it came from, for error messages.
    public let index: Int

    public init(columnNames: [String], values: [DatabaseValue], index: Int = 0) {
        self.columnNames = columnNames
        self.values = values
        self.index = index
    }

    /// `[name: "State", votes: 42]`
    public var description: String {
        "[" + zip(columnNames, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }

    /// The value of the column `name` as `T` (a String, a number, Bool, Date, Data, URL, UUID,
    /// Decimal or `DatabaseValue`), nil for NULL; a missing column, or a value that is not a `T`
    /// (text as `Int`, a number that does not fit), throws a `RowDecodingError` naming the column.
    public subscript<T>(_ name: String) -> T? {
        get throws {
            let value = try self.value(named: name)
            if value == .null, T.self != DatabaseValue.self { return nil }
            return try Self.decoded(T.self, from: value, column: name, row: index)
        }
    }

    /// The value of the column `name` as a `T` that may not be NULL (`RowDecodingError` for
    /// NULL, a missing column, or a value that is not a `T`).
    public func decode<T>(_ type: T.Type, column name: String) throws -> T {
        let value = try self.value(named: name)
        guard value != .null || T.self == DatabaseValue.self else {
            throw RowDecodingError.typeMismatch(column: name, row: index, storedType: "NULL", swiftType: String(describing: T.self),
                                                detail: "read it as \(T.self)? to get nil")
        }
        return try Self.decoded(T.self, from: value, column: name, row: index)
    }

    private func value(named name: String) throws -> DatabaseValue {
        guard let value = self[name] else {
            throw RowDecodingError.missingColumn(column: name, availableColumns: columnNames, row: index)
        }
        return value
    }

    private static func decoded<T>(_ type: T.Type, from value: DatabaseValue, column: String, row: Int) throws -> T {
        let context = ColumnContext(column: column, row: row)
        guard let decoded = try ColumnValueDecoding.decodeIfBuiltIn(T.self, from: value, context: context) else {
            throw ColumnValueDecoding.mismatch(value, T.self, context, "a row's value reads as a String, number, Bool, Date, Data, "
                                               + "URL, UUID, Decimal or DatabaseValue; decode a record with fetchAll for other types")
        }
        return decoded
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
package final class ColumnLookup: Sendable {
    package let names: [String]
    private let indexes: [String: Int]

    package init(names: [String]) {
        self.names = names
        var indexes: [String: Int] = [:]
        for (index, name) in names.enumerated() where indexes[name.lowercased()] == nil {
            indexes[name.lowercased()] = index
        }
        self.indexes = indexes
    }

    /// The index of the leftmost column with that name, case-insensitive.
    package func index(of name: String) -> Int? {
        indexes[name] ?? indexes[name.lowercased()]
    }
}
