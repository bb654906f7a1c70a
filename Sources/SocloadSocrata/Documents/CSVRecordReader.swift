import Foundation
import SocloadCore

/// Reads the records of a CSV or TSV file one at a time, from chunks of bytes, and hands each on
/// as the JSON object the rest of `socload load` reads (`{"name":"value",...}`): the same
/// inference, plan, converter and destinations as a JSON document. Fields follow RFC 4180 (see
/// `CSVDialect`); an empty field is NULL and a quoted empty one (`""`) the empty string. A line
/// with nothing on it is skipped. A record with fewer fields than the header has NULLs for the
/// rest; one with more is an error unless the extra fields are empty (a trailing delimiter).
/// Only the current record is held in memory.
final class CSVRecordReader: DocumentRecordReader {
    /// Names the columns from the header's names (or, with no header, from how many fields the
    /// first record has); throws to refuse the file.
    typealias ColumnNaming = (_ header: [String]) throws -> [String]

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted, afterCarriageReturn }

    private let delimiter: UInt8
    private let encoding: TextEncoding
    private let hasHeader: Bool
    private let naming: ColumnNaming
    private let handle: (JSONRecordReader.Record) throws -> Void

    private var state = State.fieldStart
    /// The current record's field bytes, one after another, and where each field ends.
    private var content: [UInt8] = []
    private var fieldEnds: [Int] = []
    private var fieldQuoted: [Bool] = []
    private var quoted = false
    private var sawNonASCII = false
    /// Each column's key as JSON, `"name":`, once the header is read.
    private var keys: [[UInt8]]?
    private var json: [UInt8] = []
    private var transcoded: [UInt8] = []
    private var atStart = true
    private var line = 1
    private var recordLine = 1
    public private(set) var recordsRead = 0
    /// Records that had fewer fields than the header.
    private(set) var shortRecords = 0

    init(dialect: CSVDialect, delimiter: UInt8, naming: @escaping ColumnNaming = CSVRecordReader.plainNames,
         _ handle: @escaping (JSONRecordReader.Record) throws -> Void) {
        self.delimiter = delimiter
        encoding = dialect.encoding
        hasHeader = dialect.hasHeader
        self.naming = naming
        self.handle = handle
    }

    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        var bytes = chunk.bindMemory(to: UInt8.self)
        if atStart, !bytes.isEmpty {
            atStart = false
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            }
        }
        guard encoding == .utf8 else {
            transcoded.removeAll(keepingCapacity: true)
            encoding.appendAsUTF8(bytes, to: &transcoded)
            let text = transcoded
            return try text.withUnsafeBufferPointer { try scan($0) }
        }
        try scan(bytes)
    }

    private func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        let quote = UInt8(ascii: "\""), newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .afterCarriageReturn:
                state = .fieldStart
                if byte == newline { index += 1; continue }
                continue
            case .fieldStart:
                if byte == quote {
                    quoted = true
                    state = .quoted
                } else if byte == delimiter {
                    endField()
                } else if byte == newline || byte == carriageReturn {
                    try endRecord(byte)
                } else {
                    state = .unquoted
                    continue
                }
            case .unquoted:
                // A run of ordinary bytes at once.
                var end = index
                while end < bytes.count, bytes[end] != delimiter, bytes[end] != newline, bytes[end] != carriageReturn {
                    sawNonASCII = sawNonASCII || bytes[end] >= 0x80
                    end += 1
                }
                content.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
                guard end < bytes.count else { continue }
                if bytes[end] == delimiter { endField() } else { try endRecord(bytes[end]) }
            case .quoted:
                var end = index
                while end < bytes.count, bytes[end] != quote {
                    if bytes[end] == newline { line += 1 }
                    sawNonASCII = sawNonASCII || bytes[end] >= 0x80
                    end += 1
                }
                content.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                try checkSize()
                index = end
                if end < bytes.count { state = .quoteInQuoted }
            case .quoteInQuoted:
                if byte == quote {
                    content.append(quote)
                    state = .quoted
                } else if byte == delimiter {
                    endField()
                } else if byte == newline || byte == carriageReturn {
                    try endRecord(byte)
                } else {
                    // Text after a closing quote (`"a"b`): kept, as most readers keep it.
                    state = .unquoted
                    continue
                }
            }
            index += 1
        }
    }

    func finish() throws {
        switch state {
        case .quoted:
            throw DocumentError.badRecord(record: recordsRead + 1, line: recordLine,
                                          detail: "a quoted field is not closed before the end of the file")
        case .afterCarriageReturn:
            break
        default:
            if !content.isEmpty || !fieldEnds.isEmpty || quoted { try endRecord(nil) }
        }
        if keys == nil { throw DocumentError.emptyCSV }
    }

    private func checkSize() throws {
        if content.count > JSONRecordReader.maximumRecordBytes {
            throw DocumentError.recordTooLarge(record: recordsRead + 1, line: recordLine, limit: JSONRecordReader.maximumRecordBytes)
        }
    }

    private func endField() {
        fieldEnds.append(content.count)
        fieldQuoted.append(quoted)
        quoted = false
        state = .fieldStart
    }

    /// Ends the record at `byte` (a line break; nil: the end of the file).
    private func endRecord(_ byte: UInt8?) throws {
        endField()
        state = byte == 0x0D ? .afterCarriageReturn : .fieldStart
        defer {
            content.removeAll(keepingCapacity: true)
            fieldEnds.removeAll(keepingCapacity: true)
            fieldQuoted.removeAll(keepingCapacity: true)
            sawNonASCII = false
            line += byte == nil ? 0 : 1
            recordLine = line
        }
        try checkSize()
        // A blank line is no record.
        if fieldEnds.count == 1, fieldEnds[0] == 0, !fieldQuoted[0] { return }
        if sawNonASCII, !isUTF8() {
            let hint = encoding == .utf8 ? ": pass --encoding windows-1252 (or latin-1) for a file a spreadsheet saved" : ""
            throw DocumentError.badRecord(record: recordsRead + 1, line: recordLine, detail: "not UTF-8 text\(hint)")
        }
        guard let keys else { return try takeHeader() }
        try deliver(keys)
    }

    private func isUTF8() -> Bool {
        content.withUnsafeBufferPointer { UTF8Validation.isValid($0, 0..<$0.count) }
    }

    private func field(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : fieldEnds[index - 1])..<fieldEnds[index]
    }

    private func takeHeader() throws {
        let names: [String]
        if hasHeader {
            names = fieldEnds.indices.map { String(decoding: content[field($0)], as: UTF8.self) }
        } else {
            names = fieldEnds.indices.map { _ in "" }
        }
        keys = try naming(names).map { name in
            var key: [UInt8] = []
            Self.appendString(Array(name.utf8)[...], to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
        if !hasHeader, let keys { try deliver(keys) }
    }

    private func deliver(_ keys: [[UInt8]]) throws {
        recordsRead += 1
        if fieldEnds.count > keys.count {
            let extra = (keys.count..<fieldEnds.count).first { !field($0).isEmpty || fieldQuoted[$0] }
            if extra != nil {
                throw DocumentError.badRecord(record: recordsRead, line: recordLine,
                                              detail: "\(fieldEnds.count) fields where the header has \(keys.count)")
            }
        }
        if fieldEnds.count < keys.count { shortRecords += 1 }
        json.removeAll(keepingCapacity: true)
        json.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: key)
            guard index < fieldEnds.count, !field(index).isEmpty || fieldQuoted[index] else {
                json.append(contentsOf: "null".utf8)
                continue
            }
            Self.appendString(content[field(index)], to: &json)
        }
        json.append(UInt8(ascii: "}"))
        let record = recordsRead, line = recordLine
        try json.withUnsafeBufferPointer { try handle(JSONRecordReader.Record(bytes: $0, number: record, line: line)) }
    }

    /// `text` as a JSON string, quoted and escaped.
    static func appendString(_ text: ArraySlice<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var runStart = text.startIndex
        for index in text.indices {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            output.append(contentsOf: text[runStart..<index])
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\")); output.append(byte)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            default:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            }
        }
        output.append(contentsOf: text[runStart..<text.endIndex])
        output.append(UInt8(ascii: "\""))
    }

    /// The header's names as columns: an empty name is `column_N` (N its place), and a name met
    /// again gets `_2`, `_3`, ... (compared without case, as SQL compares names).
    static func plainNames(_ header: [String]) -> [String] {
        var taken = Set<String>()
        return header.enumerated().map { place, given in
            let base = given.trimmingCharacters(in: .whitespaces).isEmpty ? "column_\(place + 1)" : given
            var name = base
            var suffix = 2
            while taken.contains(name.lowercased()) {
                name = "\(base)_\(suffix)"
                suffix += 1
            }
            taken.insert(name.lowercased())
            return name
        }
    }
}
