import Foundation
import SocloadCore

/// A platform's answer read in place: the body checked as JSON once, then only the members on
/// the way to the records delimited, and each record copied or rewritten member by member into
/// the spool. A page is never built as values (a page of 32,000 rows would cost more to build
/// than to load).
struct RawAnswer {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The top-level value (white space around it left out).
    let root: Range<Int>

    /// The top-level object's members, delimited once (nil: the answer is no object).
    let rootMembers: [RawMember]?

    /// The answer in `bytes`, or nil when they are not one JSON value. `delimitingRoot`: the top
    /// object's members are found at once (else `rootMembers(streaming:)` finds them, handing
    /// one array's objects over as it passes them: a page's rows read in one pass).
    init?(_ bytes: UnsafeBufferPointer<UInt8>, delimitingRoot: Bool = true) {
        self.bytes = bytes
        root = RawObjectParser.trimmed(bytes)
        guard RawJSONValidator.isValid(bytes, root, depth: 0) else { return nil }
        var members: [RawMember] = []
        let isObject = delimitingRoot && !root.isEmpty && bytes[root.lowerBound] == UInt8(ascii: "{")
            && (try? RawObjectParser.members(of: bytes, in: root, into: &members)) != nil
        rootMembers = isObject ? members : nil
    }

    /// The top object's members but `key`, whose array's objects go to `element` one by one
    /// (their members, their cell) as the pass meets them; nil when the answer is no object.
    /// The array's member is listed too, its value the whole array. (The answer is valid JSON:
    /// checked when it was read.)
    func rootMembers(streaming key: String, element: (_ members: [RawMember], _ object: RawCell) throws -> Void) rethrows -> [RawMember]? {
        let end = root.upperBound
        var index = root.lowerBound
        guard index < end, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var members: [RawMember] = []
        var elementMembers: [RawMember] = []
        let keyBytes = Array(key.utf8)
        RawArrayParser.skipWhitespace(bytes, &index, end)
        while index < end, bytes[index] == UInt8(ascii: "\"") {
            guard let name = try? RawArrayParser.value(bytes, &index, end) else { return nil }
            RawArrayParser.skipWhitespace(bytes, &index, end)
            index += 1 // the colon
            RawArrayParser.skipWhitespace(bytes, &index, end)
            let valueStart = index
            if !name.isEscaped, bytes[name.start..<name.end].elementsEqual(keyBytes), bytes[index] == UInt8(ascii: "[") {
                index += 1
                RawArrayParser.skipWhitespace(bytes, &index, end)
                while index < end, bytes[index] != UInt8(ascii: "]") {
                    let start = index
                    if bytes[index] == UInt8(ascii: "{") {
                        elementMembers.removeAll(keepingCapacity: true)
                        guard let after = try? RawObjectParser.object(in: bytes, from: index, limit: end, into: &elementMembers) else { return nil }
                        index = after
                        try element(elementMembers, RawCell(kind: .object, start: start, end: index, isEscaped: false, isNonASCII: false))
                    } else {
                        guard (try? RawArrayParser.value(bytes, &index, end)) != nil else { return nil }
                    }
                    RawArrayParser.skipWhitespace(bytes, &index, end)
                    if index < end, bytes[index] == UInt8(ascii: ",") { index += 1 }
                    RawArrayParser.skipWhitespace(bytes, &index, end)
                }
                index += 1
                members.append(RawMember(keyStart: name.start, keyEnd: name.end, keyIsEscaped: false,
                                         value: RawCell(kind: .array, start: valueStart, end: index, isEscaped: false, isNonASCII: false)))
            } else {
                guard let value = try? RawArrayParser.value(bytes, &index, end) else { return nil }
                members.append(RawMember(keyStart: name.start, keyEnd: name.end, keyIsEscaped: name.isEscaped, value: value))
            }
            RawArrayParser.skipWhitespace(bytes, &index, end)
            if index < end, bytes[index] == UInt8(ascii: ",") { index += 1 }
            RawArrayParser.skipWhitespace(bytes, &index, end)
        }
        return members
    }

    /// The members of the object spanning `range`; nil when it is no object.
    func members(of range: Range<Int>) -> [RawMember]? {
        guard !range.isEmpty, bytes[range.lowerBound] == UInt8(ascii: "{") else { return nil }
        var members: [RawMember] = []
        guard (try? RawObjectParser.members(of: bytes, in: range, into: &members)) != nil else { return nil }
        return members
    }

    /// The value at `path` of object keys from the top (nil when a step is missing).
    func value(at path: [String], in top: [RawMember]? = nil) -> RawCell? {
        guard let first = path.first, var found = (top ?? rootMembers)?.last(where: { $0.key(in: bytes) == first })?.value else { return nil }
        for key in path.dropFirst() {
            guard let member = member(key, of: found) else { return nil }
            found = member
        }
        return found
    }

    /// The elements of the array `cell` is.
    func elements(of cell: RawCell) -> [RawCell]? {
        guard cell.kind == .array else { return nil }
        var cells: [RawCell] = []
        guard (try? RawArrayParser.elements(of: bytes, in: cell.start..<cell.end, into: &cells)) != nil else { return nil }
        return cells
    }

    /// The value's bytes as JSON text (a string with its quotes).
    func text(of cell: RawCell) -> UnsafeBufferPointer<UInt8> {
        cell.kind == .string ? UnsafeBufferPointer(rebasing: bytes[(cell.start - 1)..<(cell.end + 1)])
            : UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])
    }

    /// A number's or a string's content as a whole number.
    func integer(_ cell: RawCell?) -> Int? {
        guard let cell, cell.kind == .number || cell.kind == .string else { return nil }
        return Int(String(decoding: bytes[cell.start..<cell.end], as: UTF8.self))
    }

    /// The member `key` of the object `cell` is.
    func member(_ key: String, of cell: RawCell) -> RawCell? {
        guard cell.kind == .object else { return nil }
        return members(of: cell.start..<cell.end)?.last { $0.key(in: bytes) == key }?.value
    }

    /// The value as a built JSON value (a geometry, an error object: small parts of a page).
    func value(of cell: RawCell) -> JSONValue? {
        try? JSONValueParser.parse(text(of: cell))
    }
}

/// One record as a line of the spool, written from an answer's bytes: members copied as they
/// came unless `rewrite` gives their new value's JSON text (nil: as it came), then `extra`.
struct RawRecordLine {
    private(set) var line: [UInt8] = []
    /// The record's members, the array kept from record to record.
    private var members: [RawMember] = []

    init() { line.reserveCapacity(4096) }

    mutating func write(_ answer: RawAnswer, object: RawCell, extra: [(String, [UInt8])] = [],
                        rewrite: (_ key: UnsafeBufferPointer<UInt8>, _ value: RawCell, _ line: inout [UInt8]) -> Bool = { _, _, _ in false })
        -> Bool {
        members.removeAll(keepingCapacity: true)
        guard object.kind == .object,
              (try? RawObjectParser.members(of: answer.bytes, in: object.start..<object.end, into: &members)) != nil else { return false }
        line.removeAll(keepingCapacity: true)
        line.append(UInt8(ascii: "{"))
        for member in members {
            if line.count > 1 { line.append(UInt8(ascii: ",")) }
            let key = UnsafeBufferPointer(rebasing: answer.bytes[(member.keyStart - 1)..<(member.keyEnd + 1)])
            line.append(contentsOf: key)
            line.append(UInt8(ascii: ":"))
            if !rewrite(UnsafeBufferPointer(rebasing: key.dropFirst().dropLast()), member.value, &line) {
                appendFlat(answer.text(of: member.value))
            }
        }
        for (key, value) in extra {
            if line.count > 1 { line.append(UInt8(ascii: ",")) }
            line.append(contentsOf: JSONValue.quoted(key).utf8)
            line.append(UInt8(ascii: ":"))
            line.append(contentsOf: value)
        }
        line.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        return true
    }

    /// JSON text on one line: a line break in it can only be white space between tokens.
    private mutating func appendFlat(_ text: UnsafeBufferPointer<UInt8>) {
        let start = line.count
        line.append(contentsOf: text)
        if text.contains(0x0A) || text.contains(0x0D) {
            for index in start..<line.count where line[index] == 0x0A || line[index] == 0x0D { line[index] = 0x20 }
        }
    }

    /// A whole record copied on one line.
    mutating func copy(_ answer: RawAnswer, object: RawCell) {
        line.removeAll(keepingCapacity: true)
        appendFlat(answer.text(of: object))
        line.append(0x0A)
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The same bytes as `other` (a key against a field's name, without making strings).
    func isSame(as other: [UInt8]) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let mine = baseAddress else { return true }
        return other.withUnsafeBufferPointer { theirs in theirs.baseAddress.map { memcmp(mine, $0, count) == 0 } ?? false }
    }
}
