/// Why a row could not be decoded into a Swift type.
///
/// Row indexes are 0-based: the position of the row in the fetched results.
public enum RowDecodingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A non-optional property has no column of that name in the result.
    case missingColumn(column: String, availableColumns: [String], row: Int)
    /// The stored value cannot become the requested Swift type.
    case typeMismatch(column: String, row: Int, storedType: String, swiftType: String, detail: String?)
    /// An integer does not fit in the requested integer type.
    case integerOverflow(column: String, row: Int, value: String, swiftType: String)

    public var description: String {
        switch self {
        case let .missingColumn(column, available, row):
            let list = available.map { "'\($0)'" }.joined(separator: ", ")
            return "no column '\(column)' in row \(row); the columns are: \(list.isEmpty ? "(none)" : list)"
        case let .typeMismatch(column, row, storedType, swiftType, detail):
            var text = "column '\(column)', row \(row): cannot decode \(storedType) as \(swiftType)"
            if let detail { text += " (\(detail))" }
            return text
        case let .integerOverflow(column, row, value, swiftType):
            return "column '\(column)', row \(row): \(value) does not fit in \(swiftType)"
        }
    }
}
