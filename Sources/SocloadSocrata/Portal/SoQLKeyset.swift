import Foundation
import SocloadCore

/// Paging by key: each page after the first asks for the rows that come after the last row of
/// the page before, in the load's order (the user's `--order`, then `:id`), instead of skipping
/// rows with `$offset` — so a page costs the portal the same at row 100 and at row 100,000,000.
///
/// The condition is the order's tuple comparison `(order..., :id) > (last values...)` written out
/// in SoQL, with NULLs where the portal sorts them (after every value ascending, before every
/// value descending, unless the order says `NULL FIRST` or `NULL LAST`), so no row is skipped:
///
///     ORDER BY ward, :id   after ward '7', :id 'row-9':
///     ((ward > '7' OR ward IS NULL) OR (ward = '7' AND :id > 'row-9'))
struct SoQLKeyset: Sendable, Equatable {
    /// How a field's values are written as SoQL literals.
    enum Literal: Sendable, Equatable {
        case quoted, number, boolean
    }

    /// One field of the order.
    struct Term: Sendable, Equatable {
        let field: String
        let descending: Bool
        let nullsLast: Bool
        let literal: Literal
    }

    /// The order's fields, ending with `:id` (or with the user's own `:id` term).
    let terms: [Term]

    /// How a load pages: by key, or by offset and why.
    enum Paging: Sendable, Equatable {
        case byKey(SoQLKeyset)
        case byOffset(why: String)
    }

    /// The paging of `query`, whose rows have the columns `columnTypes` names (field name →
    /// the metadata's `dataTypeName`). By key unless the rows lack a field of the order (a
    /// `--select` that leaves it out) or an order term is not a plain field socload can compare.
    static func paging(for query: SoQLQuery, columnTypes: [String: String]) -> Paging {
        let selected = query.select.map(plainFields(inSelect:))
        func isSelected(_ field: String) -> Bool {
            guard let selected else { return true }
            let isSystem = field.hasPrefix(":")
            return selected.contains(field) || selected.contains(isSystem ? ":*" : "*")
        }
        var terms: [Term] = []
        for text in topLevelItems(query.stableOrder) {
            let term: Term
            switch orderTerm(text, columnTypes: columnTypes) {
            case .success(let found): term = found
            case .failure(let problem): return .byOffset(why: "--order term \(JSONValue.quoted(text)) \(problem.reason)")
            }
            guard isSelected(term.field) else {
                return .byOffset(why: "--select leaves out \(term.field), which the order pages by")
            }
            terms.append(term)
            if term.field == ":id" { return .byKey(SoQLKeyset(terms: terms)) }
        }
        return .byOffset(why: "the order has no :id")
    }

    /// The condition for the rows after `row` (the last row object of a page), or why it cannot
    /// be written (the row has no `:id`, or a value of the order is not a plain value).
    func condition(after row: JSONValue) -> Result<String, KeysetError> {
        guard case .object(let members) = row else { return .failure(KeysetError(reason: "a row is not an object")) }
        var values: [String?] = []
        for term in terms {
            let value = members.last { $0.key == term.field }?.value ?? .null
            if case .null = value {
                guard term.field != ":id" else { return .failure(KeysetError(reason: "the portal's rows carry no :id")) }
                values.append(nil)
                continue
            }
            guard let literal = Self.literal(value, as: term.literal) else {
                return .failure(KeysetError(reason: "a value of \(term.field) cannot be written in SoQL"))
            }
            values.append(literal)
        }
        var alternatives: [String] = []
        for (index, term) in terms.enumerated() {
            guard let beyond = Self.beyond(term, values[index]) else { continue }
            let equal = zip(terms, values).prefix(index).map { term, value in
                value.map { "\(term.field) = \($0)" } ?? "\(term.field) IS NULL"
            }
            let parts = equal + [beyond]
            alternatives.append(parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")")
        }
        return .success(alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")")
    }

    /// Why a page's last row gives no key to continue after.
    struct KeysetError: Error, Equatable {
        let reason: String
    }

    /// The rows of `term` after the value `value` (nil: NULL).
    /// (System fields, `:id`, `:updated_at`..., are never NULL.)
    private static func beyond(_ term: Term, _ value: String?) -> String? {
        guard let value else { return term.nullsLast ? nil : "\(term.field) IS NOT NULL" }
        let comparison = "\(term.field) \(term.descending ? "<" : ">") \(value)"
        return term.nullsLast && !term.field.hasPrefix(":") ? "(\(comparison) OR \(term.field) IS NULL)" : comparison
    }

    private static func literal(_ value: JSONValue, as kind: Literal) -> String? {
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number): text = number
        case .bool(let flag): text = flag ? "true" : "false"
        default: return nil
        }
        switch kind {
        case .quoted: return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .number: return isNumber(text) ? text : nil
        case .boolean: return text == "true" || text == "false" ? text : nil
        }
    }

    private static func isNumber(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        } && text.utf8.contains { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `ward DESC NULL LAST` → a term; why not for an expression or a field of a type socload
    /// cannot write literals of (a location, a point, a url, a phone).
    private static func orderTerm(_ text: String, columnTypes: [String: String]) -> Result<Term, KeysetError> {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let field = words.first.map(unquotedField), isPlainField(field) else {
            return .failure(KeysetError(reason: "is not a plain field (an expression cannot be read back from a row)"))
        }
        var rest = words.dropFirst().map { $0.uppercased() }
        var descending = false
        if rest.first == "ASC" || rest.first == "DESC" { descending = rest.removeFirst() == "DESC" }
        var nullsLast = !descending
        if rest.count == 2, rest[0] == "NULL" || rest[0] == "NULLS", rest[1] == "FIRST" || rest[1] == "LAST" {
            nullsLast = rest[1] == "LAST"
            rest = []
        }
        guard rest.isEmpty else { return .failure(KeysetError(reason: "is not FIELD [ASC|DESC] [NULL FIRST|LAST]")) }
        let literal: Literal
        switch field {
        case ":id", ":created_at", ":updated_at": literal = .quoted
        default:
            switch columnTypes[field] {
            case "text", "drop_down_list", "email", "html", "calendar_date", "date", "floating_timestamp", "fixed_timestamp":
                literal = .quoted
            case "number", "money", "percent", "double": literal = .number
            case "checkbox", "boolean": literal = .boolean
            case let type?:
                return .failure(KeysetError(reason: "is a \(type) column, whose values have no SoQL literal to continue after"))
            case nil:
                return .failure(KeysetError(reason: "is no column the dataset's description lists"))
            }
        }
        return .success(Term(field: field, descending: descending, nullsLast: nullsLast, literal: literal))
    }

    private static func unquotedField(_ word: String) -> String {
        word.count > 2 && word.hasPrefix("`") && word.hasSuffix("`") ? String(word.dropFirst().dropLast()) : word
    }

    private static func isPlainField(_ word: String) -> Bool {
        guard let first = word.unicodeScalars.first else { return false }
        let body = first == ":" ? word.unicodeScalars.dropFirst() : word.unicodeScalars[...]
        guard let lead = body.first, lead == "_" || lead == "@" || lead.properties.isAlphabetic else { return false }
        return body.allSatisfy { $0 == "_" || $0 == "@" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// The plain fields a `$select` list returns under their own names, with `*` and `:*`.
    static func plainFields(inSelect select: String) -> Set<String> {
        Set(topLevelItems(select).map(unquotedField).filter { $0 == "*" || $0 == ":*" || isPlainField($0) })
    }

    /// A list's items split at its top-level commas (not inside parentheses or quotes), trimmed.
    static func topLevelItems(_ list: String) -> [String] {
        var items: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        for character in list {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" || character == "`" {
                quote = character
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            } else if character == ",", depth == 0 {
                items.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            }
            current.append(character)
        }
        items.append(current.trimmingCharacters(in: .whitespaces))
        return items.filter { !$0.isEmpty }
    }
}
