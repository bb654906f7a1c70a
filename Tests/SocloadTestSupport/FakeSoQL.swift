import Foundation

/// The SoQL the fake portal understands, as a real portal evaluates it: conditions of
/// comparisons (`=`, `!=`, `<`, `<=`, `>`, `>=`) between a field and a literal ('text', a number,
/// true or false), `IS NULL`, `IS NOT NULL`, joined by AND and OR with parentheses; and orders of
/// fields with ASC/DESC and NULL FIRST/LAST (NULLs last ascending and first descending, as
/// PostgreSQL and Socrata sort them). Text compares by code point, numbers as numbers.
enum FakeSoQL {
    /// A value of a row's field, compared as the portal would.
    enum Value: Comparable {
        case number(Double)
        case text(String)

        static func < (left: Value, right: Value) -> Bool {
            switch (left, right) {
            case let (.number(a), .number(b)): return a < b
            case let (.text(a), .text(b)): return Array(a.unicodeScalars.map(\.value)).lexicographicallyPrecedes(b.unicodeScalars.map(\.value))
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
    }

    indirect enum Condition {
        case and(Condition, Condition)
        case or(Condition, Condition)
        case compare(field: String, op: String, literal: Value)
        case isNull(field: String, negated: Bool)

        /// SQL's three-valued logic folded to "kept or not": a comparison with NULL keeps nothing.
        /// `ignoringID`: comparisons on `:id` hold whatever the row (a server that ignores the key).
        func holds(_ value: (String) -> Value?, ignoringID: Bool = false) -> Bool {
            switch self {
            case let .and(a, b): return a.holds(value, ignoringID: ignoringID) && b.holds(value, ignoringID: ignoringID)
            case let .or(a, b): return a.holds(value, ignoringID: ignoringID) || b.holds(value, ignoringID: ignoringID)
            case let .isNull(field, negated): return (value(field) == nil) != negated
            case let .compare(field, op, literal):
                if ignoringID, field == ":id" { return true }
                guard var actual = value(field) else { return false }
                if case .number = literal, case .text(let text) = actual, let number = Double(text) { actual = .number(number) }
                var literal = literal
                if case .number = actual, case .text(let text) = literal, let number = Double(text) { literal = .number(number) }
                switch op {
                case "=": return actual == literal
                case "!=", "<>": return actual != literal
                case "<": return actual < literal
                case "<=": return actual <= literal
                case ">": return actual > literal
                default: return actual >= literal
                }
            }
        }
    }

    struct OrderTerm {
        let field: String
        let descending: Bool
        let nullsLast: Bool

        /// True when `a` sorts before `b` on this term; nil when they are equal on it.
        func precedes(_ a: Value?, _ b: Value?) -> Bool? {
            switch (a, b) {
            case (nil, nil): return nil
            case (nil, _): return !nullsLast
            case (_, nil): return nullsLast
            case let (a?, b?): return a == b ? nil : (descending ? b < a : a < b)
            }
        }
    }

    static func order(_ text: String) -> [OrderTerm] {
        text.split(separator: ",").map { term in
            let words = term.split(separator: " ").map { String($0) }
            let descending = words.count > 1 && words[1].uppercased() == "DESC"
            var nullsLast = !descending
            if let last = words.last?.uppercased(), words.count >= 3, words[words.count - 2].uppercased().hasPrefix("NULL") {
                nullsLast = last == "LAST"
            }
            return OrderTerm(field: words.first ?? "", descending: descending, nullsLast: nullsLast)
        }
    }

    /// The condition of `text`; nil when it is not SoQL the fake understands (a 400 then).
    static func condition(_ text: String) -> Condition? {
        var parser = Parser(tokens: tokens(text))
        guard let condition = parser.orExpression(), parser.index == parser.tokens.count else { return nil }
        return condition
    }

    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var characters = Array(text)[...]
        while let first = characters.first {
            if first.isWhitespace { characters.removeFirst(); continue }
            if first == "'" {
                var literal = "'"
                characters.removeFirst()
                while let next = characters.first {
                    characters.removeFirst()
                    if next == "'" {
                        if characters.first == "'" { literal.append("'"); characters.removeFirst(); continue }
                        break
                    }
                    literal.append(next)
                }
                tokens.append(literal + "'")
            } else if first == "(" || first == ")" {
                tokens.append(String(characters.removeFirst()))
            } else if "<>=!".contains(first) {
                var op = String(characters.removeFirst())
                if let next = characters.first, "=>".contains(next) { op.append(characters.removeFirst()) }
                tokens.append(op)
            } else {
                var word = ""
                while let next = characters.first, !next.isWhitespace, !"()<>=!'".contains(next) { word.append(characters.removeFirst()) }
                tokens.append(word)
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [String]
        var index = 0

        mutating func next() -> String? {
            guard index < tokens.count else { return nil }
            defer { index += 1 }
            return tokens[index]
        }

        func peek(_ word: String) -> Bool { index < tokens.count && tokens[index].uppercased() == word }

        mutating func orExpression() -> Condition? {
            guard var left = andExpression() else { return nil }
            while peek("OR") {
                index += 1
                guard let right = andExpression() else { return nil }
                left = .or(left, right)
            }
            return left
        }

        mutating func andExpression() -> Condition? {
            guard var left = factor() else { return nil }
            while peek("AND") {
                index += 1
                guard let right = factor() else { return nil }
                left = .and(left, right)
            }
            return left
        }

        mutating func factor() -> Condition? {
            guard let token = next() else { return nil }
            if token == "(" {
                let inner = orExpression()
                guard next() == ")" else { return nil }
                return inner
            }
            let field = token
            if peek("IS") {
                index += 1
                let negated = peek("NOT")
                if negated { index += 1 }
                guard next()?.uppercased() == "NULL" else { return nil }
                return .isNull(field: field, negated: negated)
            }
            guard let op = next(), ["=", "!=", "<>", "<", "<=", ">", ">="].contains(op), let literal = next() else { return nil }
            if literal.hasPrefix("'") {
                let text = String(literal.dropFirst().dropLast())
                if field == ":updated_at" || field == ":created_at" {
                    guard let seconds = FakeSocrataPortal.parseISO(text) else { return nil }
                    return .compare(field: field, op: op, literal: .number(Double(seconds)))
                }
                return .compare(field: field, op: op, literal: .text(text))
            }
            if literal == "true" || literal == "false" { return .compare(field: field, op: op, literal: .text(literal)) }
            guard let number = Double(literal) else { return nil }
            return .compare(field: field, op: op, literal: .number(number))
        }
    }
}
