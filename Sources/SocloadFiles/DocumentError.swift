import SocloadCore
import SocloadEngine
import SocloadTransport

/// Why a plain JSON document could not be loaded (`socload load`). Each case says where: the
/// record's number and, for NDJSON, its line.
public enum DocumentError: CategorizedError, Equatable {
    /// The document is empty.
    case empty
    /// One top-level object, not records: perhaps an error envelope or a rows.json document.
    case singleObject(keys: [String])
    /// `--root KEY` names no member of the top-level object.
    case rootMissing(key: String)
    /// The document has the `--root` member more than once.
    case rootTwice(key: String)
    /// `--root KEY` names a member that is not an array.
    case rootNotAnArray(key: String)
    /// A record that is not valid JSON.
    case badRecord(record: Int, line: Int?, detail: String)
    /// A record that is not an object.
    case notAnObject(record: Int, line: Int?, found: String)
    /// A record nested deeper than `limit` levels.
    case tooDeep(record: Int, line: Int?, limit: Int)
    case recordTooLarge(record: Int, line: Int?, limit: Int)
    /// A CSV file with no line at all.
    case emptyCSV
    /// A file in UTF-16 (it starts with its byte order mark).
    case utf16
    /// No document of records: a saved HTTP response, an HTML page, ...
    case foreign(ForeignDocument)
    /// Under `--strict`: fields the records have and `--metadata` does not describe (this says which).
    case undescribed(String)
    /// What went wrong reading a document taken for CSV because it does not start with `[` or `{`.
    case readAsCSV(detail: String)
    /// `--metadata` describes none of the records' data fields (these): not their description.
    case notDescribed(fields: [String], metadata: String)
    /// One of the others, in the file (or URL) it was found in.
    indirect case inDocument(String, DocumentError)

    public var kind: FailureKind { .badData }

    public var description: String {
        switch self {
        case .empty:
            return "the document is empty: expected a JSON array of objects or one object per line"
        case let .singleObject(keys):
            let shown = keys.prefix(8).map { JSONValue.quoted($0) }.joined(separator: ", ")
            if keys.contains("meta"), keys.contains("data") {
                return "the document is one object with \(shown): a rows.json export, which socload fetch loads"
            }
            return "the document is one object (keys \(shown)), not records: it may be an error message; "
                + "pass --root KEY to load the array under one of its keys"
        case let .rootMissing(key):
            return "--root \(key): the top-level object has no member \(JSONValue.quoted(key))"
        case let .rootTwice(key):
            return "--root \(key): the document has the member \(JSONValue.quoted(key)) more than once"
        case let .rootNotAnArray(key):
            return "--root \(key): the member \(JSONValue.quoted(key)) is not an array"
        case let .badRecord(record, line, detail):
            return "\(Self.place(record, line)): \(detail)"
        case let .notAnObject(record, line, found):
            return "\(Self.place(record, line)) is \(found), not an object"
        case let .tooDeep(record, line, limit):
            return "\(Self.place(record, line)) is nested more than \(limit) levels deep, the most socload loads"
        case let .recordTooLarge(record, line, limit):
            return "\(Self.place(record, line)) is larger than \(limit >> 20) MB"
        case .utf16:
            return "the file is UTF-16 (it starts with a UTF-16 byte order mark): save it as UTF-8 to load it"
        case .emptyCSV:
            return "the CSV file is empty: expected a first line naming the columns (or data, with --no-header)"
        case let .undescribed(detail):
            return detail
        case let .readAsCSV(detail):
            return detail + " (read as CSV: it does not start with [ or {; --csv, --tsv or a .json name say what it is)"
        case let .foreign(document):
            return "is " + document.description
        case let .notDescribed(fields, metadata):
            return "none of the records' fields (\(fields.map { JSONValue.quoted($0) }.shortList(limit: 3))) is a column of "
                + "\(metadata), which describes another dataset"
        case let .inDocument(source, error):
            // Named once: a message may start with the document's name already.
            let inner = error.description
            return inner.hasPrefix(source + " ") || inner.hasPrefix(source + ":") ? inner : "\(source): \(inner)"
        }
    }

    private static func place(_ record: Int, _ line: Int?) -> String {
        line.map { "line \($0)" } ?? "record \(record)"
    }
}
