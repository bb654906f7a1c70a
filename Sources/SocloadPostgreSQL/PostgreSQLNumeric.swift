/// `numeric`'s binary form, from a decimal's digits as the source wrote them (`-12.50`, `1.5e3`):
/// digit count, weight, sign and display scale as 16-bit words, then base-10000 digits. The
/// scale keeps the digits written after the point (`12.50` stays `12.50`).
enum PostgreSQLNumeric {
    /// The most digits numeric holds before and after the point.
    static let maximumIntegerDigits = 131_072
    static let maximumFractionDigits = 16_383

    /// Appends the value with its length word; false (nothing appended) when the text is not a
    /// decimal numeric can hold.
    static func append(digits text: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) -> Bool {
        var negative = false
        var digits: [UInt8] = []
        digits.reserveCapacity(text.count)
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
                pointAt = digits.count
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
                digits.append(digit)
            }
            index += 1
        }
        guard !digits.isEmpty else { return false }
        // The value is 0.d1d2d3... × 10^point.
        var point = (pointAt ?? digits.count) + exponent
        let scale = max(0, digits.count - point)
        var leading = 0
        while leading < digits.count, digits[leading] == 0 { leading += 1 }
        point -= leading
        let significant = digits[leading...]
        guard scale <= maximumFractionDigits, significant.isEmpty || point <= maximumIntegerDigits else { return false }
        var groups: [UInt16] = []
        var weight = 0
        if !significant.isEmpty {
            // Pad on the left so the point falls between groups of four digits.
            let pad = ((4 - point % 4) % 4 + 4) % 4
            var padded = [UInt8](repeating: 0, count: pad) + significant
            weight = (point + pad) / 4 - 1
            while padded.count % 4 != 0 { padded.append(0) }
            groups.reserveCapacity(padded.count / 4)
            var start = 0
            while start < padded.count {
                groups.append(UInt16(padded[start]) * 1000 + UInt16(padded[start + 1]) * 100
                              + UInt16(padded[start + 2]) * 10 + UInt16(padded[start + 3]))
                start += 4
            }
            while groups.last == 0 { groups.removeLast() }
        }
        buffer.appendBigEndian(UInt32(8 + 2 * groups.count))
        buffer.appendBigEndian(UInt16(groups.count))
        buffer.appendBigEndian(UInt16(bitPattern: Int16(groups.isEmpty ? 0 : weight)))
        buffer.appendBigEndian(UInt16(negative && !groups.isEmpty ? 0x4000 : 0x0000))
        buffer.appendBigEndian(UInt16(scale))
        for group in groups { buffer.appendBigEndian(group) }
        return true
    }
}
