/// Finds where one JSON value ends in a stream of bytes, across chunk boundaries, without parsing
/// it: it tracks only string state and nesting depth, so arbitrarily deep or long values cost no
/// memory here.
package struct JSONValueScanner {
    private enum Kind { case none, primitive, string, container }

    private var kind = Kind.none
    private var depth = 0
    private var inString = false
    private var escaped = false

    package init() {}

    package mutating func reset() {
        self = JSONValueScanner()
    }

    /// Scans `bytes` from `start`. Returns the index just past the value and true when the value is
    /// complete (for a number or literal, the index of the delimiter that ends it, which is not
    /// part of the value); or `bytes.count` and false when the value continues in the next chunk.
    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, complete: Bool) {
        var index = start
        let count = bytes.count
        if kind == .none, index < count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                kind = .container
                depth = 1
                index += 1
            case UInt8(ascii: "\""):
                kind = .string
                inString = true
                index += 1
            default:
                kind = .primitive
            }
        }
        while index < count {
            if inString, !escaped { ByteScanning.skipPlainWords(bytes, &index, count) }
            guard index < count else { break }
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if kind == .string { return (index + 1, true) }
                }
                index += 1
                continue
            }
            switch kind {
            case .primitive:
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
                    return (index, true)
                default:
                    index += 1
                }
            case .container:
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return (index + 1, true) }
                default:
                    break
                }
                index += 1
            case .none, .string:
                index += 1
            }
        }
        return (count, false)
    }
}
