/// What counts as a decimal number in a Socrata cell: `-12`, `3.50`, `.5`, `5.`, `1e3`, `+7` —
/// never `NaN`, `inf` or hex. One definition for the general and the fast conversion paths.
package enum DecimalSyntax {
    package static func isDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0
        var sawDot = false
        var sawExponent = false
        var previous: UInt8 = 0
        for (index, byte) in text.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard index == 0 || previous | 0x20 == UInt8(ascii: "e") else { return false }
            case UInt8(ascii: "."):
                guard !sawDot, !sawExponent else { return false }
                sawDot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !sawExponent, digits > 0 else { return false }
                sawExponent = true
            default:
                return false
            }
            previous = byte
        }
        guard digits > 0 else { return false }
        return previous &- UInt8(ascii: "0") < 10 || previous == UInt8(ascii: ".")
    }

    package static func isDecimal(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isDecimal($0) }
    }
}
