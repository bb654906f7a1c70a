import SocloadCore

/// Reads a JSON array incrementally, one element at a time, from chunks of bytes: the body of a
/// SODA 2 or SODA3 page, `[{"name": ...}, {...}]`. Only the current element is held in memory;
/// each is handed over as its JSON text (for `RowConverter`), with its 1-based number and offset.
///
/// A body that is an object instead (a Socrata error served with status 200) is reported as such.
public final class JSONArrayReader {
    private enum State { case start, elementOrEnd(first: Bool), capturing, afterElement, end, envelope }

    private var state = State.start
    private var scanner = JSONValueScanner()
    private var captured: [UInt8] = []
    private var captureStart = 0
    private static let envelopeLimit = 64 * 1024

    public private(set) var bytesRead = 0
    public private(set) var elementsRead = 0

    public init() {}

    /// Offered each element as `RowsJSONReader` offers rows: in place in the chunk first (return
    /// the index past it, or nil to have it delivered again whole), or whole.
    public typealias ElementHandler = RowsJSONReader.RowHandler

    public func feed(_ chunk: UnsafeRawBufferPointer, _ handle: ElementHandler) throws {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var index = 0
        while index < bytes.count {
            if case .capturing = state {
                let (end, complete) = scanner.scan(bytes, from: index)
                captured.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                if captured.count > RowsJSONReader.maximumValueBytes {
                    throw RowsJSONError.malformed(offset: captureStart, detail: "row \(elementsRead + 1) is larger than "
                                                  + "\(RowsJSONReader.maximumValueBytes >> 20) MB")
                }
                index = end
                if complete { try finishElement(handle) }
                continue
            }
            if case .envelope = state {
                let (end, complete) = scanner.scan(bytes, from: index)
                if captured.count < Self.envelopeLimit {
                    captured.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                }
                index = end
                if complete { state = .end }
                continue
            }
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
                continue
            }
            let position = bytesRead + index
            switch state {
            case .start:
                if position < 3, byte == [0xEF, 0xBB, 0xBF][position] { break }
                if byte == UInt8(ascii: "<") { throw RowsJSONError.htmlPage }
                if byte == UInt8(ascii: "{") {
                    scanner.reset()
                    captured.removeAll()
                    state = .envelope
                    continue
                }
                guard byte == UInt8(ascii: "[") else { throw malformed(position, byte, expected: "'['") }
                state = .elementOrEnd(first: true)
            case .elementOrEnd(let first):
                if first, byte == UInt8(ascii: "]") {
                    state = .end
                } else if let end = try handle(RowsJSONReader.RowText(bytes: bytes, start: index, isWhole: false,
                                                                      number: elementsRead + 1, offset: position)) {
                    elementsRead += 1
                    state = .afterElement
                    index = end
                    continue
                } else {
                    scanner.reset()
                    captured.removeAll(keepingCapacity: true)
                    captureStart = position
                    state = .capturing
                    continue
                }
            case .afterElement:
                if byte == UInt8(ascii: ",") {
                    state = .elementOrEnd(first: false)
                } else if byte == UInt8(ascii: "]") {
                    state = .end
                } else {
                    throw malformed(position, byte, expected: "',' or ']'")
                }
            case .end:
                throw malformed(position, byte, expected: "the end of the document")
            case .capturing, .envelope:
                break
            }
            index += 1
        }
        bytesRead += bytes.count
    }

    /// Checks that the array was complete. Call it after the last chunk.
    public func finish() throws {
        guard case .end = state else { throw RowsJSONError.truncated(offset: bytesRead) }
        if !captured.isEmpty, elementsRead == 0, let envelope = try? JSONValueParser.parse(captured),
           case .object = envelope {
            throw RowsJSONError.errorEnvelope(message: HTTPErrorBody.message(of: envelope) ?? envelope.jsonText)
        }
    }

    private func finishElement(_ handle: ElementHandler) throws {
        elementsRead += 1
        state = .afterElement
        let number = elementsRead
        let offset = captureStart
        _ = try captured.withUnsafeBufferPointer {
            try handle(RowsJSONReader.RowText(bytes: $0, start: 0, isWhole: true, number: number, offset: offset))
        }
        captured.removeAll(keepingCapacity: true)
    }

    private func malformed(_ position: Int, _ byte: UInt8, expected: String) -> RowsJSONError {
        .malformed(offset: position, detail: "expected \(expected), found \(JSONValueParser.describe(byte: byte))")
    }
}
