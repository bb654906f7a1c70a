import Foundation
import SocloadCore
import SocloadSocrata

/// A slow, plain reading of the conversion rules, for tests only: each row is parsed into a
/// `JSONValue` tree and each cell converted with ordinary Swift (`Double(String)`, `Int64(String)`,
/// `ISO8601Timestamp.parse`). `RowConverter` must give exactly these values, counts and errors.
public struct ReferenceDecoder {
    public let table: PlanTable
    public let sourceFields: [String]
    public let objects: Bool
    public private(set) var invalid: [String: InvalidCells] = [:]
    private var rowNumber = 0

    public init(plan: LoadPlan, objects: Bool = false) {
        table = plan.mainTable
        sourceFields = plan.sourceFields
        self.objects = objects
    }

    /// The invalid-cell counts in column order.
    public var invalidCells: [InvalidCells] {
        table.columns.compactMap { invalid[$0.name] }
    }

    /// One row's values.
    public mutating func values(row bytes: [UInt8], rowNumber: Int, offset: Int) throws -> [CellValue] {
        self.rowNumber = rowNumber
        let value = try JSONValue(parsingRow: bytes, row: rowNumber, offset: offset)
        var cells: [JSONValue]
        switch (value, objects) {
        case (.array(let elements), false):
            guard elements.count == sourceFields.count else {
                throw LoadError.rowShape(row: rowNumber, expected: sourceFields.count, found: elements.count)
            }
            cells = elements
        case (.object(let members), true):
            cells = Array(repeating: .null, count: sourceFields.count)
            var given = Set<Int>()
            var twice: Int?
            for member in members {
                if let index = sourceFields.firstIndex(of: member.key) {
                    if !given.insert(index).inserted, twice == nil { twice = index }
                    cells[index] = member.value
                }
            }
            if let twice {
                throw RowsJSONError.badRow(row: rowNumber, offset: offset,
                                           detail: "the field '\(sourceFields[twice])' appears twice")
            }
        default:
            throw RowsJSONError.badRow(row: rowNumber, offset: offset, detail: objects ? "not an object" : "not an array")
        }
        var values: [CellValue] = []
        for column in table.columns {
            values.append(convert(column, cells))
        }
        for key in table.primaryKey {
            if let index = table.columns.firstIndex(where: { $0.name == key }), values[index] == .null {
                throw LoadError.nullKey(table: table.name, column: key, row: rowNumber)
            }
        }
        return values
    }

    private mutating func convert(_ column: PlanColumn, _ cells: [JSONValue]) -> CellValue {
        switch column.source {
        case .field(let cell):
            return convert(cells[cell], column)
        case let .rowIdentifier(sid, id):
            let sidValue = sid.map { cells[$0] } ?? .null
            if case .string = sidValue { return convert(sidValue, column) }
            if let id, !cells[id].isNull { return convert(cells[id], column) }
            return convert(sidValue, column)
        case let .part(cell, part, subColumnTypes):
            return convertPart(cells[cell], part, subColumnTypes, column)
        case .absent:
            return .null
        }
    }

    // MARK: - Scalars

    private mutating func convert(_ cell: JSONValue, _ column: PlanColumn) -> CellValue {
        if cell.isNull { return .null }
        switch column.type {
        case .geometry:
            return .text(Self.wkt(ofGeoJSON: cell) ?? Self.text(cell))
        case .text, .json:
            return .text(Self.text(cell))
        case .integer, .decimal, .double:
            switch cell {
            case .bool(let flag): return .integer(flag ? 1 : 0)
            case .string(let text), .number(let text): return number(text, column, cell)
            default: return invalidCell(column, cell)
            }
        case .boolean:
            switch cell {
            case .bool(let flag): return .integer(flag ? 1 : 0)
            case .number(let text):
                guard let value = Self.real(text) else { return invalidCell(column, cell) }
                return .integer(value != 0 ? 1 : 0)
            case .string(let text):
                switch text.lowercased() {
                case "": return .null
                case "true", "yes", "y", "t", "1": return .integer(1)
                case "false", "no", "n", "f", "0": return .integer(0)
                default:
                    guard let value = Self.real(text) else { return invalidCell(column, cell) }
                    return .integer(value != 0 ? 1 : 0)
                }
            default: return invalidCell(column, cell)
            }
        case .timestamp, .floatingTimestamp, .date:
            let text: String
            switch cell {
            case .string(let string): text = string
            case .number(let number) where column.type == .timestamp: text = number
            default: return invalidCell(column, cell)
            }
            if text.isEmpty { return .null }
            if column.type == .timestamp, Self.isDecimal(text) {
                guard let seconds = Double(text), seconds.isFinite, abs(seconds) < 1e13 else { return invalidCell(column, cell) }
                return .text(ISO8601Timestamp.format(Date(timeIntervalSince1970: seconds)))
            }
            guard let date = ISO8601Timestamp.parse(text) else { return invalidCell(column, cell) }
            switch column.type {
            case .timestamp:
                guard abs(date.timeIntervalSince1970) < 1e13 else { return invalidCell(column, cell) }
                return .text(ISO8601Timestamp.format(date))
            case .date:
                return .text(String(text.prefix(10)))
            default:
                // The wall-clock time as written: any zone dropped, in the canonical spelling.
                var wallClock = Substring(text)
                if let zone = text.dropFirst(16).lastIndex(where: { "Zz+-".contains($0) }) { wallClock = text[..<zone] }
                guard let local = ISO8601Timestamp.parse(String(wallClock)) else { return invalidCell(column, cell) }
                return .text(String(ISO8601Timestamp.format(local).dropLast()))
            }
        }
    }

    private mutating func number(_ raw: String, _ column: PlanColumn, _ cell: JSONValue) -> CellValue {
        let text = String(raw.unicodeScalars.filter { $0 != "$" && $0 != "," && $0.value > 0x20 }.map(Character.init))
        if text.isEmpty { return .null }
        guard Self.isDecimal(text) else { return invalidCell(column, cell) }
        let plain = !text.contains(".") && !text.lowercased().contains("e")
        if plain, let integer = Int64(text) {
            return column.type == .double ? .real(Double(integer)) : .integer(integer)
        }
        guard let real = Double(text), real.isFinite else { return invalidCell(column, cell) }
        switch column.type {
        case .integer:
            guard real == real.rounded(), abs(real) < 9.2e18, let integer = Int64(exactly: real) else {
                return invalidCell(column, cell)
            }
            return .integer(integer)
        case .double: return .real(real)
        default: return .decimal(Self.canonicalDecimal(text))
        }
    }

    private mutating func invalidCell(_ column: PlanColumn, _ cell: JSONValue) -> CellValue {
        if invalid[column.name] != nil {
            invalid[column.name]!.count += 1
        } else {
            let shown: String
            if case .string(let text) = cell { shown = InvalidCells.display(string: text) } else {
                shown = InvalidCells.display(nonString: cell.jsonText)
            }
            invalid[column.name] = InvalidCells(column: column.name, type: column.type, count: 1, firstRow: rowNumber,
                                                firstValue: shown)
        }
        return .null
    }

    static func text(_ cell: JSONValue) -> String {
        switch cell {
        case .null: return ""
        case .string(let string): return string
        case .number(let number): return number
        case .bool(let flag): return flag ? "true" : "false"
        case .array, .object: return cell.jsonText
        }
    }

    /// JSON-like decimal syntax: sign, digits, one point, an exponent; nothing else.
    static func isDecimal(_ text: String) -> Bool {
        text.range(of: #"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
    }

    static func real(_ raw: String) -> Double? {
        let text = String(raw.unicodeScalars.filter { $0 != "$" && $0 != "," && $0.value > 0x20 }.map(Character.init))
        guard !text.isEmpty, isDecimal(text), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    // MARK: - Compound values

    static func lastMember(_ cell: JSONValue, _ key: String) -> JSONValue? {
        guard case .object(let members) = cell else { return nil }
        return members.last { $0.key == key }?.value
    }

    private static func position(_ part: FieldPart) -> Int {
        switch part {
        case .locationAddress, .url, .phoneNumber, .pointGeometry: return 0
        case .locationLatitude, .urlDescription, .phoneType, .pointLongitude: return 1
        case .locationLongitude, .pointLatitude: return 2
        }
    }

    private static func coordinates(_ cell: JSONValue) -> [JSONValue]? {
        guard case .array(let elements)? = lastMember(cell, "coordinates"), elements.count >= 2 else { return nil }
        return elements
    }

    private mutating func convertPart(_ cell: JSONValue, _ part: FieldPart, _ subColumnTypes: [String]?,
                                      _ column: PlanColumn) -> CellValue {
        if [.pointGeometry, .pointLongitude, .pointLatitude].contains(part) {
            return convertPoint(cell, part, column)
        }
        switch cell {
        case .null: return .null
        case .array(let elements):
            let index = subColumnTypes?.firstIndex(of: part.rawValue) ?? Self.position(part)
            return convert(index < elements.count ? elements[index] : .null, column)
        case .object:
            var element = Self.lastMember(cell, part.rawValue)
            if element == nil, part == .locationLatitude || part == .locationLongitude {
                element = Self.coordinates(cell).map { $0[part == .locationLongitude ? 0 : 1] }
            }
            return convert(element ?? .null, column)
        default:
            return Self.position(part) == 0 ? convert(cell, column) : .null
        }
    }

    private mutating func convertPoint(_ cell: JSONValue, _ part: FieldPart, _ column: PlanColumn) -> CellValue {
        switch cell {
        case .null: return .null
        case .string(let wkt) where part != .pointGeometry:
            if wkt.isEmpty { return .null }
            guard let value = Self.wktCoordinate(wkt, part == .pointLongitude ? 0 : 1) else {
                return invalidCell(column, cell)
            }
            return .real(value)
        case .object:
            let coordinates = Self.coordinates(cell)
            if part == .pointGeometry {
                if case .string("Point")? = Self.lastMember(cell, "type"), let coordinates,
                   case .number(let x) = coordinates[0], case .number(let y) = coordinates[1] {
                    return .text("POINT (\(x) \(y))")
                }
                return .text(cell.jsonText)
            }
            return convert(coordinates.map { $0[part == .pointLongitude ? 0 : 1] } ?? .null, column)
        default:
            return part == .pointGeometry ? convert(cell, column) : .null
        }
    }

    private static func wktCoordinate(_ wkt: String, _ axis: Int) -> Double? {
        guard let open = wkt.firstIndex(of: "("), let close = wkt.lastIndex(of: ")"), open < close,
              wkt[..<open].trimmingCharacters(in: .whitespaces).uppercased().hasPrefix("POINT") else { return nil }
        var numbers: [Double] = []
        for token in wkt[wkt.index(after: open)..<close].split(whereSeparator: { $0 == " " || $0 == "," }) {
            guard isDecimal(String(token)), let value = Double(token), value.isFinite else { return nil }
            numbers.append(value)
        }
        return numbers.count >= 2 ? numbers[axis] : nil
    }
}
