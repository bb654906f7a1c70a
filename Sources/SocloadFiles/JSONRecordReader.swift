import SocloadCore
import SocloadEngine
import SocloadTransport

/// Reads the records of a plain JSON document one at a time, from chunks of bytes: a JSON array
/// of objects (a saved SODA response), NDJSON (one object per line), or the array under one key
/// of a top-level object (`--root KEY`, for `{"results": [...]}`). Only the current record is held
/// in memory. A single top-level object without a root key is refused: it may be an error
/// envelope or a rows.json document, and loading it as one row would hide that.
public final class JSONRecordReader {
    /// How the records are laid out.
    public enum Layout: Sendable, Equatable {
        /// Whatever the first byte says: `[` an array, `{` NDJSON (one object followed by another).
        case detect
        /// One object per line, even when there is only one.
        case lines
        /// The array under this key of a top-level object.
        case root(String)
    }

    /// One record: its JSON text, its 1-based number, and its line when the layout is by line.
    public struct Record {
        public let bytes: UnsafeBufferPointer<UInt8>
        public let number: Int
        public let line: Int?
    }

    private enum State {
        case start
        /// In an array: before an element (or `]` when `first`), or after one.
        case arrayElement(first: Bool), afterArrayElement
        /// NDJSON: between records.
        case betweenLines
        /// `--root`: before a key (or `}` when `first`), in a key, before `:`, before a value,
        /// skipping a value, after a member.
        case rootKey(first: Bool), rootColon, rootValue, skippingValue, afterRootMember
        case capturing(next: Resume)
        case end
    }

    /// Where reading goes on after a captured value.
    private enum Resume { case afterArrayElement, betweenLines, rootColon, single }

    private let layout: Layout
    private let handle: (Record) throws -> Void
    private var state = State.start
    private var scanner = JSONValueScanner()
    private var captured: [UInt8] = []
    private var isLines = false
    private var inRootArray = false
    private var foundRoot = false
    /// A first top-level object, held until the next record shows the document is NDJSON.
    private var pendingFirst: [UInt8]?
    private var pendingLine = 1
    private var line = 1
    private var recordLine = 1
    private var position = 0
    /// The key of the member whose value comes next (`--root`).
    private var pendingKey: String?
    public private(set) var recordsRead = 0

    /// The largest record taken, as for rows.json rows.
    public static let maximumRecordBytes = RowBatch.maximumRowBytes

    public init(layout: Layout = .detect, _ handle: @escaping (Record) throws -> Void) {
        self.layout = layout
        self.handle = handle
    }

    public func feed(_ chunk: UnsafeRawBufferPointer) throws {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var index = 0
        while index < bytes.count {
            if case .capturing(let next) = state {
                let (end, complete) = scanner.scan(bytes, from: index)
                for byte in bytes[index..<end] where byte == 0x0A { line += 1 }
                captured.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                if captured.count > Self.maximumRecordBytes {
                    throw DocumentError.recordTooLarge(record: recordsRead + 1, line: isLines ? recordLine : nil,
                                                       limit: Self.maximumRecordBytes)
                }
                position += end - index
                index = end
                if complete { try finishValue(next) }
                continue
            }
            if case .skippingValue = state {
                let (end, complete) = scanner.scan(bytes, from: index)
                for byte in bytes[index..<end] where byte == 0x0A { line += 1 }
                position += end - index
                index = end
                if complete { state = .afterRootMember }
                continue
            }
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || (position < 3 && byte == [0xEF, 0xBB, 0xBF][position]) {
                index += 1
                position += 1
                continue
            }
            try step(byte)
            // A value captured or skipped from here is scanned from its first byte.
            if case .capturing = state { continue }
            if case .skippingValue = state { continue }
            index += 1
            position += 1
        }
    }

    /// One structural byte outside any value being captured or skipped.
    private func step(_ byte: UInt8) throws {
        switch state {
        case .start:
            if byte == UInt8(ascii: "<") { throw RowsJSONError.htmlPage }
            if case .root = layout {
                guard byte == UInt8(ascii: "{") else { throw unexpected(byte, "'{' (a top-level object, for --root)") }
                state = .rootKey(first: true)
            } else if byte == UInt8(ascii: "[") && layout == .detect {
                state = .arrayElement(first: true)
            } else if byte == UInt8(ascii: "{") {
                isLines = true
                beginCapture(then: layout == .lines ? .betweenLines : .single)
            } else {
                throw unexpected(byte, layout == .lines ? "'{' (one object per line)" : "'[' or '{'")
            }
        case .arrayElement(let first):
            if first && byte == UInt8(ascii: "]") {
                endArray()
            } else {
                beginCapture(then: .afterArrayElement)
            }
        case .afterArrayElement:
            if byte == UInt8(ascii: ",") {
                state = .arrayElement(first: false)
            } else if byte == UInt8(ascii: "]") {
                endArray()
            } else {
                throw unexpected(byte, "',' or ']'")
            }
        case .betweenLines:
            beginCapture(then: .betweenLines)
        case .rootKey(let first):
            if first && byte == UInt8(ascii: "}") {
                state = .end
            } else if byte == UInt8(ascii: "\"") {
                beginCapture(then: .rootColon)
            } else {
                throw unexpected(byte, "a key")
            }
        case .rootColon:
            guard byte == UInt8(ascii: ":") else { throw unexpected(byte, "':'") }
            state = .rootValue
        case .rootValue:
            // The root member twice: which one holds the records is anyone's guess (as rows.json's `data` twice).
            if case .root(let key) = layout, foundRoot, pendingKey == key { throw DocumentError.rootTwice(key: key) }
            guard case .root(let key) = layout, !inRootArray, !foundRoot, pendingKey == key else {
                scanner.reset()
                state = .skippingValue
                return
            }
            guard byte == UInt8(ascii: "[") else {
                throw DocumentError.rootNotAnArray(key: key)
            }
            foundRoot = true
            inRootArray = true
            state = .arrayElement(first: true)
        case .afterRootMember:
            if byte == UInt8(ascii: ",") {
                state = .rootKey(first: false)
            } else if byte == UInt8(ascii: "}") {
                state = .end
            } else {
                throw unexpected(byte, "',' or '}'")
            }
        case .end:
            throw unexpected(byte, "the end of the document")
        case .skippingValue, .capturing:
            break
        }
    }

    private func beginCapture(then next: Resume) {
        scanner.reset()
        captured.removeAll(keepingCapacity: true)
        recordLine = line
        state = .capturing(next: next)
    }

    private func endArray() {
        if inRootArray {
            inRootArray = false
            state = .afterRootMember
        } else {
            state = .end
        }
    }

    private func finishValue(_ next: Resume) throws {
        switch next {
        case .rootColon:
            pendingKey = (try? JSONValueParser.parse(captured)).flatMap { value -> String? in
                if case .string(let key) = value { return key }
                return nil
            }
            state = .rootColon
        case .afterArrayElement:
            try deliver(captured, line: nil)
            state = .afterArrayElement
        case .single:
            // A first top-level object: NDJSON only if another record follows.
            pendingFirst = captured
            pendingLine = recordLine
            state = .betweenLines
        case .betweenLines:
            if let first = pendingFirst {
                pendingFirst = nil
                try deliver(first, line: pendingLine)
            }
            try deliver(captured, line: recordLine)
            state = .betweenLines
        }
    }

    private func deliver(_ bytes: [UInt8], line: Int?) throws {
        recordsRead += 1
        let number = recordsRead
        try bytes.withUnsafeBufferPointer { buffer in
            try handle(Record(bytes: buffer, number: number, line: isLines ? line : nil))
        }
    }

    /// Checks that the document was complete. Call it after the last chunk.
    public func finish() throws {
        switch state {
        case .end:
            break
        case .betweenLines:
            if let first = pendingFirst {
                guard layout == .lines else {
                    throw DocumentError.singleObject(keys: Self.topLevelKeys(first))
                }
                pendingFirst = nil
                try deliver(first, line: pendingLine)
            }
        case .start:
            throw DocumentError.empty
        case .capturing where isLines:
            throw DocumentError.badRecord(record: recordsRead + 1, line: recordLine, detail: "the object does not end")
        default:
            throw RowsJSONError.truncated(offset: position)
        }
        if case .root(let key) = layout, !foundRoot { throw DocumentError.rootMissing(key: key) }
    }

    /// The keys of a single top-level object, to say what it looks like.
    private static func topLevelKeys(_ bytes: [UInt8]) -> [String] {
        guard case .object(let members)? = try? JSONValueParser.parse(bytes) else { return [] }
        return members.map(\.key)
    }

    private func unexpected(_ byte: UInt8, _ expected: String) -> RowsJSONError {
        .malformed(offset: position, detail: (isLines ? "line \(line): " : "") + "expected \(expected), found "
                   + JSONValueParser.describe(byte: byte))
    }
}
