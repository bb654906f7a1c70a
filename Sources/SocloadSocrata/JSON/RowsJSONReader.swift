import SocloadCore
import Foundation

/// Reads Socrata's legacy rows.json export incrementally: first the column metadata, then one row
/// at a time, from chunks of bytes as they arrive from the network or a file.
///
/// The document is `{"meta":{"view":{...,"columns":[...]}},"data":[[...],[...],...]}`. Only the
/// metadata and the current row are held in memory, whatever the size of the dataset, and the
/// result is the same however the bytes are split into chunks.
///
///     let reader = RowsJSONReader()
///     try reader.feed(chunk, onMetadata: { view in print(view.columns.count) }, onRow: { row in nil })   // each chunk
///     try reader.finish()
///
/// Rows are handed over as their bytes, one way only (`RowText`): in place in the chunk when the
/// handler can take a row there, else copied whole first.
public final class RowsJSONReader {
    /// One row's JSON text. Valid only during the call.
    public struct RowText {
        /// The bytes the row starts in, at `start`.
        public let bytes: UnsafeBufferPointer<UInt8>
        public let start: Int
        /// True when `bytes[start...]` is exactly the whole row; false when the row starts in the
        /// current chunk and may run past its end.
        public let isWhole: Bool
        /// The row's 1-based number.
        public let number: Int
        /// The row's byte offset in the document.
        public let offset: Int
    }

    /// What the row handler returns: the index in `bytes` past the row when it took the row,
    /// or nil to have it delivered again whole (a row cut by the chunk's end, or a malformed
    /// one). For a whole row the answer is not read.
    public typealias RowHandler = (RowText) throws -> Int?

    private enum State {
        case documentStart, keyOrEnd(first: Bool), key, colon, valueStart, capturing, rowOrEnd(first: Bool), afterRow, afterMember
        case documentEnd
    }

    private enum Capture { case metadata, row, envelope(String), skip }

    private static let envelopeKeys: Set<String> = ["message", "error", "code", "errorCode"]
    /// The most bytes kept of an error-envelope member, so a hostile body cannot grow memory.
    private static let envelopeLimit = 64 * 1024
    /// The largest row or metadata socload holds in memory; a larger one is refused, not loaded.
    public static let maximumValueBytes = RowBatch.maximumRowBytes

    private var state = State.documentStart
    private var keyBytes: [UInt8] = []
    private var keyEscaped = false
    private var currentKey = ""
    private var capture = Capture.skip
    private var scanner = JSONValueScanner()
    private var captured: [UInt8] = []
    private var captureStart = 0
    private var envelope: [String: JSONValue] = [:]
    /// The document's own member names so far (nested members are not tracked here).
    private var topLevelKeys = Set<String>()

    /// Bytes consumed so far.
    public private(set) var bytesRead = 0
    /// Data rows read so far.
    public private(set) var rowsRead = 0
    /// The byte offset where the current (last delivered) row starts.
    public var currentRowOffset: Int { captureStart }
    /// The metadata, once read.
    public private(set) var metadata: ViewMetadata?
    public init() {}

    /// Consumes the next chunk, calling `metadata` once the column metadata is read and `row` for
    /// each row in it.
    public func feed(_ chunk: UnsafeRawBufferPointer, onMetadata: (ViewMetadata) throws -> Void,
                     onRow: RowHandler) throws {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var index = 0
        let count = bytes.count
        while index < count {
            switch state {
            case .capturing:
                let (end, complete) = scanner.scan(bytes, from: index)
                if case .skip = capture {} else { try appendCaptured(bytes, from: index, to: end) }
                index = end
                if complete { try finishCapture(onMetadata, onRow) }
                continue
            case .key:
                try readKey(bytes[index], at: bytesRead + index)
                index += 1
                continue
            default:
                break
            }
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
                continue
            }
            index = try step(byte, bytes: bytes, at: index, onRow: onRow)
        }
        bytesRead += count
    }

    /// One byte of a top-level member's name (`state` is `.key`).
    private func readKey(_ byte: UInt8, at position: Int) throws {
        if keyEscaped {
            keyEscaped = false
        } else if byte == UInt8(ascii: "\\") {
            keyEscaped = true
        } else if byte == UInt8(ascii: "\"") {
            currentKey = String(decoding: keyBytes, as: UTF8.self)
            // Two `data` (or `meta`) members would change what the document means.
            guard topLevelKeys.insert(currentKey).inserted else {
                throw RowsJSONError.malformed(offset: position, detail: "the member '\(currentKey)' appears twice")
            }
            state = .colon
            return
        }
        keyBytes.append(byte)
    }

    /// One byte of the document's structure outside a captured value, at `index` of `bytes`:
    /// the state it leads to, and where reading goes on (a row parsed in place ends further on;
    /// a value to capture starts at this very byte).
    private func step(_ byte: UInt8, bytes: UnsafeBufferPointer<UInt8>, at index: Int, onRow: RowHandler) throws -> Int {
        let position = bytesRead + index
        switch state {
        case .documentStart:
            if position < 3, byte == [0xEF, 0xBB, 0xBF][position] {
                return index + 1 // a UTF-8 byte order mark
            }
            if byte == UInt8(ascii: "<") { throw RowsJSONError.htmlPage }
            if byte == UInt8(ascii: "[") { throw RowsJSONError.arrayOfRecords } // a SODA page: `load` reads it
            guard byte == UInt8(ascii: "{") else { throw malformed(position, byte, expected: "'{'") }
            state = .keyOrEnd(first: true)
        case .keyOrEnd(let first):
            if byte == UInt8(ascii: "\"") {
                keyBytes.removeAll(keepingCapacity: true)
                state = .key
            } else if first, byte == UInt8(ascii: "}") {
                state = .documentEnd
            } else {
                throw malformed(position, byte, expected: "a member name")
            }
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw malformed(position, byte, expected: "':'") }
            state = .valueStart
        case .valueStart:
            guard currentKey == "data" else {
                if currentKey == "meta", metadata == nil {
                    beginCapture(.metadata, at: position)
                } else if Self.envelopeKeys.contains(currentKey) {
                    beginCapture(.envelope(currentKey), at: position)
                } else {
                    beginCapture(.skip, at: position)
                }
                return index // the scanner reads the value's first byte
            }
            guard metadata != nil else { throw RowsJSONError.dataBeforeMetadata(offset: position) }
            guard byte == UInt8(ascii: "[") else { throw malformed(position, byte, expected: "'[' starting the rows") }
            state = .rowOrEnd(first: true)
        case .rowOrEnd(let first):
            if byte == UInt8(ascii: "[") {
                let text = RowText(bytes: bytes, start: index, isWhole: false, number: rowsRead + 1, offset: position)
                if let end = try onRow(text) {
                    rowsRead += 1
                    captureStart = position
                    state = .afterRow
                    return end
                }
                beginCapture(.row, at: position)
                return index
            } else if first, byte == UInt8(ascii: "]") {
                state = .afterMember
            } else {
                throw malformed(position, byte, expected: "a row array")
            }
        case .afterRow:
            if byte == UInt8(ascii: ",") {
                state = .rowOrEnd(first: false)
            } else if byte == UInt8(ascii: "]") {
                state = .afterMember
            } else {
                throw malformed(position, byte, expected: "',' or ']' after a row")
            }
        case .afterMember:
            if byte == UInt8(ascii: ",") {
                state = .keyOrEnd(first: false)
            } else if byte == UInt8(ascii: "}") {
                state = .documentEnd
            } else {
                throw malformed(position, byte, expected: "',' or '}'")
            }
        case .documentEnd:
            throw malformed(position, byte, expected: "the end of the document")
        case .capturing, .key:
            break // read by `feed`
        }
        return index + 1
    }

    /// Checks that the document was complete. Call it after the last chunk.
    public func finish() throws {
        guard case .documentEnd = state else {
            if metadata == nil, !envelope.isEmpty { throw missingMetadataError() }
            throw RowsJSONError.truncated(offset: bytesRead)
        }
        if metadata == nil { throw missingMetadataError() }
        // `"data": []` is an empty dataset; no `data` at all is not a rows.json export.
        if !topLevelKeys.contains("data") { throw RowsJSONError.missingData }
    }

    private func missingMetadataError() -> RowsJSONError {
        let object = JSONValue.object(envelope.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })
        if let message = HTTPErrorBody.message(of: object) { return .errorEnvelope(message: message) }
        if let error = envelope["error"] { return .errorEnvelope(message: error.jsonText) }
        return .missingMetadata
    }

    private func beginCapture(_ kind: Capture, at position: Int) {
        capture = kind
        scanner.reset()
        captured.removeAll(keepingCapacity: true)
        captureStart = position
        state = .capturing
    }

    private func appendCaptured(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) throws {
        if case .envelope = capture, captured.count >= Self.envelopeLimit { return }
        captured.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        if captured.count > Self.maximumValueBytes {
            let what = { if case .row = self.capture { return "row \(self.rowsRead + 1)" } else { return "the metadata" } }()
            throw RowsJSONError.malformed(offset: captureStart,
                                          detail: "\(what) is larger than \(Self.maximumValueBytes >> 20) MB")
        }
    }

    private func finishCapture(_ onMetadata: (ViewMetadata) throws -> Void, _ onRow: RowHandler) throws {
        switch capture {
        case .metadata:
            try MetadataSyntax.validate(captured, base: captureStart, label: "meta", watched: MetadataSyntax.rowsJSONMeta)
            let view = try Self.decodeMetadata(&captured)
            (captured, metadata) = ([], view) // rows are far smaller: a 100 MB description is not held through the load
            state = .afterMember
            try onMetadata(view)
        case .row:
            rowsRead += 1
            state = .afterRow
            let number = rowsRead
            let offset = captureStart
            _ = try captured.withUnsafeBufferPointer { bytes in
                try onRow(RowText(bytes: bytes, start: 0, isWhole: true, number: number, offset: offset))
            }
        case .envelope(let key):
            envelope[key] = try? JSONValueParser.parse(captured)
            state = .afterMember
        case .skip:
            state = .afterMember
        }
    }

    private struct MetaEnvelope: Decodable {
        var view: ViewMetadata
    }

    private static func decodeMetadata(_ bytes: inout [UInt8]) throws -> ViewMetadata {
        do {
            return try ViewMetadata.decodeInPlace(MetaEnvelope.self, from: &bytes) { $0.view }
        } catch DecodingError.keyNotFound {
            throw RowsJSONError.missingMetadata
        } catch let error as DecodingError {
            throw RowsJSONError.invalidMetadata(detail: describe(error))
        } catch {
            throw RowsJSONError.invalidMetadata(detail: "\(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private func malformed(_ position: Int, _ byte: UInt8, expected: String) -> RowsJSONError {
        .malformed(offset: position, detail: "expected \(expected), found \(JSONValueParser.describe(byte: byte))")
    }
}
