import SocloadCore

/// The rows of a record's child and glue tables, cut from the record's bytes: for each element
/// of an array of objects, an object of the parent's key values, the element's position and the
/// element's own members, written from the byte ranges of the record (no tree is built, and
/// nothing is parsed, escaped or printed again: the converter reads the row once).
package struct NestedElementRows {
    private var members: [RawMember] = []
    private var elements: [RawCell] = []
    private var elementMembers: [RawMember] = []
    private var row: [UInt8] = []

    package init() {}

    /// Calls `body` with each element row of `nesting`'s array in `record` (an object, already
    /// checked by the converter). `glueID`: for a glue table, the field an element must have
    /// set to be a link; an element without it is counted in `skipped` and has no row.
    package mutating func forEachRow(of nesting: PlanNesting, in record: UnsafeBufferPointer<UInt8>, glueID: String?,
                             skipped: inout Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        members.removeAll(keepingCapacity: true)
        try RawObjectParser.members(of: record, in: RawObjectParser.trimmed(record), into: &members)
        guard let array = members.first(where: { $0.key(in: record) == nesting.arrayField })?.value,
              array.kind == .array else { return }
        elements.removeAll(keepingCapacity: true)
        try RawArrayParser.elements(of: record, in: array.start..<array.end, into: &elements)
        let parentValues = nesting.parentKeyFields.map { field in
            members.first { $0.key(in: record) == field }.map { Self.text(of: $0.value, in: record) } ?? ArraySlice("null".utf8)
        }
        var own = Set(nesting.parentKeyFields.indices.map(PlanNesting.parentKeyField))
        if nesting.numbersElements { own.insert(PlanNesting.positionField) }
        for (position, element) in elements.enumerated() where element.kind == .object {
            elementMembers.removeAll(keepingCapacity: true)
            try RawObjectParser.members(of: record, in: element.start..<element.end, into: &elementMembers)
            if let glueID {
                let id = elementMembers.first { $0.key(in: record) == glueID }?.value
                guard let id, id.kind != .null else {
                    skipped += 1
                    continue
                }
            }
            row.removeAll(keepingCapacity: true)
            row.append(UInt8(ascii: "{"))
            for (index, value) in parentValues.enumerated() {
                if index > 0 { row.append(UInt8(ascii: ",")) }
                row.append(contentsOf: JSONValue.quoted(PlanNesting.parentKeyField(index)).utf8)
                row.append(UInt8(ascii: ":"))
                row.append(contentsOf: value)
            }
            if nesting.numbersElements {
                if !parentValues.isEmpty { row.append(UInt8(ascii: ",")) }
                row.append(contentsOf: (JSONValue.quoted(PlanNesting.positionField) + ":" + String(position + 1)).utf8)
            }
            for member in elementMembers where !own.contains(member.key(in: record)) {
                if row.count > 1 { row.append(UInt8(ascii: ",")) }
                // The key's quotes are just outside its content.
                row.append(contentsOf: record[(member.keyStart - 1)..<(member.keyEnd + 1)])
                row.append(UInt8(ascii: ":"))
                row.append(contentsOf: Self.text(of: member.value, in: record))
            }
            row.append(UInt8(ascii: "}"))
            try row.withUnsafeBufferPointer(body)
        }
    }



    /// A value's JSON text, as the record has it (a string with its quotes).
    private static func text(of cell: RawCell, in bytes: UnsafeBufferPointer<UInt8>) -> ArraySlice<UInt8> {
        cell.kind == .string ? ArraySlice(bytes[(cell.start - 1)..<(cell.end + 1)]) : ArraySlice(bytes[cell.start..<cell.end])
    }
}
