/// Parses one complete JSON value from UTF-8 bytes: a dataset row, or a response body.
///
/// Nesting is limited (`maximumDepth`) so hostile input cannot exhaust the stack, and text must
/// be valid UTF-8.
public struct JSONValueParser {
    package static let maximumDepth = 512

    package enum Failure: Error, Equatable, CustomStringConvertible {
        case unexpected(offset: Int, found: String)
        case unexpectedEnd
        case tooDeep
        case invalidUTF8(offset: Int)
        case invalidEscape(offset: Int)

        /// In words, as a rows.json row's error reads, with the byte counted from 1 in the value.
        package var description: String { description(base: 1) }

        /// In words, with the byte counted from `base` (the value's offset in a document).
        package func description(base: Int) -> String {
            switch self {
            case let .unexpected(offset, found): return "malformed JSON: unexpected \(found) at byte \(base + offset)"
            case .unexpectedEnd: return "malformed JSON: the row ends early"
            case .tooDeep: return "values nested more than \(JSONValueParser.maximumDepth) levels deep"
            case let .invalidUTF8(offset): return "invalid UTF-8 in a string at byte \(base + offset)"
            case let .invalidEscape(offset): return "invalid escape sequence at byte \(base + offset)"
            }
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The value the bytes hold; only white space may follow it.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var parser = JSONValueParser(bytes)
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.unexpected() }
        return value
    }

    /// True when the bytes are one complete JSON value (what a JSON column of a database that
    /// checks JSON, such as PostgreSQL's jsonb, accepts as is).
    public static func isJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Checked in place, without building the value.
        RawJSONValidator.isValid(bytes, 0..<bytes.count, depth: 0)
    }

    /// The JSON value the bytes hold, or nil when they are not one complete JSON value.
    public static func value(of bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        try? parse(bytes)
    }

    package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in Result { () throws(Failure) in try parse(buffer) } }
        return try result.get()
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func unexpected() -> Failure {
        guard position < bytes.count else { return .unexpectedEnd }
        return .unexpected(offset: position, found: Self.describe(byte: bytes[position]))
    }

    /// `'x'` for a printable ASCII byte, `byte 0x1f` for any other: how error messages show bytes.
    package static func describe(byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func parseValue() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw .unexpectedEnd }
        switch bytes[position] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw unexpected()
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw .unexpectedEnd }
        let start = literal.utf8Start
        for index in 0..<count where bytes[position + index] != start[index] {
            position += index
            throw unexpected()
        }
        position += count
    }

    private mutating func parseNumber() throws(Failure) -> String {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        guard position > integerStart else { throw unexpected() }
        // RFC 8259: no leading zero (`01`, `-007`).
        if bytes[integerStart] == UInt8(ascii: "0"), position > integerStart + 1 {
            position = integerStart + 1
            throw unexpected()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            guard position > fractionStart else { throw unexpected() }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            let exponentStart = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            guard position > exponentStart else { throw unexpected() }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw .unexpectedEnd }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            } else {
                throw unexpected()
            }
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw .unexpectedEnd }
            guard bytes[position] == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count else { throw .unexpectedEnd }
            guard bytes[position] == UInt8(ascii: ":") else { throw unexpected() }
            position += 1
            members.append(JSONMember(key: key, value: try parseValue()))
            skipWhitespace()
            guard position < bytes.count else { throw .unexpectedEnd }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            } else {
                throw unexpected()
            }
        }
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > Self.maximumDepth { throw .tooDeep }
    }

    /// A string literal starting at the opening quote; escapes decoded, UTF-8 validated.
    private mutating func parseString() throws(Failure) -> String {
        position += 1
        let start = position
        var nonASCII: UInt8 = 0
        // Fast path: no escapes, so the bytes between the quotes are the string.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if nonASCII & 0x80 == 0 { return String(decoding: slice, as: UTF8.self) } // ASCII is valid UTF-8
                guard let string = String(validating: slice, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
                return string
            }
            nonASCII |= byte
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw unexpected() }
            position += 1
        }
        guard position < bytes.count else { throw .unexpectedEnd }
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw .unexpectedEnd }
                let escape = bytes[position]
                position += 1
                if let byte = JSONStringUnescaping.simpleEscape(escape) {
                    decoded.append(byte)
                } else if escape == UInt8(ascii: "u") {
                    try appendUnicodeEscape(to: &decoded)
                } else {
                    throw .invalidEscape(offset: position - 2)
                }
            case 0..<0x20:
                throw unexpected()
            default:
                decoded.append(byte)
                position += 1
            }
        }
        throw .unexpectedEnd
    }

    private mutating func appendUnicodeEscape(to decoded: inout [UInt8]) throws(Failure) {
        var value = try hex4()
        if (0xD800...0xDBFF).contains(value) {
            // A high surrogate must be followed by \u and a low surrogate.
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                  bytes[position + 1] == UInt8(ascii: "u") else { throw .invalidEscape(offset: position) }
            position += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw .invalidEscape(offset: position - 6) }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(value) {
            throw .invalidEscape(offset: position - 6)
        }
        guard let scalar = Unicode.Scalar(value) else { throw .invalidEscape(offset: position - 6) }
        decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw .unexpectedEnd }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidEscape(offset: position)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
