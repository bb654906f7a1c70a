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
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count)
        var scale = 0
        var sawPoint = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { return nil }
                sawPoint = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits.append(byte - UInt8(ascii: "0"))
                if sawPoint { scale += 1 }
            } else {
                return nil
            }
        }
        guard !digits.isEmpty else { return nil }
        scale -= exponent
        if scale < 0 {
            digits += Array(repeating: 0, count: -scale)
            scale = 0
        }
        while digits.count > 1, digits.first == 0, digits.count > scale { digits.removeFirst() }
        self.scale = scale
        integerDigits = max(0, digits.count - scale)
        if digits.count <= Self.maximumPrecision {
            var value: Int128 = 0
            for digit in digits { value = value * 10 + Int128(digit) }
            units = negative ? -value : value
        } else {
            units = nil
        }
    }

    /// The units at a larger `scale` (nil past 38 digits).
    func units(atScale target: Int) -> Int128? {
        guard var value = units, target >= scale, integerDigits + target <= Self.maximumPrecision else { return nil }
        for _ in 0..<(target - scale) { value *= 10 }
        return value
    }
}
