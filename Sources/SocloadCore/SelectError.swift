/// A select that names a table or column that is not there.
public enum SelectError: Error, CustomStringConvertible, Sendable, Equatable {
    case unknownTable(String)
    case unknownColumn(String, table: String, columns: [String])

    public var description: String {
        switch self {
        case .unknownTable(let table):
            return "no table '\(table)'"
        case let .unknownColumn(column, table, columns):
            return "no column '\(column)' in \(table); its columns are: \(columns.shortList())"
        }
    }
}
