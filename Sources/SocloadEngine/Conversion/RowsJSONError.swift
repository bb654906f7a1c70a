import SocloadCore

/// Why a rows.json document could not be read. Each case says where: a byte offset or a row number
/// (1-based, counting data rows).
public enum RowsJSONError: Error, CustomStringConvertible, Sendable, Equatable {
    case malformed(offset: Int, detail: String)
    case truncated(offset: Int)
    case htmlPage
    /// A JSON array, not the rows.json object: a saved SODA page or a document of records.
    case arrayOfRecords
    case errorEnvelope(message: String)
    case missingMetadata
    case missingData
    case invalidMetadata(detail: String)
    case dataBeforeMetadata(offset: Int)
    case badRow(row: Int, offset: Int, detail: String)

    public var description: String {
        switch self {
        case let .malformed(offset, detail):
            return "malformed JSON at byte \(offset): \(detail)"
        case let .truncated(offset):
            return "the document ends early, at byte \(offset) (truncated download?)"
        case .htmlPage:
            return "received an HTML page where a JSON dataset was expected"
        case .arrayOfRecords:
            return "the document is a JSON array (a SODA page or records), not a rows.json export: "
                + "socload load FILE --metadata VIEWS.json loads it, typed by the dataset's description "
                + "(VIEWS.json: https://DOMAIN/api/views/ID.json)"
        case let .errorEnvelope(message):
            return "received a Socrata error instead of a dataset: \(message)"
        case .missingMetadata:
            return "no meta.view.columns in the document: not a Socrata rows.json export"
        case .missingData:
            return "the document has no 'data' member, so no rows (an empty dataset has \"data\": [])"
        case let .invalidMetadata(detail):
            return "unreadable meta.view: \(detail)"
        case let .dataBeforeMetadata(offset):
            return "'data' comes before 'meta' (byte \(offset)): socload needs the column metadata first"
        case let .badRow(row, offset, detail):
            return "row \(row) (byte \(offset)): \(detail)"
        }
    }
}

extension RowsJSONError: CategorizedError {
    public var kind: FailureKind { .badData }
}
