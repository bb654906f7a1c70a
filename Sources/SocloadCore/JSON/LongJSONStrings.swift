/// Takes the long strings out of a JSON document before a `JSONDecoder` reads it: each string
/// literal of `minimumBytes` or more is decoded where it lies into one `String`, and the literal
/// is overwritten by a short placeholder string padded with spaces, so the document stays valid
/// JSON and the decoder meets only short strings. Foundation's decoder holds a growing copy of an
/// escaped string besides the document and the result: a 100 MB description cost three times
/// its size. The caller puts the texts back in the decoded value (`text(for:)`).
package struct LongJSONStrings: Sendable {
    /// The texts taken out, by the placeholder each left.
    package private(set) var texts: [String: String] = [:]

    /// What every placeholder starts with (a NUL: no portal's text does).
    package static let placeholderPrefix = "\u{0}socload-long-text-"

    /// Takes the long strings out of `document`, which is valid JSON (checked before).
    /// Throws `JSONValueParser.Failure` for a long string that is not valid UTF-8 or has a
    /// malformed escape.
    package init(takingFrom document: inout [UInt8], minimumBytes: Int = 1 << 20) throws(JSONValueParser.Failure) {
        var found: [String: String] = [:]
        try document.withUnsafeMutableBufferPointer { (bytes: inout UnsafeMutableBufferPointer<UInt8>) throws(JSONValueParser.Failure) in
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "\"") else {
                    index += 1
                    continue
                }
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard end < bytes.count else { throw .unexpectedEnd }
                if end - index - 1 >= minimumBytes {
                    let number = found.count
                    let text = try Self.takeOut(bytes, literal: index...end)
                    Self.writePlaceholder(number, over: index...end, in: bytes)
                    found[Self.placeholderPrefix + String(number)] = text
                }
                index = end + 1
            }
        }
        texts = found
    }

    /// Decodes the literal's content in place into a `String`.
    private static func takeOut(_ bytes: UnsafeMutableBufferPointer<UInt8>, literal: ClosedRange<Int>) throws(JSONValueParser.Failure) -> String {
        let content = (literal.lowerBound + 1)..<literal.upperBound
        guard let length = JSONStringUnescaping.decodeInPlace(bytes, content) else {
            throw .invalidEscape(offset: literal.lowerBound)
        }
        let decoded = UnsafeBufferPointer(rebasing: bytes[content.lowerBound..<(content.lowerBound + length)])
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8(offset: content.lowerBound) }
        return text
    }

    /// Writes the placeholder of the `number`th text (`"\u0000socload-long-text-N"`) over a
    /// literal, padded with spaces.
    private static func writePlaceholder(_ number: Int, over literal: ClosedRange<Int>, in bytes: UnsafeMutableBufferPointer<UInt8>) {
        let placeholder = Array("\"\\u0000socload-long-text-\(number)\"".utf8)
        for offset in literal {
            let position = offset - literal.lowerBound
            bytes[offset] = position < placeholder.count ? placeholder[position] : UInt8(ascii: " ")
        }
    }

    /// The text a decoded string stands for: the one taken out when it is a placeholder, else itself.
    package func text(for decoded: String) -> String {
        guard !texts.isEmpty, decoded.hasPrefix(Self.placeholderPrefix) else { return decoded }
        return texts[decoded] ?? decoded
    }

    /// `text(for:)` of an optional.
    package func text(for decoded: String?) -> String? {
        decoded.map { text(for: $0) }
    }
}
