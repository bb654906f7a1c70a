/// A decimal number read exactly from the text or number a database gives (`12.50`, `-3`,
/// `1.5e-7`, a double's shortest form), as its digits' units and scale: what a Parquet DECIMAL
/// column stores, or what says it needs more than 38 digits.
struct ExactDecimal: Equatable {
    /// The value times 10^scale, when it fits 38 digits.
    var units: Int128?
    var scale: Int
    /// Digits before the point (0 for `0.05`).
    var integerDigits: Int

    /// The most digits a DECIMAL holds in 16 bytes.
    static let maximumPrecision = 38

    init(units: Int128?, scale: Int, integerDigits: Int) {
        (self.units, self.scale, self.integerDigits) = (units, scale, integerDigits)
    }

    init?(_ text: String) {
        var text = text
        guard let decimal = text.withUTF8({ ExactDecimal(bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = decimal
    }

    /// The decimal of UTF-8 text (spaces around it allowed).
    init?(bytes text: UnsafeRawBufferPointer) {
        var bytes = text[...]
        while let first = bytes.first, first == 0x20 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 { bytes = bytes.dropLast() }
        var negative = false
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
            negative = bytes.first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var exponent = 0
        if let marker = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            guard let value = Int(String(decoding: bytes[(marker + 1)...], as: UTF8.self)), abs(value) < 1000 else { return nil }
            exponent = value
            bytes = bytes[..<marker]
        }
        // The digits counted and accumulated as they come (leading zeros before the point
        // left out), no array of them made: this runs for every decimal cell of an export.
        var significant = 0
        var value: Int128 = 0
        var scale = 0
        var sawPoint = false
        var sawDigit = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { return nil }
                sawPoint = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                sawDigit = true
                if sawPoint { scale += 1 }
                if significant == 0, byte == UInt8(ascii: "0"), !sawPoint { continue }
                significant += 1
                if significant <= Self.maximumPrecision { value = value * 10 + Int128(byte - UInt8(ascii: "0")) }
            } else {
                return nil
            }
        }
        guard sawDigit else { return nil }
        scale -= exponent
        if scale < 0 {
            significant += -scale
            if significant <= Self.maximumPrecision { for _ in 0..<(-scale) { value *= 10 } }
            scale = 0
        }
        // Digits after the point count even when zero (`0.05`: two digits, units 5).
        let digitCount = max(significant, scale, 1)
        self.scale = scale
        integerDigits = max(0, digitCount - scale)
        units = significant <= Self.maximumPrecision ? (negative ? -value : value) : nil
    }

    /// The units at a larger `scale` (nil past 38 digits).
    func units(atScale target: Int) -> Int128? {
        guard var value = units, target >= scale, integerDigits + target <= Self.maximumPrecision else { return nil }
        for _ in 0..<(target - scale) { value *= 10 }
        return value
    }
}
