import Foundation
import SocloadSocrata

/// Selecting a page of rows as the fake portal does (`FakeSoQL`), and its formatting.
extension FakeSocrataPortal {
    /// Filters (`FakeSoQL`), sorts and pages; nil when the condition is not SoQL the fake reads.
    /// `paging` is how a broken server treats the key (the condition on `:id`) and `$offset`.
    func select(_ rows: [Row], where condition: String?, order: String, offset: Int, limit: Int,
                paging: OffsetHandling = .honoured) -> [Row]? {
        var parsed: FakeSoQL.Condition?
        if let condition, !condition.isEmpty {
            guard let condition = FakeSoQL.condition(condition) else { return nil }
            parsed = condition
        }
        let terms = FakeSoQL.order(order)
        let sorted = rows.sorted { left, right in
            for term in terms {
                if let precedes = term.precedes(Self.value(left, term.field), Self.value(right, term.field)) { return precedes }
            }
            return false
        }
        func matching(ignoringID: Bool) -> [Row] {
            guard let parsed else { return sorted }
            return sorted.filter { row in parsed.holds({ Self.value(row, $0) }, ignoringID: ignoringID) }
        }
        switch paging {
        case .honoured:
            return Array(matching(ignoringID: false).dropFirst(offset).prefix(limit))
        case .ignored, .ignoredWithLimit, .ignoredWithoutSystemFields:
            return Array(matching(ignoringID: true).prefix(limit))
        case .lagging(let rows):
            // The key (or the offset) honoured `rows` rows late.
            let base = matching(ignoringID: true)
            let keyed = matching(ignoringID: false)
            guard let first = keyed.first, let index = base.firstIndex(where: { $0.id == first.id }) else { return [] }
            return Array(base.dropFirst(max(0, index + offset - rows)).prefix(limit))
        }
    }

    /// A field's value in a row, as SoQL compares it (nil: NULL).
    static func value(_ row: Row, _ field: String) -> FakeSoQL.Value? {
        switch field {
        case ":id": return .text(row.id)
        case ":updated_at": return .number(Double(row.updatedAt))
        case ":created_at": return .number(Double(row.createdAt))
        default:
            switch row.cells[field] {
            case nil: return nil
            case .text(let text)?: return .text(text)
            case .number(let number)?: return Double(number).map(FakeSoQL.Value.number) ?? .text(number)
            case .checkbox(let flag)?: return .text(flag ? "true" : "false")
            case .calendarDate(let date)?: return .text(date + ".000")
            case .timestamp(let seconds)?: return .text(isoWithMilliseconds(seconds))
            case let .location(address, _, _)?: return .text(address)
            case let .url(url, _)?: return .text(url)
            case let .point(longitude, latitude)?: return .text("\(longitude) \(latitude)")
            case let .shape(wkt, _)?: return .text(wkt)
            }
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
