import Foundation

/// Decimal number text read straight from bytes, without a String: one definition for the
/// converter and for a destination that stores a decimal as the nearest binary number.
package enum DecimalText {
    /// The double nearest to decimal text (already checked to be decimal).
    package static func parseReal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        if let exact = exactDecimal(text) { return exact }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            for (offset, byte) in text.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            buffer[text.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// `[-+]digits.digits` with at most 15 significant digits, converted exactly: the mantissa and
    /// the power of ten are both exact doubles, so one division is correctly rounded (the
    /// classic fast path of decimal conversion). Nil for anything else, which goes to strtod.
    package static func exactDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawDot = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                guard !sawDot else { return nil }
                sawDot = true
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                if mantissa > 0 || digit > 0 { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + Int64(digit)
                if sawDot { fractionDigits += 1 }
            }
            index += 1
        }
        guard fractionDigits <= 22 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// Optional sign and digits only, fitting in Int64.
    package static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        var negative = false
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        guard index < text.count else { return nil }
        var value: Int64 = 0
        while index < text.count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (multiplied, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = negative ? multiplied.subtractingReportingOverflow(Int64(digit))
                                              : multiplied.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = added
            index += 1
        }
        return value
    }
}
