import Foundation
import SocloadDatabase

/// Turns one JSON cell into the value(s) of its table column(s), following the column's type.
///
/// The same conversions serve rows.json arrays and SODA 2 objects, so a table has the same schema
/// and values whichever way it was fetched.
enum CellConversion {
    /// Text as given; structured values (arrays, objects) as compact JSON text.
    static func text(_ cell: JSONValue) -> DatabaseValue {
        switch cell {
        case .null: return .null
        case .string(let string): return .text(string)
        case .number(let number): return .text(number)
        case .bool(let flag): return .text(flag ? "true" : "false")
        case .array, .object: return .text(cell.jsonText)
        }
    }

    /// Numbers arrive as strings (`"1.000000"`, `"$1,234.50"`): integer when integral, else real;
    /// text that is no number is kept as it is, so nothing is lost.
    static func number(_ cell: JSONValue) -> DatabaseValue {
        switch cell {
        case .null: return .null
        case .number(let number): return numeric(number) ?? .text(number)
        case .string(let string):
            let needsCleaning = string.utf8.contains { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: ",") || $0 <= 0x20 }
            guard needsCleaning else { return numeric(string) ?? .text(string) }
            let cleaned = String(decoding: string.utf8.filter {
                $0 != UInt8(ascii: "$") && $0 != UInt8(ascii: ",") && $0 > 0x20
            }, as: UTF8.self)
            return numeric(cleaned) ?? .text(string)
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .array, .object: return .text(cell.jsonText)
        }
    }

    /// A decimal number as an integer when it is integral and fits, else a real; NULL when it
    /// overflows a double.
    static func numeric(_ text: String) -> DatabaseValue? {
        guard isDecimal(text) else { return nil }
        if let integer = Int64(text) { return .integer(integer) }
        guard let real = Double(text) else { return nil }
        // Too large for a double (1e999): NULL, as for doubles; SQLite would store Inf otherwise.
        guard real.isFinite else { return .null }
        if real == real.rounded(), abs(real) < 9.2e18, let integer = Int64(exactly: real) { return .integer(integer) }
        return .real(real)
    }

    /// `-12`, `3.50`, `.5`, `1e3`: JSON-like decimal syntax only (no `NaN`, `inf`, hex).
    static func isDecimal(_ text: String) -> Bool {
        DecimalSyntax.isDecimal(text)
    }

    static func double(_ cell: JSONValue) -> DatabaseValue {
        let text: String
        switch cell {
        case .null: return .null
        case .number(let number): text = number
        case .string(let string): text = String(asciiTrimmed(string))
        case .bool, .array, .object: return self.text(cell)
        }
        guard let real = Double(text) else { return .text(text) }
        return real.isFinite ? .real(real) : .null
    }

    /// A floating timestamp without zone; a zero fraction (`.000`, as SODA sends) is dropped so the
    /// text is the same as the rows.json export's.
    static func calendarDate(_ cell: JSONValue) -> DatabaseValue {
        guard case .string(let text) = cell, let dot = text.lastIndex(of: "."),
              text[text.index(after: dot)...].allSatisfy({ $0 == "0" }), text[..<dot].contains("T")
        else { return self.text(cell) }
        return .text(String(text[..<dot]))
    }

    static func checkbox(_ cell: JSONValue) -> DatabaseValue {
        switch cell {
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .string(let string):
            switch string.lowercased() {
            case "true", "1", "yes", "y": return .integer(1)
            case "false", "0", "no", "n": return .integer(0)
            case "": return .null
            default: return .text(string)
            }
        case .number(let number): return number == "0" ? .integer(0) : .integer(1)
        default: return text(cell)
        }
    }

    /// A fixed timestamp as ISO-8601 UTC with `Z`: from epoch seconds (number or numeric text) or
    /// from ISO text with any zone. Anything else is kept as text.
    static func timestamp(_ cell: JSONValue) -> DatabaseValue {
        let text: String
        switch cell {
        case .null: return .null
        case .number(let number): text = number
        case .string(let string): text = string
        default: return self.text(cell)
        }
        if isDecimal(text), let seconds = Double(text), seconds.isFinite, abs(seconds) < 1e13 {
            return .text(ISO8601Timestamp.format(Date(timeIntervalSince1970: seconds)))
        }
        if let date = ISO8601Timestamp.parse(text) {
            return .text(ISO8601Timestamp.format(date))
        }
        return .text(text)
    }

    /// A coordinate from a number or numeric text; NULL when absent or unreadable.
    static func coordinate(_ cell: JSONValue?) -> DatabaseValue {
        switch cell {
        case .number(let number)?:
            guard let real = Double(number), real.isFinite else { return .null }
            return .real(real)
        case .string(let string)?:
            guard let real = Double(asciiTrimmed(string)), real.isFinite else { return .null }
            return .real(real)
        default: return .null
        }
    }

    /// The text without leading and trailing spaces and tabs (cheap when there are none).
    static func asciiTrimmed(_ text: String) -> Substring {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return text[...] }
        if first != 0x20, first != 0x09, last != 0x20, last != 0x09 { return text[...] }
        return text.trimmingCharacters(in: .whitespaces)[...]
    }

    /// The element of an array cell at the position `subColumnTypes` gives `name`, else `fallback`.
    static func element(_ cell: [JSONValue], _ name: String, in subColumnTypes: [String]?, fallback: Int) -> JSONValue? {
        let index = subColumnTypes?.firstIndex(of: name) ?? fallback
        return index < cell.count ? cell[index] : nil
    }

    static func location(_ cell: JSONValue, subColumnTypes: [String]?) -> [DatabaseValue] {
        switch cell {
        case .array(let parts):
            let address = element(parts, "human_address", in: subColumnTypes, fallback: 0) ?? .null
            return [text(address),
                    coordinate(element(parts, "latitude", in: subColumnTypes, fallback: 1)),
                    coordinate(element(parts, "longitude", in: subColumnTypes, fallback: 2))]
        case .object:
            // SODA 2: {"latitude": "..", "longitude": "..", "human_address": "{...}"}; SODA 3 may
            // carry GeoJSON coordinates instead.
            var latitude = coordinate(cell["latitude"])
            var longitude = coordinate(cell["longitude"])
            if case .array(let coordinates)? = cell["coordinates"], coordinates.count >= 2 {
                longitude = coordinate(coordinates[0])
                latitude = coordinate(coordinates[1])
            }
            return [cell["human_address"].map(text) ?? .null, latitude, longitude]
        case .null:
            return [.null, .null, .null]
        default:
            return [text(cell), .null, .null]
        }
    }

    static func url(_ cell: JSONValue, subColumnTypes: [String]?) -> [DatabaseValue] {
        switch cell {
        case .array(let parts):
            return [text(element(parts, "url", in: subColumnTypes, fallback: 0) ?? .null),
                    text(element(parts, "description", in: subColumnTypes, fallback: 1) ?? .null)]
        case .object:
            return [text(cell["url"] ?? .null), text(cell["description"] ?? .null)]
        default:
            return [text(cell), .null]
        }
    }

    static func phone(_ cell: JSONValue, subColumnTypes: [String]?) -> [DatabaseValue] {
        switch cell {
        case .array(let parts):
            return [text(element(parts, "phone_number", in: subColumnTypes, fallback: 0) ?? .null),
                    text(element(parts, "phone_type", in: subColumnTypes, fallback: 1) ?? .null)]
        case .object:
            return [text(cell["phone_number"] ?? .null), text(cell["phone_type"] ?? .null)]
        default:
            return [text(cell), .null]
        }
    }

    /// A point as WKT `POINT (lon lat)`, plus its longitude and latitude. A GeoJSON point (as SODA
    /// sends it) becomes the same WKT the rows.json export has, digits unchanged, so a table is the
    /// same whichever API filled it.
    static func point(_ cell: JSONValue) -> [DatabaseValue] {
        switch cell {
        case .null:
            return [.null, .null, .null]
        case .string(let wkt):
            let (longitude, latitude) = wktPoint(wkt)
            return [.text(wkt), longitude, latitude]
        case .object:
            if case .string("Point")? = cell["type"], case .array(let coordinates)? = cell["coordinates"],
               coordinates.count >= 2, case .number(let x) = coordinates[0], case .number(let y) = coordinates[1] {
                return [.text("POINT (\(x) \(y))"), coordinate(coordinates[0]), coordinate(coordinates[1])]
            }
            if case .array(let coordinates)? = cell["coordinates"], coordinates.count >= 2 {
                return [.text(cell.jsonText), coordinate(coordinates[0]), coordinate(coordinates[1])]
            }
            return [.text(cell.jsonText), .null, .null]
        default:
            return [text(cell), .null, .null]
        }
    }

    /// The coordinates of `POINT (x y)` (any case, optional Z/M values after them).
    static func wktPoint(_ wkt: String) -> (DatabaseValue, DatabaseValue) {
        let trimmed = wkt.trimmingCharacters(in: .whitespaces)
        guard trimmed.uppercased().hasPrefix("POINT"),
              let open = trimmed.firstIndex(of: "("), let close = trimmed.lastIndex(of: ")"), open < close
        else { return (.null, .null) }
        let numbers = trimmed[trimmed.index(after: open)..<close].split(whereSeparator: { $0 == " " || $0 == "," })
        guard numbers.count >= 2, let x = Double(numbers[0]), let y = Double(numbers[1]) else { return (.null, .null) }
        return (.real(x), .real(y))
    }
}
