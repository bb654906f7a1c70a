/// Decodes a JSON string's escapes (the bytes between the quotes) straight into a byte buffer.
enum JSONStringUnescaping {
    /// Appends the decoded content to `output`; false when an escape is malformed (a lone
    /// surrogate, a bad hex digit, an unknown escape), as JSON forbids.
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8]) -> Bool {
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
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(bytes, index, range.upperBound) else { return false }
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < range.upperBound, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                          let low = hex4(bytes, index + 2, range.upperBound), (0xDC00...0xDFFF).contains(low) else { return false }
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    return false
                }
                guard let unicode = Unicode.Scalar(scalar) else { return false }
                output.append(contentsOf: String(Character(unicode)).utf8)
            default:
                return false
            }
        }
        return true
    }

    /// True when every escape in the string's content is well formed (what `append` accepts),
    /// checked without decoding anything.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
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
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "n"), UInt8(ascii: "r"),
                 UInt8(ascii: "t"), UInt8(ascii: "b"), UInt8(ascii: "f"):
                continue
            case UInt8(ascii: "u"):
                guard let scalar = hex4(bytes, index, end) else { return false }
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                          let low = hex4(bytes, index + 2, end), (0xDC00...0xDFFF).contains(low) else { return false }
                    index += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    return false
                }
            default:
                return false
            }
        }
        return true
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
