import SocloadCore
import Foundation

/// Numbers read straight from a cell's bytes.
extension RowConverter {
    /// Appends `text` as a number of `type` (`$`, `,` and white space removed first): an integer
    /// column gets whole numbers that fit in 64 bits, a double column finite doubles, a decimal
    /// column an integer when the digits are one, else the number read once as units and a scale
    /// (`ScaledDecimal`), or its digits when they do not fit. Empty text is
    /// NULL. Unless `keepsDigits`, a decimal column gets the nearest binary number instead of the
    /// digits (read here once; see `StorableValues.keepsDecimalDigits`): `.rounded` when that
    /// number lacks some of the digits. `.invalid` when the text is not such a number (nothing
    /// is appended then).
    package static func number(_ text: UnsafeBufferPointer<UInt8>, as type: LogicalType, keepsDigits: Bool = true,
                       into batch: inout RowBatch) -> NumberReading {
        withCleanNumber(text) { clean, hasPointOrExponent in
            guard let clean else { return .invalid }
            if clean.isEmpty {
                batch.values.append(.null)
                return .stored
            }
            if !hasPointOrExponent, let value = DecimalText.integer(clean) {
                batch.values.append(type == .double ? .real(Double(value)) : .integer(value))
                return .stored
            }
            if type == .decimal, keepsDigits, let decimal = ScaledDecimal(digits: clean) {
                batch.values.append(.scaledDecimal(decimal))
                return .stored
            }
            guard let real = DecimalText.parseReal(clean), real.isFinite else { return .invalid }
            switch type {
            case .integer:
                guard real == real.rounded(), abs(real) < 9.2e18, let value = Int64(exactly: real) else { return .invalid }
                batch.values.append(.integer(value))
            case .double:
                batch.values.append(.real(real))
            default:
                if keepsDigits {
                    batch.appendDecimal(clean)
                    return .stored
                } else if real == real.rounded(), abs(real) < 9.2e18, let integer = Int64(exactly: real) {
                    batch.values.append(.integer(integer))
                } else {
                    batch.values.append(.real(real))
                }
                return DecimalText.roundTrips(clean, as: real) ? .stored : .rounded
            }
            return .stored
        }
    }

    /// What became of a number's text.
    package enum NumberReading {
        /// Stored as written (a decimal of the destination's, or the number it names).
        case stored
        /// Stored as the nearest number the destination holds, which lacks some of its digits.
        case rounded
        /// Not a number: nothing stored.
        case invalid
    }

    /// A finite double from number text (`$`, `,` and white space removed); nil otherwise.
    package static func realValue(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        withCleanNumber(text) { clean, _ in
            guard let clean, !clean.isEmpty, let real = DecimalText.parseReal(clean), real.isFinite else { return nil }
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
}
