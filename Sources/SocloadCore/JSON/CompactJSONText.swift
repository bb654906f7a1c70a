/// A JSON value's text written compactly straight from its bytes: insignificant whitespace
/// dropped, strings as `JSONValue.quoted` writes them (escapes decoded, then only quotes,
/// backslashes, control characters and DEL escaped), numbers and literals as written — the same
/// bytes `JSONValue.jsonText` of the parsed value gives, without building the tree and a String
/// per string. What a nested array or object stored as text becomes.
package enum CompactJSONText {
    /// Appends the compact text of the JSON value at `range` to `output`. False (and `output` as
    /// it was) for text this writer does not vouch for (an unterminated string, a malformed
    /// escape, a string that is not UTF-8): the caller then takes the parser's way.
    package static func append(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8]) -> Bool {
        let start = output.count
        var scratch: [UInt8] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "\""):
                var end = index + 1
                var escaped = false
                var wide = false
                while end < range.upperBound {
                    let character = bytes[end]
                    if character == UInt8(ascii: "\\") {
                        escaped = true
                        end += 2
                        continue
                    }
                    if character == UInt8(ascii: "\"") { break }
                    if character >= 0x80 { wide = true }
                    end += 1
                }
                guard end < range.upperBound else {
                    output.removeLast(output.count - start)
                    return false
                }
                let content = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
                if wide, String(validating: content, as: UTF8.self) == nil {
                    output.removeLast(output.count - start)
                    return false
                }
                if escaped {
                    scratch.removeAll(keepingCapacity: true)
                    guard JSONStringUnescaping.append(bytes, (index + 1)..<end, to: &scratch) else {
                        output.removeLast(output.count - start)
                        return false
                    }
                    scratch.withUnsafeBufferPointer { quote($0, into: &output) }
                } else {
                    quote(content, into: &output)
                }
                index = end + 1
            default:
                output.append(byte)
                index += 1
            }
        }
        return true
    }

    /// A string's content as a JSON string literal, escaped as `JSONValue.quoted` escapes it.
    private static func quote(_ content: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for (position, byte) in content.enumerated() {
            let escape: [UInt8]?
            switch byte {
            case UInt8(ascii: "\""): escape = Array("\\\"".utf8)
            case UInt8(ascii: "\\"): escape = Array("\\\\".utf8)
            case 0x0A: escape = Array("\\n".utf8)
            case 0x0D: escape = Array("\\r".utf8)
            case 0x09: escape = Array("\\t".utf8)
            case 0x08: escape = Array("\\b".utf8)
            case 0x0C: escape = Array("\\f".utf8)
            case 0x00...0x1F, 0x7F:
                let hex = Array(String(byte, radix: 16).utf8)
                escape = Array("\\u".utf8) + Array(repeating: UInt8(ascii: "0"), count: 4 - hex.count) + hex
            default: escape = nil
            }
            guard let escape else { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: content[runStart..<position]))
            output.append(contentsOf: escape)
            runStart = position + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: content[runStart..<content.count]))
        output.append(UInt8(ascii: "\""))
    }
}
