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
    /// One of the others, in the rows of this statement (its SQL, which names the table).
    indirect case inStatement(String, RowDecodingError)

    /// The error without the statement it happened in.
    public var withoutStatement: RowDecodingError {
        if case let .inStatement(_, error) = self { return error.withoutStatement }
        return self
    }

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
        case let .inStatement(sql, error):
            let oneLine = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return error.description + " - while reading `\(oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine)`"
        }
    }
}
