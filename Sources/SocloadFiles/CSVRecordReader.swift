import Foundation
import SocloadCore
import SocloadEngine
import SocloadTransport

/// Reads the records of a CSV or TSV file one at a time, from chunks of bytes, and hands each on
/// as the JSON object the rest of `socload load` reads (`{"name":"value",...}`): the same
/// inference, plan, converter and destinations as a JSON document. Fields are split by
/// `CSVFieldScanner` (RFC 4180); an empty field is NULL and a quoted empty one (`""`) the empty
/// string. A line with nothing on it is skipped. A record with fewer fields than the header has
/// NULLs for the rest; one with more is an error unless the extra fields are empty (a trailing
/// delimiter). Only the current record is held in memory.
package final class CSVRecordReader: DocumentRecordReader {
    /// Names the columns from the header's names (with no header: as many empty names as the
    /// first record has fields); throws to refuse the file.
    package typealias ColumnNaming = (_ header: [String]) throws -> [String]

    private let encoding: TextEncoding
    private let hasHeader: Bool
    private let naming: ColumnNaming
    private let handle: (JSONRecordReader.Record) throws -> Void
    private var scanner: CSVFieldScanner
    /// Each column's key as JSON, `"name":`, once the header is read.
    private var keys: [[UInt8]]?
    private var json: [UInt8] = []
    private var transcoded: [UInt8] = []
    private var atStart = true
    public private(set) var recordsRead = 0

    package init(dialect: CSVDialect, delimiter: UInt8, naming: @escaping ColumnNaming = CSVRecordReader.plainNames,
         _ handle: @escaping (JSONRecordReader.Record) throws -> Void) {
        scanner = CSVFieldScanner(delimiter: delimiter, limit: JSONRecordReader.maximumRecordBytes)
        encoding = dialect.encoding
        hasHeader = dialect.hasHeader
        self.naming = naming
        self.handle = handle
    }

    package func feed(_ chunk: UnsafeRawBufferPointer) throws {
        var bytes = chunk.bindMemory(to: UInt8.self)
        if atStart, !bytes.isEmpty {
            atStart = false
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            }
        }
        guard encoding == .utf8 else {
            var text: [UInt8] = []
            swap(&text, &transcoded)
            defer { swap(&text, &transcoded) }
            text.removeAll(keepingCapacity: true)
            encoding.appendAsUTF8(bytes, to: &text)
            return try text.withUnsafeBufferPointer { try scan($0) }
        }
        try scan(bytes)
    }

    /// The scanner runs on a local copy (its state moved out and back), so that its loop pays no
    /// exclusivity checks on this object's properties.
    private func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var scanner = CSVFieldScanner(delimiter: 0, limit: 0)
        swap(&scanner, &self.scanner)
        defer { swap(&scanner, &self.scanner) }
        do {
            try scanner.scan(bytes) { fields in try take(fields) }
        } catch is CSVFieldScanner.RecordTooLarge {
            throw DocumentError.recordTooLarge(record: recordsRead + 1, line: scanner.recordLine, limit: scanner.limit)
        }
    }

    package func finish() throws {
        var scanner = CSVFieldScanner(delimiter: 0, limit: 0)
        swap(&scanner, &self.scanner)
        defer { swap(&scanner, &self.scanner) }
        if scanner.isInQuotes {
            throw DocumentError.badRecord(record: recordsRead + 1, line: scanner.recordLine,
                                          detail: "a quoted field is not closed before the end of the file")
        }
        try scanner.finish { fields in try take(fields) }
        if keys == nil { throw DocumentError.emptyCSV }
    }

    /// One record's fields: the header, or a record handed on.
    private func take(_ fields: CSVFieldScanner) throws {
        if fields.isBlankLine { return }
        if fields.sawNonASCII, !fields.content.withUnsafeBufferPointer({ UTF8Validation.isValid($0, 0..<$0.count) }) {
            let hint = encoding == .utf8 ? ": pass --encoding windows-1252 (or latin-1) for a file a spreadsheet saved" : ""
            throw DocumentError.badRecord(record: recordsRead + 1, line: fields.recordLine, detail: "not UTF-8 text\(hint)")
        }
        guard let keys else { return try takeHeader(fields) }
        try deliver(fields, keys)
    }

    private func takeHeader(_ fields: CSVFieldScanner) throws {
        let names = fields.fieldEnds.indices.map { hasHeader ? String(decoding: fields.content[fields.field($0)], as: UTF8.self) : "" }
        let keys = try naming(names).map { name in
            var key: [UInt8] = []
            Array(name.utf8).withUnsafeBufferPointer { Self.appendString($0, to: &key) }
            key.append(UInt8(ascii: ":"))
            return key
        }
        self.keys = keys
        if !hasHeader { try deliver(fields, keys) }
    }

    private func deliver(_ fields: CSVFieldScanner, _ keys: [[UInt8]]) throws {
        recordsRead += 1
        let count = fields.fieldEnds.count
        if count > keys.count, (keys.count..<count).contains(where: { !fields.field($0).isEmpty || fields.fieldQuoted[$0] }) {
            throw DocumentError.badRecord(record: recordsRead, line: fields.recordLine,
                                          detail: "\(count) fields where the header has \(keys.count)")
        }
        var json: [UInt8] = []
        swap(&json, &self.json)
        defer { swap(&json, &self.json) }
        json.removeAll(keepingCapacity: true)
        json.append(UInt8(ascii: "{"))
        fields.content.withUnsafeBufferPointer { content in
            for (index, key) in keys.enumerated() {
                if index > 0 { json.append(UInt8(ascii: ",")) }
                json.append(contentsOf: key)
                let range = index < count ? fields.field(index) : 0..<0
                if range.isEmpty, index >= count || !fields.fieldQuoted[index] {
                    json.append(contentsOf: "null".utf8)
                } else {
                    Self.appendString(UnsafeBufferPointer(rebasing: content[range]), to: &json)
                }
            }
        }
        json.append(UInt8(ascii: "}"))
        let record = recordsRead, line = fields.recordLine
        try json.withUnsafeBufferPointer { try handle(JSONRecordReader.Record(bytes: $0, number: record, line: line)) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string, quoted and escaped.
    package static func appendString(_ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<text.count {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\")); output.append(byte)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            default:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<text.count]))
        output.append(UInt8(ascii: "\""))
    }

    /// The header's names as columns: an empty name is `column_N` (N its place), and a name met
    /// again gets `_2`, `_3`, ... (compared without case, as SQL compares names).
    package static func plainNames(_ header: [String]) -> [String] {
        var names = ColumnNameAllocator()
        return header.enumerated().map { place, given in
            names.allocate(given.trimmingCharacters(in: .whitespaces).isEmpty ? "column_\(place + 1)" : given)
        }
    }
}
