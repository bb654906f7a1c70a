import SocloadCore
import SocloadEngine
import SocloadTransport

/// What a string value says about its field: a date or timestamp in ISO-8601 form, or a decimal
/// number written as text.
extension FieldTypeInference {
    /// `YYYY-MM-DD` is a date; `YYYY-MM-DDTHH:MM[:SS[.fraction]]` a floating timestamp, and with
    /// `Z` or `±HH:MM` after it a fixed one (a space may stand for the `T`).
    package static func timeKind(_ text: String) -> Kinds? {
        var text = text
        return text.withUTF8 { timeKind($0) }
    }

    /// The same from the string's UTF-8 bytes, read in place (the inference calls it per value).
    package static func timeKind(_ bytes: UnsafeBufferPointer<UInt8>) -> Kinds? {
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && bytes[range].allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
        }
        guard bytes.count >= 10, digits(0..<4), bytes[4] == UInt8(ascii: "-"), digits(5..<7), bytes[7] == UInt8(ascii: "-"),
              digits(8..<10), ISO8601Timestamp.epochSeconds(utf8: UnsafeBufferPointer(rebasing: bytes[0..<10])) != nil else { return nil }
        if bytes.count == 10 { return .date }
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), digits(11..<13), bytes.count >= 16,
              bytes[13] == UInt8(ascii: ":"), digits(14..<16) else { return nil }
        var index = 16
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            guard digits(17..<19) else { return nil }
            index = 19
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let start = index
                while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
                guard index > start else { return nil }
            }
        }
        if index == bytes.count { return .floatingTimestamp }
        if bytes[index] == UInt8(ascii: "Z"), index + 1 == bytes.count { return .timestamp }
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), bytes.count == index + 6,
           digits(index + 1..<index + 3), bytes[index + 3] == UInt8(ascii: ":"), digits(index + 4..<index + 6) {
            return .timestamp
        }
        return nil
    }

    /// What a CSV value's text is (see `readsTextAsValues`).
    package static func kind(ofTextValue text: UnsafeBufferPointer<UInt8>) -> Kinds {
        let first = text[0]
        if first &- UInt8(ascii: "0") < 10, let time = timeKind(text) { return time }
        if first &- UInt8(ascii: "0") < 10, text.count >= 8, let usForm = ISO8601Timestamp.usDateTime(utf8: text) {
            return usForm.kind == .date ? .date : .floatingTimestamp
        }
        if isDecimalNumber(text) { return numberKind(text) }
        if text.count == 4 || text.count == 5 {
            let word = String(decoding: text, as: UTF8.self).lowercased()
            if word == "true" || word == "false" { return .boolean }
        }
        return .text
    }

    /// `-12`, `47.51`, `.5`, `1e3`: a decimal number as SODA 2 writes numbers in strings. A whole
    /// number with a leading zero (`"09799"`) is a code, not a number.
    package static func isDecimalNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if index < text.count, text[index] == UInt8(ascii: "-") { index += 1 }
        let start = index
        while index < text.count, text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        let whole = index - start
        var fraction = 0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            fraction = index - fractionStart
        }
        guard whole + fraction > 0 else { return false }
        if whole > 1, fraction == 0, text[start] == UInt8(ascii: "0") { return false }
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
            let exponentStart = index
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            guard index > exponentStart else { return false }
        }
        return index == text.count
    }
}
