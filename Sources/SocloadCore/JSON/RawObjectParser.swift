/// One member of a JSON object, as byte ranges: the key's content and the value.
package struct RawMember {
    package var keyStart: Int
    package var keyEnd: Int
    package var keyIsEscaped: Bool
    package var value: RawCell

    package init(keyStart: Int, keyEnd: Int, keyIsEscaped: Bool, value: RawCell) {
        self.keyStart = keyStart
        self.keyEnd = keyEnd
        self.keyIsEscaped = keyIsEscaped
        self.value = value
    }

    /// The member's key, unescaped.
    package func key(in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let range = keyStart..<keyEnd
        guard keyIsEscaped else { return String(decoding: bytes[range], as: UTF8.self) }
        var content: [UInt8] = []
        _ = JSONStringUnescaping.append(bytes, range, to: &content)
        return String(decoding: content, as: UTF8.self)
    }
}

/// Splits a JSON object's text into its members (a SODA row, or a location/url/point object
/// inside a cell), and checks nested values completely.
package enum RawObjectParser {
    /// `bytes` less the JSON white space around them (a record as a line or an element holds it).
    package static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// Parses the object starting at `start`, appending its members, and returns the index just
    /// past its `}`; nil when the object does not end before `limit` (it continues in the next
    /// chunk of input). Nested values are only delimited here (see `RawJSONValidator`).
    package static func object(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int,
                       into members: inout [RawMember]) throws(RawArrayParser.Malformed) -> Int? {
        var index = start
        guard index < limit, bytes[index] == UInt8(ascii: "{") else { throw RawArrayParser.Malformed() }
        index += 1
        RawArrayParser.skipWhitespace(bytes, &index, limit)
        guard index < limit else { return nil }
        if bytes[index] == UInt8(ascii: "}") { return index + 1 }
        while true {
            RawArrayParser.skipWhitespace(bytes, &index, limit)
            guard index < limit else { return nil }
            guard bytes[index] == UInt8(ascii: "\"") else { throw RawArrayParser.Malformed() }
            guard let key = try RawArrayParser.valueIfComplete(bytes, &index, limit) else { return nil }
            RawArrayParser.skipWhitespace(bytes, &index, limit)
            guard index < limit else { return nil }
            guard bytes[index] == UInt8(ascii: ":") else { throw RawArrayParser.Malformed() }
            index += 1
            RawArrayParser.skipWhitespace(bytes, &index, limit)
            guard index < limit else { return nil }
            guard let value = try RawArrayParser.valueIfComplete(bytes, &index, limit) else { return nil }
            members.append(RawMember(keyStart: key.start, keyEnd: key.end, keyIsEscaped: key.isEscaped, value: value))
            RawArrayParser.skipWhitespace(bytes, &index, limit)
            guard index < limit else { return nil }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            guard byte == UInt8(ascii: "}") else { throw RawArrayParser.Malformed() }
            return index
        }
    }

    /// The members of the object spanning `bytes[range]` (braces included), appended to `members`.
    package static func members(of bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>,
                        into members: inout [RawMember]) throws(RawArrayParser.Malformed) {
        var index = range.lowerBound
        let end = range.upperBound
        guard index < end, bytes[index] == UInt8(ascii: "{") else { throw RawArrayParser.Malformed() }
        index += 1
        RawArrayParser.skipWhitespace(bytes, &index, end)
        if index < end, bytes[index] == UInt8(ascii: "}") {
            guard index + 1 == end else { throw RawArrayParser.Malformed() }
            return
        }
        while true {
            RawArrayParser.skipWhitespace(bytes, &index, end)
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw RawArrayParser.Malformed() }
            let key = try RawArrayParser.value(bytes, &index, end)
            RawArrayParser.skipWhitespace(bytes, &index, end)
            guard index < end, bytes[index] == UInt8(ascii: ":") else { throw RawArrayParser.Malformed() }
            index += 1
            RawArrayParser.skipWhitespace(bytes, &index, end)
            guard index < end else { throw RawArrayParser.Malformed() }
            let value = try RawArrayParser.value(bytes, &index, end)
            members.append(RawMember(keyStart: key.start, keyEnd: key.end, keyIsEscaped: key.isEscaped, value: value))
            RawArrayParser.skipWhitespace(bytes, &index, end)
            guard index < end else { throw RawArrayParser.Malformed() }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            guard byte == UInt8(ascii: "}"), index == end else { throw RawArrayParser.Malformed() }
            return
        }
    }
}

/// Checks a whole JSON value, nested containers included, exactly as `JSONValueParser` accepts
/// it (same nesting limit), without building anything: a cell that is not stored is still JSON
/// and must be valid like any other.
package enum RawJSONValidator {
    /// `depth`: how many containers enclose the value (1 for a cell of a row).
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, depth: Int) -> Bool {
        nestingDepth(bytes, range, enclosedBy: depth) != nil
    }

    /// How deep the containers of the value nest (0 for a scalar, 1 for `{"a": 1}`, 2 for
    /// `{"a": [1]}`) when it is valid, else nil: the check and the measure in one pass.
    package static func nestingDepth(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, enclosedBy depth: Int) -> Int? {
        var index = range.lowerBound
        let end = range.upperBound
        var open: [UInt8] = [] // "[" or "{" for each container entered
        var deepest = 0
        var expectKey = false
        while true {
            // A value (or, in an object, a key and its colon first).
            RawArrayParser.skipWhitespace(bytes, &index, end)
            guard index < end else { return nil }
            if expectKey {
                guard bytes[index] == UInt8(ascii: "\""),
                      (try? RawArrayParser.value(bytes, &index, end)) != nil else { return nil }
                RawArrayParser.skipWhitespace(bytes, &index, end)
                guard index < end, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                RawArrayParser.skipWhitespace(bytes, &index, end)
                guard index < end else { return nil }
                expectKey = false
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                open.append(byte)
                deepest = max(deepest, open.count)
                guard depth + open.count <= JSONValueParser.maximumDepth else { return nil }
                index += 1
                RawArrayParser.skipWhitespace(bytes, &index, end)
                guard index < end else { return nil }
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
                if bytes[index] == close {
                    index += 1
                    open.removeLast()
                } else {
                    expectKey = byte == UInt8(ascii: "{")
                    continue
                }
            } else {
                guard (try? RawArrayParser.value(bytes, &index, end)) != nil else { return nil }
            }
            // After a value: a separator, closing brackets, or the end.
            while true {
                RawArrayParser.skipWhitespace(bytes, &index, end)
                guard let container = open.last else { return index == end ? deepest : nil }
                guard index < end else { return nil }
                let next = bytes[index]
                index += 1
                if next == UInt8(ascii: ",") {
                    expectKey = container == UInt8(ascii: "{")
                    break
                }
                let close = container == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
                guard next == close else { return nil }
                open.removeLast()
            }
        }
    }
}
