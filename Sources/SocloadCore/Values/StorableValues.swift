/// What a destination can store, where it is less than the converter produces: PostgreSQL
/// cannot hold a NUL character in text, nor a timestamp before 4713 BC, say, while SQLite can.
/// The converter checks cells against it and treats one the destination cannot store as a cell
/// that is not of its column's type (NULL and counted, or a failure with `--strict`), with a note
/// that names the destination — so a load never fails halfway through on the server's side for
/// a value the plan's rule covers.
public struct StorableValues: Sendable, Equatable {
    /// Named in the note of such cells ("PostgreSQL cannot store it").
    public var destinationName: String
    /// False: text, JSON and geometry values may not contain U+0000 (nor JSON the `\u0000` escape).
    public var allowsNULInText: Bool
    /// The instants a fixed timestamp may be, in seconds since 1970 (nil: any).
    public var timestampSeconds: Range<Double>?
    /// The most digits a decimal may have before and after its point (nil: any).
    public var decimalIntegerDigits: Int?
    public var decimalFractionDigits: Int?
    /// False: the destination stores a decimal as the nearest binary number (SQLite's NUMERIC
    /// affinity), so the converter, which reads the number anyway, gives it that number
    /// (`.integer` when whole and within 64 bits, else `.real`) instead of the digits.
    public var keepsDecimalDigits: Bool

    public init(destinationName: String, allowsNULInText: Bool = true, timestampSeconds: Range<Double>? = nil,
                decimalIntegerDigits: Int? = nil, decimalFractionDigits: Int? = nil, keepsDecimalDigits: Bool = true) {
        self.destinationName = destinationName
        self.allowsNULInText = allowsNULInText
        self.timestampSeconds = timestampSeconds
        self.decimalIntegerDigits = decimalIntegerDigits
        self.decimalFractionDigits = decimalFractionDigits
        self.keepsDecimalDigits = keepsDecimalDigits
    }

    /// No limit beyond the converter's own (SQLite).
    public static let anything = StorableValues(destinationName: "")

    package var isAnything: Bool { self == .anything }

    package var note: String { "\(destinationName) cannot store them" }

    /// True when `text` (a converted text, JSON or geometry value) can be stored.
    package func allowsText(_ text: UnsafeBufferPointer<UInt8>, isJSON: Bool) -> Bool {
        guard !allowsNULInText else { return true }
        if text.contains(0) { return false }
        guard isJSON else { return true }
        // The \u0000 escape: a backslash (not itself escaped) before u0000.
        var index = 0
        while index + 5 < text.count {
            if text[index] == UInt8(ascii: "\\") {
                if text[index + 1] == UInt8(ascii: "u"), text[index + 2] == UInt8(ascii: "0"),
                   text[index + 3] == UInt8(ascii: "0"), text[index + 4] == UInt8(ascii: "0"),
                   text[index + 5] == UInt8(ascii: "0") { return false }
                index += 2
            } else {
                index += 1
            }
        }
        return true
    }

    /// True when a decimal's digits fit (`1e-20000` has 20000 digits after its point).
    package func allowsDecimal(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        guard decimalIntegerDigits != nil || decimalFractionDigits != nil else { return true }
        let (integer, fraction) = DecimalSyntax.digitsAroundPoint(digits)
        if let limit = decimalIntegerDigits, integer > limit { return false }
        if let limit = decimalFractionDigits, fraction > limit { return false }
        return true
    }
}

extension DecimalSyntax {
    /// How many digits a decimal has before its point (leading zeros aside) and after it
    /// (trailing zeros included, as the source wrote them), once its exponent is applied:
    /// `1.50` → (1, 2), `1.5e3` → (4, 0), `1e-5` → (0, 5).
    package static func digitsAroundPoint(_ text: UnsafeBufferPointer<UInt8>) -> (integer: Int, fraction: Int) {
        var digits = 0
        var leadingZeros = 0
        var seenNonZero = false
        var pointAt: Int?
        var exponent = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte | 0x20 == UInt8(ascii: "e") {
                var negative = false
                index += 1
                if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                    negative = text[index] == UInt8(ascii: "-")
                    index += 1
                }
                while index < text.count {
                    exponent = min(exponent * 10 + Int(text[index] &- UInt8(ascii: "0")), 1_000_000_000)
                    index += 1
                }
                if negative { exponent = -exponent }
                break
            }
            if byte == UInt8(ascii: ".") {
                pointAt = digits
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if !seenNonZero, byte == UInt8(ascii: "0"), pointAt == nil { leadingZeros += 1 } else { seenNonZero = true }
                digits += 1
            }
            index += 1
        }
        let point = (pointAt ?? digits) + exponent
        return (max(0, point - leadingZeros), max(0, digits - point))
    }
}
