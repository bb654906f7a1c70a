import SocloadCore
import Foundation

/// Reads the message out of an error response: JSON error bodies as Socrata writes them, in either shape
/// (`{"code":..,"error":true,"message":..}` or `{"errorCode":..,"message":..}`), or an HTML page.
public enum HTTPErrorBody {
    /// A one-line message, or nil when the body says nothing useful.
    public static func message(from body: [UInt8], contentType: String?) -> String? {
        let trimmed = body.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if trimmed.first == UInt8(ascii: "{"), let value = try? JSONValueParser.parse(Array(trimmed)) {
            return message(of: value)
        }
        let text = String(decoding: body, as: UTF8.self)
        if trimmed.first == UInt8(ascii: "<") || contentType?.contains("html") == true {
            return htmlTitle(text).map(oneLine)
        }
        let line = oneLine(text)
        return line.isEmpty ? nil : String(line.prefix(200))
    }

    /// `code: message` from a Socrata error object, in either shape; nil when it has neither.
    public static func message(of value: JSONValue) -> String? {
        var parts: [String] = []
        for key in ["code", "errorCode"] {
            if case .string(let code)? = value[key] { parts.append(code) }
        }
        if case .string(let message)? = value["message"] {
            parts.append(message)
        } else if case .string(let message)? = value["error"] {
            parts.append(message)
        }
        return parts.isEmpty ? nil : oneLine(parts.joined(separator: ": "))
    }

    /// The text of the page's `<title>` (or first `<h1>`), without tags.
    static func htmlTitle(_ html: String) -> String? {
        for tag in ["title", "h1"] {
            if let open = html.range(of: "<\(tag)", options: .caseInsensitive),
               let openEnd = html[open.upperBound...].firstIndex(of: ">"),
               let close = html.range(of: "</\(tag)>", options: .caseInsensitive, range: openEnd..<html.endIndex) {
                let inner = html[html.index(after: openEnd)..<close.lowerBound]
                let withoutTags = inner.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
                let line = oneLine(withoutTags)
                if !line.isEmpty { return line }
            }
        }
        return nil
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

