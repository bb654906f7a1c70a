import Foundation
import SocloadSocrata

/// The little SoQL the fake portal understands (a filter, an order, paging) and its formatting.
extension FakeSocrataPortal {
    /// Filters with `field = 'text'`, `:updated_at > 'ISO'` (joined by AND), sorts and pages.
    func select(_ rows: [Row], where condition: String?, order: String, offset: Int, limit: Int) -> [Row]? {
        var result = rows
        if let condition, !condition.isEmpty {
            for clause in condition.components(separatedBy: " AND ") {
                guard let filter = Self.filter(clause) else { return nil }
                result = result.filter(filter)
            }
        }
        let keys = order.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        result.sort { left, right in
            for key in keys {
                let (a, b) = (Self.sortKey(left, key), Self.sortKey(right, key))
                if a != b { return a < b }
            }
            return false
        }
        return Array(result.dropFirst(offset).prefix(limit))
    }

    static func filter(_ clause: String) -> ((Row) -> Bool)? {
        for op in [" > ", " = "] {
            guard let range = clause.range(of: op) else { continue }
            let field = clause[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            var literal = clause[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard literal.hasPrefix("'"), literal.hasSuffix("'"), literal.count >= 2 else { return nil }
            literal = String(literal.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
            if field == ":updated_at", op == " > " {
                guard let seconds = parseISO(literal) else { return nil }
                return { $0.updatedAt > seconds }
            }
            if op == " = " {
                let value = literal
                return { row in
                    if case .text(let text)? = row.cells[field] { return text == value }
                    return false
                }
            }
        }
        return nil
    }

    static func sortKey(_ row: Row, _ key: String) -> String {
        switch key {
        case ":id": return row.id
        case ":updated_at": return String(format: "%012d", row.updatedAt)
        default:
            if case .text(let text)? = row.cells[key] { return text }
            if case .number(let number)? = row.cells[key] { return number }
            return ""
        }
    }

    // MARK: - Formatting

    static func quote(_ text: String) -> String {
        JSONValue.quoted(text)
    }

    static func isoWithMilliseconds(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let text = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
        return text.replacingOccurrences(of: "Z", with: ".000Z")
    }

    static func parseISO(_ text: String) -> Int? {
        var trimmed = text
        if trimmed.hasSuffix("Z") { trimmed.removeLast() }
        if let dot = trimmed.firstIndex(of: ".") { trimmed = String(trimmed[..<dot]) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: trimmed).map { Int($0.timeIntervalSince1970) }
    }

    static func soda2Type(_ dataTypeName: String) -> String {
        switch dataTypeName {
        case "calendar_date": return "floating_timestamp"
        case "date": return "fixed_timestamp"
        default: return dataTypeName
        }
    }
}
