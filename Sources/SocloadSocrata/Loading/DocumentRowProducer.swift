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
        /// The end: per table, the cells not of their type, and per glue table the elements
        /// that were no link.
        case end(invalidCells: [Int: [InvalidCells]], skipped: [Int: Int])
        case failure(any Error)
    }

    private struct Stopped: Error {}

    /// A nested table's rows being made: its plan table, where it is in the plan, its sink.
    private struct NestedRows {
        let index: Int
        let table: PlanTable
        let sink: ObjectRowSink
    }

    private let flatten: Bool
    /// The column name of each flattened path, for the whole document.
    private let flattenedNames: [String: String]
    private let main: ObjectRowSink
    private let nested: [NestedRows]
    private var skipped: [Int: Int] = [:]
    private var elementRows = NestedElementRows()
    private var bytesRead: Int64 = 0

    private init(plan: LoadPlan, request: DocumentLoadRequest, flattenedNames: [String: String], storable: StorableValues,
                 channel: BoundedChannel<Item>) {
        flatten = request.flatten
        self.flattenedNames = flattenedNames
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
    static func produce(path: String, plan: LoadPlan, request: DocumentLoadRequest, flattenedNames: [String: String] = [:],
                        storable: StorableValues, stop: LoadCancellation, channel: BoundedChannel<Item>) {
        let producer = DocumentRowProducer(plan: plan, request: request, flattenedNames: flattenedNames, storable: storable,
                                           channel: channel)
        do {
            let reader = JSONRecordReader(layout: request.layout) { record in try producer.append(record) }
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
            _ = channel.send(.end(invalidCells: invalid, skipped: producer.skipped))
        } catch is Stopped {
            return
        } catch {
            _ = channel.send(.failure(error))
        }
    }

    /// One record into the batches.
    private func append(_ record: JSONRecordReader.Record) throws {
        do {
            guard flatten else {
                try main.append(record.bytes, rowNumber: record.number, offset: 0)
                // The child and glue rows are cut from the record's bytes.
                for rows in nested {
                    guard let nesting = rows.table.nesting else { continue }
                    try elementRows.forEachRow(of: nesting, in: record.bytes, glueID: rows.table.glue?.idField,
                                               skipped: &skipped[rows.index, default: 0]) { bytes in
                        try rows.sink.append(bytes, rowNumber: record.number, offset: 0)
                    }
                }
                return
            }
            // The record as objects: flattened, and its nested arrays handed to their tables.
            let value: JSONValue
            do {
                value = try JSONValueParser.parse(record.bytes)
            } catch {
                throw DocumentError.badRecord(record: record.number, line: record.line, detail: "\(error)")
            }
            guard case .object(var members) = value else {
                throw DocumentError.notAnObject(record: record.number, line: record.line, found: FieldTypeInference.noun(value))
            }
            // Flattened: the record becomes its flattened object, and its nested arrays are read
            // from the tree.
            members = JSONFlattening.flatten(members, names: flattenedNames)
            try Array(JSONValue.object(members).jsonText.utf8).withUnsafeBufferPointer { bytes in
                try main.append(bytes, rowNumber: record.number, offset: 0)
            }
            try appendElements(of: members, record: record)
        } catch let error as RowsJSONError {
            throw DocumentError.badRecord(record: record.number, line: record.line, detail: error.description)
        } catch is RawArrayParser.Malformed {
            throw DocumentError.badRecord(record: record.number, line: record.line, detail: "malformed JSON")
        }
    }

    /// Hands each element of the record's arrays of objects to its table, as an object of the
    /// parent's key values, its position, and its own members; a glue table's element without
    /// the reference is no link, and only counted.
    private func appendElements(of members: [JSONMember], record: JSONRecordReader.Record) throws {
        for rows in nested {
            guard let nesting = rows.table.nesting,
                  case .array(let items)? = members.first(where: { $0.key == nesting.arrayField })?.value else { continue }
            let parentKey = nesting.parentKeyFields.enumerated().map { index, field in
                JSONMember(key: PlanNesting.parentKeyField(index), value: members.first { $0.key == field }?.value ?? .null)
            }
            for (position, item) in items.enumerated() {
                guard case .object(let itemMembers) = item else { continue }
                if let glue = rows.table.glue, (itemMembers.first { $0.key == glue.idField }?.value ?? .null) == .null {
                    skipped[rows.index, default: 0] += 1
                    continue
                }
                var made = parentKey
                if nesting.numbersElements {
                    made.append(JSONMember(key: PlanNesting.positionField, value: .number(String(position + 1))))
                }
                let own = Set(made.map(\.key))
                made += itemMembers.filter { !own.contains($0.key) }
                try Array(JSONValue.object(made).jsonText.utf8).withUnsafeBufferPointer { bytes in
                    try rows.sink.append(bytes, rowNumber: record.number, offset: 0)
                }
            }
        }
    }
}
