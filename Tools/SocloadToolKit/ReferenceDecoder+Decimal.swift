import Foundation
import SocloadCore
import SocloadSocrata

/// How the reference spells a decimal column's number.
extension ReferenceDecoder {
    /// A decimal with its scale (`12.50`, `1.5e3` → `1500`, `.5` → `0.5`) when its units fit 64
    /// bits, else its digits as written.
    static func canonicalDecimal(_ text: String) -> String {
        var body = Substring(text)
        var negative = false
        if let first = body.first, first == "-" || first == "+" {
            negative = first == "-"
            body = body.dropFirst()
        }
        var exponent = 0
        if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let value = Int(body[body.index(after: e)...]), abs(value) < 100_000 else { return text }
            exponent = value
            body = body[..<e]
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = String(parts[0]) + fraction
        var scale = fraction.count - exponent
        if scale < 0 {
            digits += String(repeating: "0", count: -scale)
            scale = 0
        }
        guard scale <= 16_383, let units = Int64(digits.isEmpty ? "0" : digits) else { return text }
        var shown = String(units)
        if scale > 0 {
            shown = String(repeating: "0", count: max(0, scale + 1 - shown.count)) + shown
            shown.insert(".", at: shown.index(shown.endIndex, offsetBy: -scale))
        }
        return (negative && units != 0 ? "-" : "") + shown
    }
}
