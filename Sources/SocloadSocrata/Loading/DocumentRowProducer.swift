import SocloadCore

/// The producer side of `socload load`, on a thread of its own: the document's records become
/// batches of every table of the plan — the record itself (flattened with `--flatten`), and the
/// elements of its nested arrays for the child and glue tables — sent to the database thread
/// through a bounded channel, so conversion and inserts use two cores and memory stays flat.
final class DocumentRowProducer {
    /// What the database thread receives.
    enum Item: Sendable {
        /// Rows of the plan table at `table`.
        case batch(table: Int, RowBatch, bytesRead: Int64)
        /// The end: what was met on the way.
        case end(Ending)
        case failure(any Error)
    }

    /// What the records held besides their rows.
    struct Ending: Sendable {
        /// Per table, the cells not of their type.
        var invalidCells: [Int: [InvalidCells]]
        /// Per glue table, the elements that were no link.
        var skipped: [Int: Int]
        /// The records' fields that are no field of the plan (not loaded), first met first.
        var fieldsOutsidePlan: [String]
        /// Whether a record had a data field of the plan.
        var metPlanDataField: Bool
    }

    private struct Stopped: Error {}

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
    private var bytesRead: Int64 = 0

    private init(plan: LoadPlan, request: DocumentLoadRequest, flattenedNames: [String: String], storable: StorableValues,
                 channel: BoundedChannel<Item>) {
        flatten = request.flatten
        flattener = FlattenedRecordBytes(names: flattenedNames)
        var sent: (Int, RowBatch) -> Void = { _, _ in }
        func sink(_ index: Int) -> ObjectRowSink {
            ObjectRowSink(plan: plan, table: index, strict: request.strict, storable: storable, arePages: false) { batch in
                sent(index, batch)
            }
        }
        main = sink(0)
        nested = plan.tables.indices.dropFirst().filter { plan.tables[$0].nesting != nil }.map {
            NestedRows(index: $0, table: plan.tables[$0], sink: sink($0))
        }
        sent = { [unowned self] index, batch in
            if !channel.send(.batch(table: index, batch, bytesRead: self.bytesRead)) { self.stopped = true }
        }
    }

    /// Set when the database thread no longer listens.
    private var stopped = false

    /// Reads the file at `path` and sends every table's batches, then `.end` (or `.failure`).
    static func produce(path: String, records: DocumentRecordSource, plan: LoadPlan, request: DocumentLoadRequest,
                        flattenedNames: [String: String] = [:],
                        storable: StorableValues, stop: LoadCancellation, channel: BoundedChannel<Item>) {
        let producer = DocumentRowProducer(plan: plan, request: request, flattenedNames: flattenedNames, storable: storable,
                                           channel: channel)
        do {
            let reader = records.reader { record in try producer.append(record) }
            try FileByteSource.read(path, cancellation: stop) { chunk in
                try stop.check()
                try reader.feed(chunk)
                producer.bytesRead += Int64(chunk.count)
                if producer.stopped { throw Stopped() }
            }
            try reader.finish()
            try producer.main.endPage()
            for rows in producer.nested { try rows.sink.endPage() }
            if producer.stopped { throw Stopped() }
            var invalid = [0: producer.main.converter.invalidCells]
            for rows in producer.nested { invalid[rows.index] = rows.sink.converter.invalidCells }
            let converter = producer.main.converter
            _ = channel.send(.end(Ending(invalidCells: invalid, skipped: producer.skipped,
                                         fieldsOutsidePlan: converter.fieldsOutsidePlan,
                                         metPlanDataField: converter.metPlanDataField)))
        } catch is Stopped {
            return
        } catch {
            _ = channel.send(.failure(error))
        }
    }

    /// One record into the batches: the record (flattened first with `--flatten`), then the
    /// child and glue rows cut from its bytes.
    private func append(_ record: JSONRecordReader.Record) throws {
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
