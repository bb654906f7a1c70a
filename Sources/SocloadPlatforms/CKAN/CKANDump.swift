import SocloadCore
import SocloadTransport

/// A DataStore table read whole from one streamed `/datastore/dump/ID?format=json`:
/// `{"fields": [{"id", "type"}...], "records": [[v1, v2, ...], ...]}`, each record an array in
/// the fields' order, made an object line of the spool as it passes. The dump is read by a
/// server-side cursor, so a table of millions of rows is one request and no deep offsets.
/// A CKAN that does not offer it (404, an older one that answers CSV) is read by pages instead.
struct CKANDump {
    /// Why the dump could not be read: the pages are read instead.
    struct NotOffered: Error {}

    let url: String
    let http: PlatformHTTP

    /// Writes every record into `spool`; `described` the fields the description names (the
    /// dump's must be among them). `NotOffered` when the answer is no JSON dump.
    func write(into spool: RecordSpool, described: Set<String>, limit: Int?, progress: (Int) -> Void) throws {
        var reader = DumpReader()
        var received = 0
        do {
            try http.stream(url, restart: {
                try spool.truncate()
                reader = DumpReader()
                received = 0
            }) { chunk in
                received += chunk.count
                try reader.feed(chunk.bindMemory(to: UInt8.self)) { line in
                    if limit.map({ spool.records < $0 }) ?? true { try spool.writeLine(line) }
                }
                progress(spool.records)
            }
        } catch let error as HTTPError {
            if case .status(let code, _, _, _) = error, [400, 403, 404, 405, 501].contains(code) { throw NotOffered() }
            throw error
        } catch is DumpReader.NotADump {
            throw NotOffered()
        } catch let error as DumpReader.Malformed {
            throw PlatformError(.ckan, url: url, .unreadable(error.why))
        }
        guard reader.isComplete else {
            if reader.names == nil { throw NotOffered() }
            throw PlatformError(.ckan, url: url, .cutShort("the dump ends inside its records, after \(received) bytes and "
                                                           + "\(spool.records) whole records"))
        }
        if let names = reader.names, let unknown = names.first(where: { !described.contains($0) }) {
            throw PlatformError(.ckan, url: url, .unexpected("a dump whose field \(JSONValue.quoted(unknown)) the DataStore does not describe"))
        }
        try spool.flush()
    }
}

/// The dump's bytes, chunk by chunk: its head (up to `"records": [`) gathered and read for the
/// field names, then each record array delimited across chunks and written as an object line.
private struct DumpReader {
    struct NotADump: Error {}
    struct Malformed: Error { let why: String }

    private enum Phase { case head, records, end }
    private var phase = Phase.head
    private var head: [UInt8] = []
    private var element: [UInt8] = []
    private var scanner = JSONValueScanner()
    private var inElement = false
    /// The fields' ids, in the records' order (known once the head is read).
    private(set) var names: [String]?
    private var quotedNames: [[UInt8]] = []
    private var line: [UInt8] = []
    var isComplete: Bool { phase == .end }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ write: ([UInt8]) throws -> Void) throws {
        guard phase == .head else {
            if phase == .records { try records(bytes, from: 0, write) }
            return
        }
        head.append(contentsOf: bytes)
        guard let start = try readHead() else {
            if head.count > 64 << 20 { throw NotADump() }
            return
        }
        let rest = Array(head[start...])
        head = []
        try rest.withUnsafeBufferPointer { try records($0, from: 0, write) }
    }

    /// Where the records begin in `head`, once `"records": [` is in it; the field names read.
    private mutating func readHead() throws -> Int? {
        guard let first = head.first(where: { !Self.isSpace($0) }) else { return nil }
        guard first == UInt8(ascii: "{") else { throw NotADump() }
        let key = Array("\"records\"".utf8)
        var search = 0
        while let found = Self.find(key, in: head, from: search) {
            var index = found + key.count
            while index < head.count, Self.isSpace(head[index]) { index += 1 }
            guard index < head.count else { return nil }
            if head[index] == UInt8(ascii: ":") {
                index += 1
                while index < head.count, Self.isSpace(head[index]) { index += 1 }
                guard index < head.count else { return nil }
                guard head[index] == UInt8(ascii: "[") else { throw Malformed(why: "the dump's \"records\" is no list") }
                try readNames(upTo: found)
                phase = .records
                return index + 1
            }
            search = found + 1
        }
        return nil
    }

    /// The field ids of the head's `"fields"` list.
    private mutating func readNames(upTo end: Int) throws {
        let key = Array("\"fields\"".utf8)
        guard let found = Self.find(key, in: head, from: 0), found < end,
              let open = head[(found + key.count)..<end].firstIndex(of: UInt8(ascii: "[")) else { throw NotADump() }
        var scanner = JSONValueScanner()
        let (close, complete) = head.withUnsafeBufferPointer { scanner.scan(UnsafeBufferPointer(rebasing: $0[open..<end]), from: 0) }
        guard complete, case .array(let fields)? = try? JSONValueParser.parse(Array(head[open..<(open + close)])) else {
            throw Malformed(why: "the dump's \"fields\" list cannot be read")
        }
        let ids = fields.compactMap { $0["id"]?.stringValue }
        guard ids.count == fields.count else { throw Malformed(why: "a field of the dump without its id") }
        names = ids
        quotedNames = ids.map { Array(JSONValue.quoted($0).utf8) }
    }

    /// Record arrays from `index`: each one whole (across chunks) becomes an object line.
    private mutating func records(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ write: ([UInt8]) throws -> Void) throws {
        var index = start
        while index < bytes.count, phase == .records {
            if inElement {
                let (end, complete) = scanner.scan(bytes, from: index)
                element.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
                guard complete else { return }
                inElement = false
                try write(objectLine())
                element.removeAll(keepingCapacity: true)
                continue
            }
            let byte = bytes[index]
            if Self.isSpace(byte) || byte == UInt8(ascii: ",") { index += 1; continue }
            if byte == UInt8(ascii: "]") { phase = .end; return }
            guard byte == UInt8(ascii: "[") else { throw Malformed(why: "a record of the dump that is no list") }
            scanner.reset()
            inElement = true
        }
    }

    /// The record array in `element` as `{"field": value, ...}` and a line end.
    private mutating func objectLine() throws -> [UInt8] {
        var cells: [RawCell] = []
        try element.withUnsafeBufferPointer { bytes in
            do {
                try RawArrayParser.elements(of: bytes, in: RawObjectParser.trimmed(bytes), into: &cells)
            } catch {
                throw Malformed(why: "a record of the dump that is no JSON list")
            }
            guard cells.count == quotedNames.count else {
                throw Malformed(why: "a record of \(cells.count) values where the dump has \(quotedNames.count) fields")
            }
            line.removeAll(keepingCapacity: true)
            line.append(UInt8(ascii: "{"))
            for (position, cell) in cells.enumerated() {
                if position > 0 { line.append(UInt8(ascii: ",")) }
                line.append(contentsOf: quotedNames[position])
                line.append(UInt8(ascii: ":"))
                let range = cell.kind == .string ? (cell.start - 1)..<(cell.end + 1) : cell.start..<cell.end
                let from = line.count
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
                // A line break in a nested value can only be white space between its tokens.
                if cell.kind == .array || cell.kind == .object {
                    for index in from..<line.count where line[index] == 0x0A || line[index] == 0x0D { line[index] = 0x20 }
                }
            }
            line.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        }
        return line
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
