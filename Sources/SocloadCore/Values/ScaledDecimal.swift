/// A decimal number read once: `units × 10^-scale`, exactly as written (`12.50` is 1250 with
/// scale 2, so the digits after the point are kept; `1.5e3` is 1500 with scale 0). What the
/// converter hands a destination with exact decimals (`RowBatch.Value.scaledDecimal`), so it
/// writes the number without reading text again.
public struct ScaledDecimal: Sendable, Equatable, Hashable {
    public var units: Int64
    /// Digits after the point, 0 ... `maximumScale`.
    public var scale: Int16

    /// The most digits after the point kept (PostgreSQL's `numeric` display scale).
    public static let maximumScale = 16_383

    public init(units: Int64, scale: Int16) {
        self.units = units
        self.scale = scale
    }

    /// Reads decimal text (`[-+]digits[.digits][e[-+]digits]`, already checked by
    /// `DecimalSyntax`); nil when the units do not fit 64 bits or the scale is out of range
    /// (the digits then travel as text).
    @inlinable
    public init?(digits text: UnsafeBufferPointer<UInt8>) {
        var index = 0
        var negative = false
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        var units: Int64 = 0
        var fractionDigits = 0
        var sawPoint = false
        var exponent = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                sawPoint = true
                continue
            }
            if byte | 0x20 == UInt8(ascii: "e") {
                var exponentNegative = false
                if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                    exponentNegative = text[index] == UInt8(ascii: "-")
                    index += 1
                }
                while index < text.count {
                    exponent = exponent * 10 + Int(text[index] &- UInt8(ascii: "0"))
                    guard exponent < 100_000 else { return nil }
                    index += 1
                }
                if exponentNegative { exponent = -exponent }
                break
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflow) = units.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(Int64(digit))
            guard !overflow, !carry else { return nil }
            units = sum
            if sawPoint { fractionDigits += 1 }
        }
        var scale = fractionDigits - exponent
        while scale < 0 {
            let (shifted, overflow) = units.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            units = shifted
            scale += 1
        }
        guard scale <= Self.maximumScale else { return nil }
        self.init(units: negative ? -units : units, scale: Int16(scale))
    }

    /// The number as decimal text with its scale: `12.50`, `-0.005`, `1500`.
    public var text: String {
        let digits = String(units.magnitude)
        let sign = units < 0 ? "-" : ""
        guard scale > 0 else { return sign + digits }
        let padded = String(repeating: "0", count: max(0, Int(scale) + 1 - digits.count)) + digits
        let point = padded.index(padded.endIndex, offsetBy: -Int(scale))
        return sign + padded[..<point] + "." + padded[point...]
    }

    /// The nearest double.
    public var double: Double {
        var value = Double(units)
        var remaining = Int(scale)
        while remaining > 22 {
            value /= 1e22
            remaining -= 22
        }
        var power = 1.0
        for _ in 0..<remaining { power *= 10 }
        return value / power
    }
}
