/// Whether a binary number holds every digit of the decimal text it was read from.
extension DecimalText {
    /// True when `real`, the double nearest to `text` (decimal text, already checked), is that
    /// number to every digit written: `0.1` and `1.50000000000000000000` are, but
    /// `123456789012345678901234567890` (30 digits) and `12345678901234567890.123` are not, a
    /// double keeping about 16 of them. Text of at most 15 significant digits always is.
    package static func roundTrips(_ text: UnsafeBufferPointer<UInt8>, as real: Double) -> Bool {
        let written = SignificantDigits(text)
        guard written.digits.count > 15 else { return true }
        var shortest = real.description // the fewest digits that read back as `real`
        return shortest.withUTF8 { SignificantDigits($0) } == written
    }
}

/// A decimal number as its significant digits `d1 d2 ...` and the power of ten `e` such that
/// it is `0.d1d2... × 10^e` (zero: no digits), with its sign: one form for `1.50`, `15e-1` and
/// `0.15E+1`.
struct SignificantDigits: Equatable {
    var negative = false
    var digits: [UInt8] = []
    var exponent = 0

    init(_ text: UnsafeBufferPointer<UInt8>) {
        var index = 0
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        var sawDot = false
        var integerDigits = 0
        var leadingZerosAfterDot = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                sawDot = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if digits.isEmpty, byte == UInt8(ascii: "0") {
                    if sawDot { leadingZerosAfterDot += 1 }
                } else {
                    digits.append(byte)
                    if !sawDot { integerDigits += 1 }
                }
            } else {
                break // the exponent
            }
            index += 1
        }
        var power = 0
        if index < text.count {
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                power = min(power * 10 + Int(text[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            if exponentNegative { power = -power }
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        exponent = digits.isEmpty ? 0 : (integerDigits > 0 ? integerDigits : -leadingZerosAfterDot) + power
        if digits.isEmpty { negative = false }
    }
}
