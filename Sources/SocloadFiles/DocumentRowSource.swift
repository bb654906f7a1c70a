import SocloadCore
import SocloadEngine
import SocloadTransport

/// A document's records as a row source (`socload load`): the record itself (flattened with
/// `--flatten`), and the elements of its nested arrays for the child and glue tables, become
/// batches of every table of the plan, read on the source's thread so conversion and inserts use
/// two cores and memory stays flat.
package struct DocumentRowSource: RowSource {
    /// What the records held besides their rows.
    package struct Ending: Sendable {
        /// Per table, the cells not of their type.
        package var invalidCells: [Int: [InvalidCells]]
        /// Per glue table, the elements that were no link.
        package var skipped: [Int: Int]
        /// The records' fields that are no field of the plan (not loaded), first met first.
        package var fieldsOutsidePlan: [String]
        /// Whether a record had a data field of the plan.
        package var metPlanDataField: Bool
    }

    /// The document (spooled: a regular file).
    package let path: String
    package let records: DocumentRecordSource
    package let plan: LoadPlan
    /// `--flatten`: nested objects become `parent_child` columns.
    package let flatten: Bool
    /// `--strict`: the first cell not of its column's type fails the load.
    package let strict: Bool
    package var flattenedNames: [String: String] = [:]
    package let storable: StorableValues

    package init(path: String, records: DocumentRecordSource, plan: LoadPlan, flatten: Bool, strict: Bool,
                 flattenedNames: [String: String] = [:], storable: StorableValues) {
        self.path = path
        self.records = records
        self.plan = plan
        self.flatten = flatten
        self.strict = strict
        self.flattenedNames = flattenedNames
        self.storable = storable
    }

    package func produce(into output: RowSourceOutput<Self>) throws -> Ending {
        let rows = DocumentRows(plan: plan, flatten: flatten, strict: strict, flattenedNames: flattenedNames, storable: storable,
                                output: output)
        let reader = records.reader { record in try rows.append(record) }
        try FileByteSource.read(path, cancellation: output.cancellation) { chunk in
            try output.cancellation.check()
            try reader.feed(chunk)
            rows.bytesRead += Int64(chunk.count)
        }
        try reader.finish()
        return try rows.end()
    }
}

/// The rows of one document's records on their way into batches, for `DocumentRowSource`.
private final class DocumentRows {
    /// A nested table's rows being made: its plan table, where it is in the plan, its sink.
    private struct NestedRows {
        let index: Int
        let table: PlanTable
        let sink: ObjectRowSink
    }

    private let flatten: Bool
    private let main: ObjectRowSink
    private let nested: [NestedRows]
    private var skipped: [Int: Int] = [:]
    private var elementRows = NestedElementRows()
    private var flattener: FlattenedRecordBytes
    /// The document's bytes read so far.
    var bytesRead: Int64 = 0

    init(plan: LoadPlan, flatten: Bool, strict: Bool, flattenedNames: [String: String], storable: StorableValues,
         output: RowSourceOutput<DocumentRowSource>) {
        self.flatten = flatten
        flattener = FlattenedRecordBytes(names: flattenedNames)
        var bytesRead: () -> Int64 = { 0 }
        func sink(_ index: Int) -> ObjectRowSink {
            ObjectRowSink(plan: plan, table: index, strict: strict, storable: storable, arePages: false) { batch in
                try output.send(batch, table: index, bytesRead: bytesRead())
            }
        }
        main = sink(0)
        nested = plan.tables.indices.dropFirst().filter { plan.tables[$0].nesting != nil }.map {
            NestedRows(index: $0, table: plan.tables[$0], sink: sink($0))
        }
        bytesRead = { [unowned self] in self.bytesRead }
    }

    /// Sends every table's last rows; what the records held besides them.
    func end() throws -> DocumentRowSource.Ending {
        try main.endPage()
        for rows in nested { try rows.sink.endPage() }
        var invalid = [0: main.converter.invalidCells]
        for rows in nested { invalid[rows.index] = rows.sink.converter.invalidCells }
        return DocumentRowSource.Ending(invalidCells: invalid, skipped: skipped, fieldsOutsidePlan: main.converter.fieldsOutsidePlan,
                                        metPlanDataField: main.converter.metPlanDataField)
    }

    /// One record into the batches: the record (flattened first with `--flatten`), then the
    /// child and glue rows cut from its bytes.
    func append(_ record: JSONRecordReader.Record) throws {
        do {
            guard flatten else { return try appendRows(of: record.bytes, record: record) }
            try flattener.flatten(record.bytes) { bytes in try appendRows(of: bytes, record: record) }
        } catch let error as RowsJSONError {
            throw DocumentError.badRecord(record: record.number, line: record.line, detail: error.description)
        } catch is RawArrayParser.Malformed {
            // Said as the tree reader says it: what the record is, when it is JSON but no object.
            if let value = try? JSONValueParser.parse(record.bytes) {
                if case .object = value {} else {
                    throw DocumentError.notAnObject(record: record.number, line: record.line, found: FieldTypeInference.noun(value))
                }
            }
            throw DocumentError.badRecord(record: record.number, line: record.line, detail: "malformed JSON")
        }
    }

    private func appendRows(of bytes: UnsafeBufferPointer<UInt8>, record: JSONRecordReader.Record) throws {
        try main.append(bytes, rowNumber: record.number, offset: 0)
        for rows in nested {
            guard let nesting = rows.table.nesting else { continue }
            try elementRows.forEachRow(of: nesting, in: bytes, glueID: rows.table.glue?.idField,
                                       skipped: &skipped[rows.index, default: 0]) { row in
                try rows.sink.append(row, rowNumber: record.number, offset: 0)
            }
        }
    }
}
