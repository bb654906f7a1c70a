/// Decodes a JSON string's escapes (the bytes between the quotes) straight into a byte buffer.
package enum JSONStringUnescaping {
    /// The byte a one-letter escape stands for (`\n` → LF, `\"` → `"`); nil for `u` and for
    /// letters JSON does not define.
    @inline(__always)
    package static func simpleEscape(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return letter
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        default: return nil
        }
    }

    /// Appends the decoded content to `output`; false when an escape is malformed (a lone
    /// surrogate, a bad hex digit, an unknown escape), as JSON forbids.
    package static func append(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8]) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            // Copy the run up to the next escape in one go.
            var runEnd = index
            while runEnd < range.upperBound, bytes[runEnd] != UInt8(ascii: "\\") { runEnd += 1 }
            if runEnd > index {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<runEnd]))
                index = runEnd
                continue
            }
            guard index + 1 < range.upperBound else { return false }
            let escape = bytes[index + 1]
            index += 2
            if let byte = simpleEscape(escape) {
                output.append(byte)
                continue
            }
            guard escape == UInt8(ascii: "u"), let scalar = unicodeEscape(bytes, &index, range.upperBound) else { return false }
            output.append(contentsOf: String(Character(scalar)).utf8)
        }
        return true
    }

    /// Decodes the content in `range` where it lies, from `range.lowerBound` on (a decoded string
    /// is never longer than its literal); the decoded length, or nil when an escape is malformed.
    package static func decodeInPlace(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        let source = UnsafeBufferPointer(bytes)
        var index = range.lowerBound
        var written = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                bytes[written] = byte
                written += 1
                index += 1
                continue
            }
            guard index + 1 < range.upperBound else { return nil }
            let escape = bytes[index + 1]
            index += 2
            if let decoded = simpleEscape(escape) {
                bytes[written] = decoded
                written += 1
                continue
            }
            guard escape == UInt8(ascii: "u"), let scalar = unicodeEscape(source, &index, range.upperBound) else { return nil }
            for unit in scalar.utf8 {
                bytes[written] = unit
                written += 1
            }
        }
        return written - range.lowerBound
    }

    /// True when every escape in the string's content is well formed (what `append` accepts),
    /// checked without decoding anything.
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            guard bytes[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            guard index + 1 < end else { return false }
            let escape = bytes[index + 1]
            index += 2
            if simpleEscape(escape) != nil { continue }
            guard escape == UInt8(ascii: "u"), unicodeEscape(bytes, &index, end) != nil else { return false }
        }
        return true
    }

    /// The scalar of a `\u` escape whose four hex digits start at `index`, a surrogate pair
    /// taking the `\uXXXX` that follows too; `index` is moved past it. nil when malformed (a bad
    /// digit, a lone or reversed surrogate).
    private static func unicodeEscape(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) -> Unicode.Scalar? {
        guard var scalar = hex4(bytes, index, end) else { return nil }
        index += 4
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                  let low = hex4(bytes, index + 2, end), (0xDC00...0xDFFF).contains(low) else { return nil }
            index += 6
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            return nil
        }
        return Unicode.Scalar(scalar)
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> UInt32? {
        guard index + 4 <= end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
