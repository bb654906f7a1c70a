import Foundation
import SocloadDatabase

/// How values are spelled in output.
enum ValueText {
    /// The shortest text that reads back as the same double (`2.5`, `1e-05`, `3.0`).
    static func real(_ value: Double) -> String {
        String(value)
    }

    /// Text for CSV and table output; nil for NULL.
    static func plain(_ value: DatabaseValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let integer): return String(integer)
        case .real(let real): return Self.real(real)
        case .text(let text): return text
        case .blob(let data): return data.base64EncodedString()
        }
    }
}
