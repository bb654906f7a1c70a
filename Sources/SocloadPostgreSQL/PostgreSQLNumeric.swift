import SocloadCore
/// `numeric`'s binary form, from a `ScaledDecimal` or a decimal's digits as the source wrote them (`-12.50`, `1.5e3`):
/// digit count, weight, sign and display scale as 16-bit words, then base-10000 digits. The
/// scale keeps the digits written after the point (`12.50` stays `12.50`).
enum PostgreSQLNumeric {
    /// The most digits numeric holds before and after the point.
    static let maximumIntegerDigits = 131_072
    static let maximumFractionDigits = 16_383

    /// Writes the value as a field (length, then value); false (nothing written) when the text
    /// is not a decimal numeric can hold.
    static func write(digits text: UnsafeBufferPointer<UInt8>, to buffer: CopyBuffer) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count + 8) { digits in
            write(text, digits: digits, to: buffer)
        }
    }

    private static func write(_ text: UnsafeBufferPointer<UInt8>, digits: UnsafeMutableBufferPointer<UInt8>,
                              to buffer: CopyBuffer) -> Bool {
        var negative = false
        var count = 0
        var pointAt: Int?
        var index = 0
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var exponent = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                guard pointAt == nil else { return false }
                pointAt = count
            } else if byte | 0x20 == UInt8(ascii: "e") {
                index += 1
                var exponentNegative = false
                if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                    exponentNegative = text[index] == UInt8(ascii: "-")
                    index += 1
                }
                guard index < text.count else { return false }
                while index < text.count {
                    let digit = text[index] &- UInt8(ascii: "0")
                    guard digit < 10 else { return false }
                    exponent = min(exponent * 10 + Int(digit), 10_000_000)
                    index += 1
                }
                if exponentNegative { exponent = -exponent }
                break
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return false }
                digits[count] = digit
                count += 1
            }
            index += 1
        }
        guard count > 0 else { return false }
        // The value is 0.d1d2d3... × 10^point.
        let point = (pointAt ?? count) + exponent
        return emit(digits, count: count, point: point, scale: max(0, count - point), negative: negative, to: buffer)
    }

    /// Writes a decimal the converter read once (units and a scale), without text.
    static func write(_ decimal: ScaledDecimal, to buffer: CopyBuffer) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = decimal.units.magnitude
            var count = 0
            repeat {
                digits[count] = UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in 0..<(count / 2) { digits.swapAt(index, count - 1 - index) }
            let scale = Int(decimal.scale)
            return emit(digits, count: count, point: count - scale, scale: scale, negative: decimal.units < 0, to: buffer)
        }
    }

    /// Writes `0.d1d2...d(count) × 10^point` (digits 0...9) with a display scale, as a field.
    private static func emit(_ digits: UnsafeMutableBufferPointer<UInt8>, count: Int, point: Int, scale: Int,
                             negative: Bool, to buffer: CopyBuffer) -> Bool {
        var point = point
        var first = 0
        while first < count, digits[first] == 0 { first += 1 }
        point -= first
        var last = count
        while last > first, digits[last - 1] == 0 { last -= 1 }
        guard scale <= maximumFractionDigits, first == count || point <= maximumIntegerDigits else { return false }
        guard first < count else {
            // Zero, with its scale.
            buffer.write(UInt32(8))
            buffer.write(UInt16(0)); buffer.write(UInt16(0)); buffer.write(UInt16(0)); buffer.write(UInt16(scale))
            return true
        }
        // Pad on the left so the point falls between groups of four digits.
        let pad = ((4 - point % 4) % 4 + 4) % 4
        let weight = (point + pad) / 4 - 1
        let significant = last - first
        let groups = (pad + significant + 3) / 4
        buffer.write(UInt32(8 + 2 * groups))
        buffer.write(UInt16(groups))
        buffer.write(UInt16(bitPattern: Int16(weight)))
        buffer.write(UInt16(negative ? 0x4000 : 0x0000))
        buffer.write(UInt16(scale))
        // Digit k of the padded sequence: zero in the padding and past the end.
        for group in 0..<groups {
            var value: UInt16 = 0
            for position in (group * 4)..<(group * 4 + 4) {
                let source = first + position - pad
                value = value * 10 + UInt16(source >= first && source < last ? digits[source] : 0)
            }
            buffer.write(value)
        }
        return true
    }
}
