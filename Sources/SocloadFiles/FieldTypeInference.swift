import SocloadCore
import SocloadEngine
import SocloadTransport

/// Types the fields of plain JSON records from every value they hold (`socload load` without
/// `--metadata`): whole numbers that fit in 64 bits are `integer`, other numbers `double`
/// (`decimal` for whole numbers beyond 64 bits, to keep their digits), `true`/`false`
/// `boolean`, strings that are all ISO dates `date`, all ISO timestamps with a zone `timestamp`,
/// without one `floating_timestamp`; objects and arrays `json`; anything else, and any mix of
/// kinds, `text`. A string never becomes a number: `"09799"` stays text with its leading zero.
/// NULLs say nothing; a field that is always NULL is text.
package struct FieldTypeInference: Sendable {
    /// The kinds of value a field has held.
    package struct Kinds: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let integer = Kinds(rawValue: 1), double = Kinds(rawValue: 2), bigInteger = Kinds(rawValue: 4)
        package static let boolean = Kinds(rawValue: 8), date = Kinds(rawValue: 16), timestamp = Kinds(rawValue: 32)
        package static let floatingTimestamp = Kinds(rawValue: 64), text = Kinds(rawValue: 128), object = Kinds(rawValue: 256)
        package static let array = Kinds(rawValue: 512)
        /// A string that is a decimal number (`"47.51"`, `"-3"`): text, but worth a hint.
        package static let numericText = Kinds(rawValue: 1024)
    }

    /// The deepest nesting a record may have.
    package static let maximumDepth = 32

    /// Every field seen, in the order they first appeared.
    package private(set) var fields: [String] = []
    /// The kinds each field has held, by its place in `fields`.
    private var kindsByField: [Kinds] = []
    private var fieldIndexes: [String: Int] = [:]
    /// Per field that has held arrays of objects: what those objects held.
    private var elements: [String: FieldTypeInference] = [:]
    /// Fields that have held something else than an array of objects, an empty array or null.
    /// By field: true once it held a scalar or an array with something else than objects.
    private var notArraysOfObjects: [Bool] = []
    /// How many objects were observed.
    package private(set) var count = 0
    /// Field of arrays of references → the elements' reference field: only the elements that
    /// have one are observed (the others are not links, and their fields are no link's).
    package var referenceFields: [String: String] = [:]
    /// Every value is text that says what it is (CSV): a string of a number is a number,
    /// `true`/`false` a boolean, a US date (`01/15/2020 12:00:00 AM`) a date or timestamp, and an
    /// empty string says nothing, as a NULL. A whole number with a leading zero stays text.
    package var readsTextAsValues = false

    package init() {}

    /// Takes one record into account; a record that is not an object, or is nested too deep, is
    /// a `DocumentError` naming it.
    package mutating func observe(_ record: JSONValue, record number: Int, line: Int?) throws {
        guard case .object(let members) = record else {
            throw DocumentError.notAnObject(record: number, line: line, found: Self.noun(record))
        }
        if Self.depth(of: record) > Self.maximumDepth {
            throw DocumentError.tooDeep(record: number, line: line, limit: Self.maximumDepth)
        }
        observe(members)
    }

    private mutating func observe(_ members: [JSONMember]) {
        count += 1
        for member in members { observe(member.key, member.value) }
    }

    private mutating func observe(_ key: String, _ value: JSONValue) {
        note(key, Self.kind(of: value))
        switch value {
        case .null:
            break
        case .array(let items) where items.allSatisfy({ if case .object = $0 { return true } else { return false } }):
            let reference = referenceFields[key]
            for case .object(let itemMembers) in items {
                if let reference, (itemMembers.first { $0.key == reference }?.value ?? .null) == .null { continue }
                elements[key, default: FieldTypeInference()].observe(itemMembers)
            }
        default:
            notArraysOfObjects[index(of: key)] = true
        }
    }

    /// Records that `key` held a value of these kinds.
    private mutating func note(_ key: String, _ found: Kinds) {
        note(index(of: key), found)
    }

    private mutating func note(_ index: Int, _ found: Kinds) {
        kindsByField[index].formUnion(found)
    }

    /// The field's place in `fields`, which it takes the first time it is seen.
    private mutating func index(of key: String) -> Int {
        if let index = fieldIndexes[key] { return index }
        fields.append(key)
        kindsByField.append([])
        notArraysOfObjects.append(false)
        fieldIndexes[key] = fields.count - 1
        return fields.count - 1
    }

    /// Takes into account what `other` observed of the records after these (the second half of
    /// a document read by two threads): the same as observing them here, in order.
    package mutating func merge(_ other: FieldTypeInference) {
        count += other.count
        for (position, field) in other.fields.enumerated() {
            let index = index(of: field)
            kindsByField[index].formUnion(other.kindsByField[position])
            notArraysOfObjects[index] = notArraysOfObjects[index] || other.notArraysOfObjects[position]
            if let theirs = other.elements[field] { elements[field, default: FieldTypeInference()].merge(theirs) }
        }
    }

    /// Reused between records by `observe(text:...)`.
    private var scratch: [RawMember] = []
    /// Each member key met, by its bytes, to its field's place in `fields`.
    private var keyFields = MemberKeyTable()

    /// The same as `observe(_:record:line:)`, from the record's JSON text, without building
    /// its values: scalars are typed from their bytes, and only nested values are parsed. A
    /// record that is not a well-formed object is parsed whole, for the error that says why.
    package mutating func observe(text bytes: UnsafeBufferPointer<UInt8>, record number: Int, line: Int?) throws {
        var start = 0
        RawArrayParser.skipWhitespace(bytes, &start, bytes.count)
        var members = scratch
        members.removeAll(keepingCapacity: true)
        defer { scratch = members }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{"),
              var end = try? RawObjectParser.object(in: bytes, from: start, limit: bytes.count, into: &members) else {
            return try observeParsing(bytes, record: number, line: line)
        }
        RawArrayParser.skipWhitespace(bytes, &end, bytes.count)
        guard end == bytes.count else { return try observeParsing(bytes, record: number, line: line) }
        count += 1
        var keyFields = self.keyFields
        self.keyFields = MemberKeyTable()
        defer { self.keyFields = keyFields }
        for (position, member) in members.enumerated() {
            let field = keyFields.cell(forKeyAt: member.keyStart..<member.keyEnd, in: bytes, position: position) {
                index(of: member.key(in: bytes))
            } ?? index(of: member.key(in: bytes))
            let key = fields[field]
            let cell = member.value
            switch cell.kind {
            case .null:
                break
            case .true, .false:
                note(field, .boolean)
                notArraysOfObjects[field] = true
            case .number:
                note(field, Self.numberKind(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])))
                notArraysOfObjects[field] = true
            case .string where readsTextAsValues:
                if !cell.isEscaped, cell.end > cell.start {
                    note(field, Self.kind(ofTextValue: UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])))
                } else if cell.isEscaped {
                    note(field, .text)
                }
                notArraysOfObjects[field] = true
            case .string:
                let text = UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])
                let looksTimed = !cell.isEscaped && cell.count >= 10 && bytes[cell.start] &- UInt8(ascii: "0") < 10
                let time = looksTimed ? Self.timeKind(text) : nil
                note(field, time ?? (!cell.isEscaped && Self.isDecimalNumber(text) ? .numericText : .text))
                notArraysOfObjects[field] = true
            case .object:
                // An object is `json` whatever it holds: checked and measured, not built.
                guard let depth = RawJSONValidator.nestingDepth(bytes, cell.start..<cell.end, enclosedBy: 1) else {
                    count -= 1
                    return try observeParsing(bytes, record: number, line: line)
                }
                if 1 + depth > Self.maximumDepth {
                    throw DocumentError.tooDeep(record: number, line: line, limit: Self.maximumDepth)
                }
                note(field, .object)
                notArraysOfObjects[field] = true
            case .array:
                guard let value = JSONValueParser.value(of: UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])) else {
                    count -= 1
                    return try observeParsing(bytes, record: number, line: line)
                }
                if 1 + Self.depth(of: value) > Self.maximumDepth {
                    throw DocumentError.tooDeep(record: number, line: line, limit: Self.maximumDepth)
                }
                observe(key, value)
            }
        }
    }

    /// The record parsed whole: its error, or its values observed.
    private mutating func observeParsing(_ bytes: UnsafeBufferPointer<UInt8>, record number: Int, line: Int?) throws {
        let value: JSONValue
        do {
            value = try JSONValueParser.parse(bytes)
        } catch {
            throw DocumentError.badRecord(record: number, line: line, detail: "\(error)")
        }
        try observe(value, record: number, line: line)
    }

    /// A JSON number's kind from its text.
    package static func numberKind(_ text: UnsafeBufferPointer<UInt8>) -> Kinds {
        if text.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            return .double
        }
        if text.count <= 18 { return .integer }
        return Int64(String(decoding: text, as: UTF8.self)) == nil ? .bigInteger : .integer
    }

    /// The fields whose every value was an array of objects (or empty, or null), with at least
    /// one object in all: what becomes a child table; each with what its objects held.
    package var arraysOfObjects: [(field: String, elements: FieldTypeInference)] {
        fields.compactMap { field in
            guard let index = fieldIndexes[field], !notArraysOfObjects[index], let inference = elements[field], inference.count > 0 else { return nil }
            return (field, inference)
        }
    }

    /// The fields whose every non-null value was a decimal number written as a string: text
    /// here, numbers by the dataset's own description (SODA 2 sends numbers so).
    package var fieldsOfNumbersAsText: [String] {
        fields.indices.filter { kindsByField[$0] == .numericText }.map { fields[$0] }
    }

    /// True when every value the field held was null.
    package func isAlwaysNull(_ field: String) -> Bool {
        fieldIndexes[field].map { kindsByField[$0] == [] } ?? false
    }

    /// The type of each field.
    package var types: [String: LogicalType] {
        Dictionary(zip(fields, kindsByField.map(Self.type)), uniquingKeysWith: { first, _ in first })
    }

    package static func type(of kinds: Kinds) -> LogicalType {
        switch kinds {
        case []: return .text
        case .integer: return .integer
        case .boolean: return .boolean
        case .date: return .date
        case .timestamp: return .timestamp
        case .floatingTimestamp, [.date, .floatingTimestamp]: return .floatingTimestamp
        default:
            if kinds.isSubset(of: [.object, .array]) { return .json }
            if kinds.isSubset(of: [.integer, .double]) { return .double }
            if kinds.isSubset(of: [.integer, .double, .bigInteger]) { return .decimal }
            return .text
        }
    }

    package static func kind(of value: JSONValue) -> Kinds {
        switch value {
        case .null: return []
        case .bool: return .boolean
        case .number(let digits):
            if digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return .double }
            return Int64(digits) == nil ? .bigInteger : .integer
        case .string(let text):
            return timeKind(text) ?? (Array(text.utf8).withUnsafeBufferPointer(isDecimalNumber) ? .numericText : .text)
        case .object: return .object
        case .array: return .array
        }
    }

    package static func depth(of value: JSONValue) -> Int {
        switch value {
        case .object(let members): return 1 + (members.map { depth(of: $0.value) }.max() ?? 0)
        case .array(let elements): return 1 + (elements.map(depth).max() ?? 0)
        default: return 0
        }
    }

    package static func noun(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
