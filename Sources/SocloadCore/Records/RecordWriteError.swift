/// Why a record could not be written.
public enum RecordWriteError: Error, CustomStringConvertible, Sendable, Equatable {
    case noSuchTable(String)
    /// A property of the record has no column of that name.
    case noSuchColumn(property: String, table: String, columns: [String])
    /// The column cannot hold the property's value.
    case typeMismatch(column: String, table: String, declaredType: String, problem: String)
    /// `upsert(by:)` named columns that are not the table's key nor unique together.
    case notUnique(table: String, columns: [String])
    /// A key column the record does not have.
    case keyNotInRecord(column: String, table: String)
    case noKey(table: String)
    /// The value encodes as one value (a String, an array), not as properties.
    case notARecord(String)
    /// A property's value could not be encoded.
    case unencodable(column: String, reason: String)

    public var description: String {
        switch self {
        case .noSuchTable(let table): return "no table '\(table)'"
        case let .noSuchColumn(property, table, columns):
            return "the property '\(property)' has no column in \(table); its columns are: \(columns.shortList())"
        case let .typeMismatch(column, table, declaredType, problem):
            return "\(table).\(column) (\(declaredType.isEmpty ? "no declared type" : declaredType)): \(problem)"
        case let .notUnique(table, columns):
            return "\(table) has no key or unique index on (\(columns.joined(separator: ", "))) to upsert by"
        case let .keyNotInRecord(column, table):
            return "the key column '\(column)' of \(table) is not a property of the record"
        case .noKey(let table): return "no key columns given for \(table)"
        case .notARecord(let type): return "\(type) is not a record with properties, so it has no columns to write"
        case let .unencodable(column, reason): return "\(column): cannot encode the value (\(reason))"
        }
    }
}
