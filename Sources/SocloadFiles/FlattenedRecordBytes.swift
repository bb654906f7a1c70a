import SocloadCore
import SocloadEngine
import SocloadTransport

/// `load --flatten` on a record's bytes: the record's members with nested objects' members
/// brought up under their joined names (`JSONFlattening`'s rules and the document's `names`),
/// each value copied as the record has it. No tree is built; the converter reads the result as
/// it reads any record, and the child and glue rows are cut from it.
///
/// With `keepsPaths` (the inference pass, before the names are decided) a nested member is
/// written under its whole path instead, the keys joined by `JSONFlattening.pathSeparator`
/// (escaped as `\u0000`), so the inference reads the paths `JSONFlattening.flattenPaths` gives.
///
/// Each path met is remembered as a node (its path, and its name as written out), found again
/// by the raw bytes of its key (`MemberKeyTable`), so a record costs no String per member.
package struct FlattenedRecordBytes {
    /// The column name of each path (keys joined by `JSONFlattening.pathSeparator`).
    package let names: [String: String]
    package let keepsPaths: Bool
    private var output: [UInt8] = []
    private var members: [[RawMember]] = []

    /// A path met: the whole path, and `"name":` as written out for a value under it.
    private struct Node {
        var path: String
        var written: [UInt8]
    }
    /// Node 0 is the record itself.
    private var nodes = [Node(path: "", written: [])]
    /// Per node, its children by their key's bytes.
    private var children = [MemberKeyTable()]
    /// Past this many paths the nodes are forgotten (a document of endless distinct keys).
    package static let maximumNodes = 8_192

    /// Objects nested deeper than the JSON parser takes (`JSONValueParser.maximumDepth`).
    package struct TooDeep: Error {}

    package init(names: [String: String], keepsPaths: Bool = false) {
        self.names = names
        self.keepsPaths = keepsPaths
    }

    /// Calls `body` with the flattened record. Throws `RawArrayParser.Malformed` when the bytes
    /// are not one object.
    package mutating func flatten<Result>(_ record: UnsafeBufferPointer<UInt8>,
                                  _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        if nodes.count > Self.maximumNodes {
            nodes.removeSubrange(1...)
            children = [MemberKeyTable()]
        }
        output.removeAll(keepingCapacity: true)
        output.append(UInt8(ascii: "{"))
        try append(record, RawObjectParser.trimmed(record), node: 0, depth: 0)
        output.append(UInt8(ascii: "}"))
        return try output.withUnsafeBufferPointer(body)
    }

    /// Appends the members of the object at `range`, those of a nested non-empty object in its place.
    private mutating func append(_ record: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, node: Int, depth: Int) throws {
        guard depth < JSONValueParser.maximumDepth else { throw TooDeep() }
        if members.count <= depth { members.append([]) }
        members[depth].removeAll(keepingCapacity: true)
        try RawObjectParser.members(of: record, in: range, into: &members[depth])
        for index in members[depth].indices {
            let member = members[depth][index]
            let value = member.value
            if value.kind == .object, !Self.isEmptyObject(record, value) {
                try append(record, value.start..<value.end, node: child(of: node, member, at: index, in: record), depth: depth + 1)
                continue
            }
            if output.count > 1 { output.append(UInt8(ascii: ",")) }
            if node == 0, !member.keyIsEscaped {
                // A top-level key keeps its name (`JSONFlattening.columnNames`): copied with its quotes.
                output.append(contentsOf: record[(member.keyStart - 1)..<(member.keyEnd + 1)])
                output.append(UInt8(ascii: ":"))
            } else {
                output.append(contentsOf: nodes[child(of: node, member, at: index, in: record)].written)
            }
            // A string's quotes are just outside its content.
            let bytes = value.kind == .string ? record[(value.start - 1)..<(value.end + 1)] : record[value.start..<value.end]
            output.append(contentsOf: bytes)
        }
    }

    /// The node of `member` under `parent`, made the first time its key is met there.
    private mutating func child(of parent: Int, _ member: RawMember, at position: Int, in record: UnsafeBufferPointer<UInt8>) -> Int {
        let next = nodes.count
        let parentPath = parent == 0 ? nil : nodes[parent].path
        let names = self.names
        let keepsPaths = self.keepsPaths
        var made: Node?
        let found = children[parent].cell(forKeyAt: member.keyStart..<member.keyEnd, in: record, position: position) {
            let key = member.key(in: record)
            let path = parentPath.map { $0 + JSONFlattening.pathSeparator + key } ?? key
            let name = keepsPaths ? path : names[path] ?? path.replacingOccurrences(of: JSONFlattening.pathSeparator, with: "_")
            made = Node(path: path, written: Array(JSONValue.quoted(name).utf8) + [UInt8(ascii: ":")])
            return next
        } ?? next
        if let made {
            nodes.append(made)
            children.append(MemberKeyTable())
            return nodes.count - 1
        }
        return found
    }

    private static func isEmptyObject(_ record: UnsafeBufferPointer<UInt8>, _ value: RawCell) -> Bool {
        RawObjectParser.trimmed(UnsafeBufferPointer(rebasing: record[(value.start + 1)..<(value.end - 1)])).isEmpty
    }
}
