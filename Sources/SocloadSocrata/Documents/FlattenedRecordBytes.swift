import SocloadCore

/// `load --flatten` on a record's bytes: the record's members with nested objects' members
/// brought up under their joined names (`JSONFlattening`'s rules and the document's `names`),
/// each value copied as the record has it. No tree is built; the converter reads the result as
/// it reads any record, and the child and glue rows are cut from it.
struct FlattenedRecordBytes {
    /// The column name of each path (keys joined by `JSONFlattening.pathSeparator`).
    let names: [String: String]
    private var output: [UInt8] = []
    private var members: [[RawMember]] = []

    init(names: [String: String]) {
        self.names = names
    }

    /// Calls `body` with the flattened record. Throws `RawArrayParser.Malformed` when the bytes
    /// are not one object.
    mutating func flatten<Result>(_ record: UnsafeBufferPointer<UInt8>,
                                  _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        output.removeAll(keepingCapacity: true)
        output.append(UInt8(ascii: "{"))
        try append(record, RawObjectParser.trimmed(record), prefix: nil, depth: 0)
        output.append(UInt8(ascii: "}"))
        return try output.withUnsafeBufferPointer(body)
    }

    /// Appends the members of the object at `range`, those of a nested non-empty object in its place.
    private mutating func append(_ record: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, prefix: String?, depth: Int) throws {
        if members.count <= depth { members.append([]) }
        members[depth].removeAll(keepingCapacity: true)
        try RawObjectParser.members(of: record, in: range, into: &members[depth])
        for index in members[depth].indices {
            let member = members[depth][index]
            let key = member.key(in: record)
            let path = prefix.map { $0 + JSONFlattening.pathSeparator + key } ?? key
            let value = member.value
            if value.kind == .object, !Self.isEmptyObject(record, value) {
                try append(record, value.start..<value.end, prefix: path, depth: depth + 1)
                continue
            }
            if output.count > 1 { output.append(UInt8(ascii: ",")) }
            if prefix == nil, names[path] == nil || names[path] == path, !member.keyIsEscaped {
                // A top-level key keeps its name: copied with its quotes.
                output.append(contentsOf: record[(member.keyStart - 1)..<(member.keyEnd + 1)])
            } else {
                let name = names[path] ?? path.replacingOccurrences(of: JSONFlattening.pathSeparator, with: "_")
                output.append(contentsOf: JSONValue.quoted(name).utf8)
            }
            output.append(UInt8(ascii: ":"))
            // A string's quotes are just outside its content.
            let bytes = value.kind == .string ? record[(value.start - 1)..<(value.end + 1)] : record[value.start..<value.end]
            output.append(contentsOf: bytes)
        }
    }

    private static func isEmptyObject(_ record: UnsafeBufferPointer<UInt8>, _ value: RawCell) -> Bool {
        RawObjectParser.trimmed(UnsafeBufferPointer(rebasing: record[(value.start + 1)..<(value.end - 1)])).isEmpty
    }


}
