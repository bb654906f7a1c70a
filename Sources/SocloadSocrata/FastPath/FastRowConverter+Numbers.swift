import Foundation

/// Numbers and timestamps read straight from a row's bytes.
extension FastRowConverter {

    /// The index of a `.000` fraction at the end of a `...T...` timestamp, if it has one.
    static func zeroFraction(_ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = cell.end - 1
        while index > cell.start, bytes[index] == UInt8(ascii: "0") { index -= 1 }
        guard index > cell.start, bytes[index] == UInt8(ascii: "."),
              bytes[cell.start..<index].contains(UInt8(ascii: "T")) else { return nil }
        return index
    }

    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// `CellConversion.number` on bytes: `$`, `,` and white space removed (when `strip`), then an
    /// integer when integral, else a real; nil when the text is no decimal number.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, strip: Bool = true) -> RowBatch.Value? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 72) { buffer -> RowBatch.Value? in
            var count = 0
            var sawPointOrExponent = false
            for index in range {
                let byte = bytes[index]
                if strip, byte == UInt8(ascii: "$") || byte == UInt8(ascii: ",") || byte <= 0x20 { continue }
                guard count < 70 else { return nil }
                if byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") { sawPointOrExponent = true }
                buffer[count] = byte
                count += 1
            }
            let text = UnsafeBufferPointer(rebasing: buffer[0..<count])
            guard isDecimal(text) else { return nil }
            if !sawPointOrExponent, let integer = integer(text) { return .integer(integer) }
            if let real = exactDecimal(text) {
                if real == real.rounded(), abs(real) < 9.2e18, let integer = Int64(exactly: real) { return .integer(integer) }
                return .real(real)
            }
            buffer[count] = 0
            let real = strtod(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), nil)
            guard real.isFinite else { return .null }
            if real == real.rounded(), abs(real) < 9.2e18, let integer = Int64(exactly: real) { return .integer(integer) }
            return .real(real)
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

    /// A double from decimal text (nil for anything else: NaN, Infinity and text take the general path).
    static func real(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        guard range.count < 70, isDecimal(UnsafeBufferPointer(rebasing: bytes[range])) else { return nil }
        if let exact = exactDecimal(UnsafeBufferPointer(rebasing: bytes[range])) { return exact }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 72) { buffer in
            for (offset, index) in range.enumerated() { buffer[offset] = CChar(bitPattern: bytes[index]) }
            buffer[range.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
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

    /// The same syntax as `CellConversion.isDecimal`, on bytes.
    static func isDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        DecimalSyntax.isDecimal(text)
    }
}
