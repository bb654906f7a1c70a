import Foundation
import SocloadCore
import SocloadEngine
import SocloadTransport

/// What kind of document `socload load` reads.
public enum DocumentFormat: Sendable, Equatable {
    /// A JSON array of objects, NDJSON, or a saved SODA response.
    case json
    /// A CSV or TSV file (`load --csv`, `--tsv`, `--delimiter`, ...).
    case csv(CSVDialect)

    /// The format a file name says: `.csv` is CSV, `.tsv` and `.tab` are CSV with tabs, any
    /// other name says nothing (a URL's query is not part of its name).
    package static func named(_ source: String) -> DocumentFormat? {
        let path = DocumentSpool.isURL(source) ? (URLComponents(string: source)?.path ?? source) : source
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "csv": return .csv(CSVDialect())
        case "tsv", "tab": return .csv(CSVDialect(delimiter: UInt8(ascii: "\t")))
        default: return nil
        }
    }
}

/// How one document's records are read, decided once before the first pass: its format (given,
/// from its name, else from its first byte: `[` or `{` is JSON, anything else CSV), the CSV
/// delimiter, and the CSV columns' names. Both passes (inference and load) read with it.
package struct DocumentRecordSource: Sendable {
    package let format: DocumentFormat
    /// The CSV delimiter, given or guessed from the first line.
    package let delimiter: UInt8
    package let layout: JSONRecordReader.Layout
    /// The CSV header's names → the columns' names (with `--metadata`: display names → field names).
    package let naming: @Sendable ([String]) throws -> [String]
    /// With `--metadata`: the header's names that are no column of the description (their
    /// values are not loaded), once the header was read.
    package let unmatchedNames = UnmatchedHeaderNames()

    package var isCSV: Bool { if case .csv = format { true } else { false } }

    /// `source`: the document's name as given (its extension may say the format); `format` and
    /// `layout` as asked (nil, `.detect`: found out); `metadata`: the description's name, and
    /// `columns` its columns, when the CSV's header names are display names or field names of it.
    package init(source: String, format asked: DocumentFormat?, layout askedLayout: JSONRecordReader.Layout, path: String,
         metadata: String?, columns describedColumns: [ColumnMetadata]?) throws {
        let head = try Self.head(of: path)
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            throw DocumentError.utf16
        }
        if asked == nil, let foreign = ForeignDocument.recognise(head) { throw DocumentError.foreign(foreign) }
        let format = asked ?? DocumentFormat.named(source) ?? Self.sniff(head)
        self.format = format
        // A file named as NDJSON that starts with an object holds one record per line, even
        // when it has one line (one that starts with `[` is still read as an array).
        let lowered = source.lowercased()
        let namedAsLines = [".ndjson", ".jsonl", ".ldjson"].contains { lowered.hasSuffix($0) }
        let startsWithObject = head.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "{")
        if case .detect = askedLayout, namedAsLines, startsWithObject { layout = .lines } else { layout = askedLayout }
        guard case .csv(let dialect) = format else {
            delimiter = UInt8(ascii: ",")
            naming = CSVRecordReader.plainNames
            return
        }
        let text = head.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(head.dropFirst(3)) : head
        delimiter = dialect.delimiter ?? CSVDialect.guessDelimiter(firstLine: text)
        let hasHeader = dialect.hasHeader
        if let describedColumns {
            // An old-backend description's `meta_data` columns (sid, id, position, ...) are no CSV columns.
            let columns = describedColumns.filter { $0.dataTypeName != "meta_data" }
                .compactMap { column in column.fieldName.map { (field: $0, display: column.name ?? $0) } }
            let source = metadata ?? "the description"
            let unmatched = unmatchedNames
            naming = { header in
                let names = try Self.fieldNames(hasHeader ? header : [], columns: columns, metadata: source, count: header.count)
                unmatched.set(names.filter { name in !columns.contains { $0.field == name } })
                return names
            }
        } else {
            naming = { header in CSVRecordReader.plainNames(hasHeader ? header : header.map { _ in "" }) }
        }
    }

    /// A reader of this source's records.
    package func reader(_ handle: @escaping (JSONRecordReader.Record) throws -> Void) -> any DocumentRecordReader {
        guard case .csv(let dialect) = format else { return JSONRecordReader(layout: layout, handle) }
        return CSVRecordReader(dialect: dialect, delimiter: delimiter, naming: naming, handle)
    }

    /// Runs `body` (the first pass over a document); an error it throws about the records of a
    /// document taken for CSV only by its first byte says so, since such a file is often not
    /// meant as CSV at all (a text file, a log, a saved page).
    package static func sayingWhyCSV<T>(source: String, format: DocumentFormat?, path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error where format == nil && DocumentFormat.named(source) == nil {
            switch error {
            case DocumentError.foreign, DocumentError.utf16, DocumentError.emptyCSV: throw error
            case is DocumentError, LoadError.noColumns, LoadError.noFields: break
            default: throw error
            }
            guard case .csv = sniff(try head(of: path)) else { throw error }
            throw DocumentError.readAsCSV(detail: "\(error)")
        }
    }

    /// JSON starts with `[` or `{` (after a byte order mark and white space); anything else is CSV.
    package static func sniff(_ head: [UInt8]) -> DocumentFormat {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .json }
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? .json : .csv(CSVDialect())
    }

    /// A Socrata CSV export's header (display names, as `rows.csv` writes them) as the field names
    /// of the description's columns; a header that already has field names is taken as it is.
    /// A name that is neither is kept (its values are not loaded: the plan has no such column),
    /// and a header none of whose names is a column is refused. With no header, the columns are
    /// the description's, in its order.
    package static func fieldNames(_ header: [String], columns: [(field: String, display: String)], metadata: String,
                           count: Int) throws -> [String] {
        if header.isEmpty {
            let fields = columns.map(\.field).filter { !ColumnMetadata.isSystemField($0) }
            guard fields.count == count else {
                throw PlanError("the first line has \(count) fields and \(metadata) describes \(fields.count) columns: "
                                + "without a header they must be the same columns in the same order")
            }
            return fields
        }
        var unused = columns
        let names = header.map { given -> String in
            let name = given.trimmingCharacters(in: .whitespaces)
            let match = unused.firstIndex { $0.field == name } ?? unused.firstIndex { $0.display == name }
                ?? unused.firstIndex { $0.display.trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased()
                    || $0.field.lowercased() == name.lowercased() }
            guard let match else { return name }
            return unused.remove(at: match).field
        }
        if !names.contains(where: { name in columns.contains { $0.field == name } }) {
            throw PlanError("none of the file's columns (\(header.prefix(5).map { JSONValue.quoted($0) }.joined(separator: ", "))) "
                            + "is a column of \(metadata), by field name or by display name")
        }
        return CSVRecordReader.plainNames(names)
    }

    /// The file's first 64 KB.
    private static func head(of path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return Array(try handle.read(upToCount: 1 << 16) ?? Data())
    }
}

/// What the header of a CSV file read with `--metadata` named that the description has not,
/// set by the reader's thread and read after the load.
package final class UnmatchedHeaderNames: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []

    package func set(_ names: [String]) {
        lock.lock()
        self.names = names
        lock.unlock()
    }

    package var value: [String] {
        lock.lock()
        defer { lock.unlock() }
        return names
    }
}
