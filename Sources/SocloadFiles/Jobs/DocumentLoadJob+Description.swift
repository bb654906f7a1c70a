import Foundation
import SocloadCore
import SocloadEngine
import SocloadTransport

/// The first pass of `socload load`: what the document's records hold, from `--metadata` or
/// from every record.
extension DocumentLoadJob {
    /// What the document's records hold: the columns (from `--metadata`, as SODA gives them, or
    /// inferred from every record, `:id`, `:created_at` and `:updated_at` being the system
    /// fields as in SODA), the inferred type of each other field, and the fields that hold
    /// arrays of objects with what those objects hold.
    struct DescribedDocument {
        /// How the records are read.
        var records: DocumentRecordSource
        /// The description `--metadata` gave (nil: the records describe themselves).
        var portalDescription: (any DocumentDescription)?
        /// Without `--metadata`: the records' fields in cell order, system fields first.
        var fields: [String] = []
        var types: [String: LogicalType] = [:]
        var arraysOfObjects: [(field: String, elements: FieldTypeInference)] = []
        /// Fields whose every value is a decimal number written as a string (SODA 2's numbers).
        var numbersAsText: [String] = []
        /// With `--flatten`: each nested path's column name (see `JSONFlattening`).
        var flattenedNames: [String: String] = [:]
        /// Fields whose every value was null (their type is a guess: any column takes them).
        var alwaysNull: Set<String> = []
    }

    func describedDocument(_ request: DocumentLoadRequest, spool: DocumentSpool) throws -> DescribedDocument {
        if let given = request.givenDescription {
            return DescribedDocument(records: try DocumentRecordSource(request, path: spool.path, columns: given.columns),
                                     portalDescription: given)
        }
        if let metadata = request.document.metadata {
            let bytes = try readMetadata(metadata)
            let given = try describe(bytes, metadata)
            let records = try DocumentRecordSource(request, path: spool.path, columns: given.columns)
            // Only the system fields the records carry are columns: a page saved the ordinary
            // way has no `:id`, whatever system columns the description lists. A page's records
            // all carry the same ones (its `$select` asked for them or not): the first tells.
            let systemFields = try systemFieldsOfFirstRecord(records, spool: spool)
            return DescribedDocument(records: records, portalDescription: given.carrying(systemFields: systemFields))
        }
        let records = try DocumentRecordSource(request, path: spool.path, columns: nil)
        let inference = try inferFields(request, records: records, spool: spool)
        let system = DocumentSystemFields.all.filter { inference.fields.contains($0) }
        // Flattened, every path's column name is decided once for the whole document.
        let names = request.document.flatten ? JSONFlattening.columnNames(forPaths: inference.fields) : [:]
        func name(_ field: String) -> String { names[field] ?? field }
        let types = Dictionary(inference.types.map { (name($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        // Flattened, an object that is null in some records leaves no column of its own.
        let flattenedAway = Set(request.document.flatten ? inference.fields.filter { field in
            inference.isAlwaysNull(field) && inference.fields.contains { $0.hasPrefix(field + JSONFlattening.pathSeparator) }
        } : [])
        let fields = system + inference.fields.filter { !system.contains($0) && !flattenedAway.contains($0) }.map(name)
        return DescribedDocument(records: records, portalDescription: nil, fields: fields, types: types,
                                 arraysOfObjects: inference.arraysOfObjects.map { (name($0.field), $0.elements) },
                                 numbersAsText: inference.fieldsOfNumbersAsText.map(name), flattenedNames: names,
                                 alwaysNull: Set(inference.fields.filter(inference.isAlwaysNull).map(name)))
    }

    /// The system fields (`:id`, `:created_at`, `:updated_at`) the document's first record has;
    /// only that record is read.
    private func systemFieldsOfFirstRecord(_ records: DocumentRecordSource, spool: DocumentSpool) throws -> Set<String> {
        struct FirstRecordRead: Error {}
        var inference = FieldTypeInference()
        do {
            try readRecords(spool.path, records, state: LoadState<Void>()) { record in
                try inference.observe(text: record.bytes, record: record.number, line: record.line)
                throw FirstRecordRead()
            }
        } catch is FirstRecordRead {}
        return Set(DocumentSystemFields.all.filter { inference.fields.contains($0) })
    }

    /// Every record of the file, in order.
    func readRecords(_ path: String, _ records: DocumentRecordSource, state: LoadState<Void>,
                             _ handle: @escaping (JSONRecordReader.Record) throws -> Void) throws {
        let reader = records.reader(handle)
        try FileByteSource.read(path, cancellation: context.cancellation) { chunk in
            try reader.feed(chunk)
            state.bytesRead += Int64(chunk.count)
        }
        try reader.finish()
    }

    /// A view description from a file or a URL.
    func readMetadata(_ source: String) throws -> [UInt8] {
        if DocumentSpool.isURL(source) { return try context.downloadDescription(source) }
        var bytes: [UInt8] = []
        try FileByteSource.read(source, cancellation: context.cancellation) { chunk in
            bytes.append(contentsOf: chunk)
            if bytes.count > 64 << 20 { throw LoadError.unreadableFile(path: source, reason: "larger than 64 MB for a description") }
        }
        return bytes
    }
}
