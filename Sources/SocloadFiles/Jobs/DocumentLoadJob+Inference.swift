import Foundation
import SocloadCore
import SocloadEngine
import SocloadTransport

/// The inference pass of `socload load` without `--metadata`: every record read once, each
/// field's kinds noted. A document of one record per line (NDJSON) of some size is read in two
/// halves at once, one per core, split at a line's end, and the second half's kinds taken after
/// the first's: the same fields in the same order as one reading, in about half the time
/// (the pass otherwise runs alone, before the load's two threads start).
extension DocumentLoadJob {
    /// Below this, one thread reads the document.
    static let halvedInferenceBytes: Int64 = 4 << 20

    func inferFields(_ request: DocumentLoadRequest, records: DocumentRecordSource,
                     spool: DocumentSpool) throws -> FieldTypeInference {
        if let split = Self.halfwayLineEnd(records: records, path: spool.path),
           let halves = try inferHalves(request, records: records, path: spool.path, split: split) {
            return halves
        }
        return try Self.observedRecords(request, records: records, path: spool.path, bytes: nil,
                                        cancellation: context.cancellation)
    }

    /// The offset just after the first line end past the middle of a document of one JSON
    /// record per line (nil: another layout, a small file, no line end near the middle).
    static func halfwayLineEnd(records: DocumentRecordSource, path: String) -> Int64? {
        guard !records.isCSV, case .lines = records.layout, let size = FileByteSource.size(of: path),
              size >= halvedInferenceBytes else { return nil }
        struct Found: Error { let offset: Int64 }
        var offset = size / 2
        do {
            try FileByteSource.read(path, bytes: offset..<min(size, offset + (4 << 20)), cancellation: nil) { chunk in
                if let newline = chunk.firstIndex(of: UInt8(ascii: "\n")) { throw Found(offset: offset + Int64(newline) + 1) }
                offset += Int64(chunk.count)
            }
        } catch let found as Found {
            return found.offset < size ? found.offset : nil
        } catch {}
        return nil
    }

    /// Both halves' kinds, the second's after the first's; nil when either half fails (the
    /// document is then read again on one thread, for the error that names its record).
    private func inferHalves(_ request: DocumentLoadRequest, records: DocumentRecordSource, path: String,
                             split: Int64) throws -> FieldTypeInference? {
        let second = InferenceResult()
        let finished = DispatchSemaphore(value: 0)
        let cancellation = context.cancellation
        Thread.detachNewThread {
            second.set(Result {
                try Self.observedRecords(request, records: records, path: path, bytes: split..<Int64.max, cancellation: cancellation)
            })
            finished.signal()
        }
        let first = Result { try Self.observedRecords(request, records: records, path: path, bytes: 0..<split, cancellation: cancellation) }
        finished.wait()
        try context.cancellation?.check()
        guard var inference = try? first.get(), let rest = try? second.get()?.get() else { return nil }
        inference.merge(rest)
        return inference
    }

    /// The kinds of the records of `bytes` of the file (nil: all of it).
    private static func observedRecords(_ request: DocumentLoadRequest, records: DocumentRecordSource, path: String,
                                        bytes: Range<Int64>?, cancellation: LoadCancellation?) throws -> FieldTypeInference {
        var inference = FieldTypeInference()
        inference.readsTextAsValues = records.isCSV
        inference.referenceFields = Dictionary(request.document.glues.map { ($0.arrayField, $0.idField) }, uniquingKeysWith: { _, last in last })
        var flattener = FlattenedRecordBytes(names: [:], keepsPaths: true)
        let observe = { (record: JSONRecordReader.Record) throws in
            guard request.document.flatten else {
                return try inference.observe(text: record.bytes, record: record.number, line: record.line)
            }
            // From the bytes, flattened under their paths; a record that is no object, or is
            // malformed, is parsed whole below for the error that says why.
            do {
                return try flattener.flatten(record.bytes) { flat in
                    try inference.observe(text: flat, record: record.number, line: record.line)
                }
            } catch is RawArrayParser.Malformed {
            } catch is FlattenedRecordBytes.TooDeep {}
            let value: JSONValue
            do {
                value = try JSONValueParser.parse(record.bytes)
            } catch {
                throw DocumentError.badRecord(record: record.number, line: record.line, detail: "\(error)")
            }
            if case .object(let members) = value {
                try inference.observe(.object(JSONFlattening.flattenPaths(members)), record: record.number, line: record.line)
            } else {
                try inference.observe(value, record: record.number, line: record.line)
            }
        }
        let reader = records.reader(observe)
        if let bytes {
            try FileByteSource.read(path, bytes: bytes, cancellation: cancellation) { try reader.feed($0) }
        } else {
            try FileByteSource.read(path, cancellation: cancellation) { try reader.feed($0) }
        }
        try reader.finish()
        return inference
    }
}

/// The second half's result, handed from its thread.
private final class InferenceResult: @unchecked Sendable {
    // @unchecked Sendable: set once by the second thread before it signals, read after the wait.
    private var result: Result<FieldTypeInference, any Error>?
    func set(_ result: Result<FieldTypeInference, any Error>) { self.result = result }
    func get() -> Result<FieldTypeInference, any Error>? { result }
}
