/// One JSON value of a row, as a byte range of the row's text: no String, no allocation.
/// The converter reads rows into these and converts straight from the bytes.
package struct RawCell {
    package enum Kind: UInt8 {
        case null, `true`, `false`, number, string, array, object

        /// Compared by raw value, inlined where the converter (another module) compares kinds
        /// for every cell.
        @inlinable package static func == (left: Kind, right: Kind) -> Bool { left.rawValue == right.rawValue }
        @inlinable package static func != (left: Kind, right: Kind) -> Bool { left.rawValue != right.rawValue }
    }

    package var kind: Kind
    /// For strings, the content between the quotes; for the others, the whole value.
    package var start: Int
    package var end: Int
    /// A string that holds backslash escapes.
    package var isEscaped: Bool
    /// A string with bytes above 0x7F (validated as UTF-8 when it was read).
    package var isNonASCII: Bool

    package init(kind: Kind, start: Int, end: Int, isEscaped: Bool, isNonASCII: Bool) {
        self.kind = kind
        self.start = start
        self.end = end
        self.isEscaped = isEscaped
        self.isNonASCII = isNonASCII
    }

    package var count: Int { end - start }
}

/// Splits a JSON array's text into its elements, skipping nested values with a depth counter (no
/// recursion, so deep nesting costs nothing). Structure inside nested arrays and objects is not
/// checked here: values that need it go through `JSONValueParser`.
package enum RawArrayParser {
    package struct Malformed: Error {}

    /// Parses the array starting at `start`, appending its elements to `cells`, and returns the
    /// index just past its `]`; nil when the array does not end before `limit` (it continues in
    /// the next chunk of input).
    package static func array(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int,
                      into cells: inout [RawCell]) throws(Malformed) -> Int? {
        var index = start
        guard index < limit, bytes[index] == UInt8(ascii: "[") else { throw Malformed() }
        index += 1
        skipWhitespace(bytes, &index, limit)
        guard index < limit else { return nil }
        if bytes[index] == UInt8(ascii: "]") { return index + 1 }
        while true {
            skipWhitespace(bytes, &index, limit)
            guard index < limit else { return nil }
            guard let cell = try valueIfComplete(bytes, &index, limit) else { return nil }
            cells.append(cell)
            skipWhitespace(bytes, &index, limit)
            guard index < limit else { return nil }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            guard byte == UInt8(ascii: "]") else { throw Malformed() }
            return index
        }
    }

    /// `value`, or nil when the value runs into `limit` (a number touching it may be cut too).
    package static func valueIfComplete(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int,
                                        _ limit: Int) throws(Malformed) -> RawCell? {
        let start = index
        do {
            let cell = try value(bytes, &index, limit)
            if cell.kind == .number, index >= limit { return nil }
            return cell
        } catch {
            // Ran out of bytes rather than met bad ones? Then the row continues in the next chunk.
            if Self.runsToLimit(bytes, from: start, limit) { return nil }
            throw error
        }
    }

    /// True when the value starting at `start` is still open at `limit`.
    private static func runsToLimit(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ limit: Int) -> Bool {
        var scanner = JSONValueScanner()
        return !scanner.scan(UnsafeBufferPointer(rebasing: bytes[start..<limit]), from: 0).complete
    }

    /// The elements of the array spanning `bytes[range]` (brackets included), appended to `cells`.
    package static func elements(of bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>,
                         into cells: inout [RawCell]) throws(Malformed) {
        var index = range.lowerBound
        let end = range.upperBound
        guard index < end, bytes[index] == UInt8(ascii: "[") else { throw Malformed() }
        index += 1
        skipWhitespace(bytes, &index, end)
        if index < end, bytes[index] == UInt8(ascii: "]") {
            guard index + 1 == end else { throw Malformed() }
            return
        }
        while true {
            skipWhitespace(bytes, &index, end)
            guard index < end else { throw Malformed() }
            cells.append(try value(bytes, &index, end))
            skipWhitespace(bytes, &index, end)
            guard index < end else { throw Malformed() }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            guard byte == UInt8(ascii: "]"), index == end else { throw Malformed() }
            return
        }
    }

    @inline(__always)
    package static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) {
        while index < end {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
    }

    /// The value starting at `index` (containers are only delimited here: see `validate`).
    package static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) throws(Malformed) -> RawCell {
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "\""):
            index += 1
            let contentStart = index
            var escaped = false
            var seen: UInt64 = 0
            while index < end {
                ByteScanning.skipStringWords(bytes, &index, end, seen: &seen)
                guard index < end else { break }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let cell = RawCell(kind: .string, start: contentStart, end: index, isEscaped: escaped,
                                       isNonASCII: seen & 0x8080_8080_8080_8080 != 0)
                    index += 1
                    if cell.isNonASCII, !UTF8Validation.isValid(bytes, cell.start..<cell.end) { throw Malformed() }
                    if escaped, !JSONStringUnescaping.isValid(bytes, cell.start..<cell.end) { throw Malformed() }
                    return cell
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 2
                    continue
                }
                if byte < 0x20 { throw Malformed() }
                seen |= UInt64(byte)
                index += 1
            }
            throw Malformed()
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            var depth = 0
            var inString = false
            while index < end {
                let byte = bytes[index]
                index += 1
                if inString {
                    if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 {
                        return RawCell(kind: bytes[start] == UInt8(ascii: "[") ? .array : .object, start: start, end: index,
                                       isEscaped: false, isNonASCII: false)
                    }
                default: break
                }
            }
            throw Malformed()
        case UInt8(ascii: "n"):
            try literal(bytes, &index, end, "null")
            return RawCell(kind: .null, start: start, end: index, isEscaped: false, isNonASCII: false)
        case UInt8(ascii: "t"):
            try literal(bytes, &index, end, "true")
            return RawCell(kind: .true, start: start, end: index, isEscaped: false, isNonASCII: false)
        case UInt8(ascii: "f"):
            try literal(bytes, &index, end, "false")
            return RawCell(kind: .false, start: start, end: index, isEscaped: false, isNonASCII: false)
        default:
            while index < end {
                let byte = bytes[index]
                let isNumberByte = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
                guard isNumberByte else { break }
                index += 1
            }
            guard index > start, isJSONNumber(bytes, start..<index) else { throw Malformed() }
            return RawCell(kind: .number, start: start, end: index, isEscaped: false, isNonASCII: false)
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    package static func isJSONNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        let end = range.upperBound
        func digits() -> Int {
            let start = index
            while index < end, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index - start
        }
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end else { return false }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else if digits() == 0 { return false }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == end
    }

    private static func literal(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int,
                                _ word: StaticString) throws(Malformed) {
        let count = word.utf8CodeUnitCount
        guard index + count <= end else { throw Malformed() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw Malformed() }
        index += count
    }
}

/// UTF-8 well-formedness (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
package enum UTF8Validation {
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return false
            }
            guard index + length <= end else { return false }
            let second = bytes[index + 1]
            guard second >= lower, second <= upper else { return false }
            for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}
