import Foundation

/// Numbers read straight from a cell's bytes.
extension RowConverter {
    /// Appends `text` as a number of `type` (`$`, `,` and white space removed first): an integer
    /// column gets whole numbers that fit in 64 bits, a double column finite doubles, a decimal
    /// column an integer when the digits are one, else the digits themselves. Empty text is
    /// NULL. False when the text is not such a number (nothing is appended then).
    static func number(_ text: UnsafeBufferPointer<UInt8>, as type: LogicalType, into batch: inout RowBatch) -> Bool {
        withCleanNumber(text) { clean, hasPointOrExponent in
            guard let clean else { return false }
            if clean.isEmpty {
                batch.values.append(.null)
                return true
            }
            if !hasPointOrExponent, let value = integer(clean) {
                batch.values.append(type == .double ? .real(Double(value)) : .integer(value))
                return true
            }
            guard let real = parseReal(clean), real.isFinite else { return false }
            switch type {
            case .integer:
                guard real == real.rounded(), abs(real) < 9.2e18, let value = Int64(exactly: real) else { return false }
                batch.values.append(.integer(value))
            case .double:
                batch.values.append(.real(real))
            default:
                batch.appendDecimal(clean)
            }
            return true
        }
    }

    /// A finite double from number text (`$`, `,` and white space removed); nil otherwise.
    static func realValue(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        withCleanNumber(text) { clean, _ in
            guard let clean, !clean.isEmpty, let real = parseReal(clean), real.isFinite else { return nil }
            return real
        }
    }

    /// Calls `body` with the text less `$`, `,` and white space (nil when what is left is no
    /// decimal number; empty when nothing is left) and whether it has a point or an exponent.
    private static func withCleanNumber<Result>(_ text: UnsafeBufferPointer<UInt8>,
                                                _ body: (UnsafeBufferPointer<UInt8>?, Bool) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count + 1) { buffer in
            var count = 0
            var hasPointOrExponent = false
            for byte in text {
                if byte == UInt8(ascii: "$") || byte == UInt8(ascii: ",") || byte <= 0x20 { continue }
                if byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") { hasPointOrExponent = true }
                buffer[count] = byte
                count += 1
            }
            let clean = UnsafeBufferPointer(rebasing: buffer[0..<count])
            guard count == 0 || DecimalSyntax.isDecimal(clean) else { return body(nil, hasPointOrExponent) }
            return body(clean, hasPointOrExponent)
        }
    }

    /// The double nearest to decimal text (already checked to be decimal).
    static func parseReal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
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
    static func exactDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
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
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
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
