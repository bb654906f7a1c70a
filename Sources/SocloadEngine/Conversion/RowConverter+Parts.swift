import SocloadCore
import Foundation

/// The parts of compound Socrata values: location, url and phone arrays (rows.json) or objects
/// (SODA), and points as WKT or GeoJSON.
extension RowConverter {
    package mutating func convertPart(_ cell: RawCell, _ part: FieldPart, _ position: Int, _ type: LogicalType,
                              _ column: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ batch: inout RowBatch) throws {
        switch part {
        case .pointGeometry, .pointLongitude, .pointLatitude:
            return try convertPoint(cell, part, type, column, bytes, &batch)
        default:
            break
        }
        switch cell.kind {
        case .null:
            batch.values.append(.null)
        case .array:
            parts.removeAll(keepingCapacity: true)
            try? RawArrayParser.elements(of: bytes, in: cell.start..<cell.end, into: &parts)
            try convert(position < parts.count ? parts[position] : Self.nullCell, type, column, bytes, &batch)
        case .object:
            parseMembers(of: cell, bytes)
            var element = member(part.memberName, bytes)
            if element == nil, part == .locationLatitude || part == .locationLongitude {
                // SODA3 may give a location as GeoJSON: coordinates [longitude, latitude].
                element = coordinate(part == .locationLongitude ? 0 : 1, bytes)
            }
            try convert(element ?? Self.nullCell, type, column, bytes, &batch)
        default:
            // A location as CSV exports write it: `ADDRESS\nCITY, ST ZIP\n(lat, lon)`, or just `(lat, lon)`.
            if cell.kind == .string, part == .locationAddress || part == .locationLatitude || part == .locationLongitude,
               let (address, latitude, longitude) = Self.locationText(cell, bytes) {
                let value = part == .locationAddress ? address : part == .locationLatitude ? latitude : longitude
                return try convert(value, type, column, bytes, &batch)
            }
            // A plain value: it is the main part; the others are absent.
            if Self.position(of: part) == 0 {
                try convert(cell, type, column, bytes, &batch)
            } else {
                batch.values.append(.null)
            }
        }
    }

    /// A location string's address (NULL when there is none) and the latitude and longitude of
    /// the `(lat, lon)` it ends with, each as a cell of the same bytes; nil when it ends otherwise.
    package static func locationText(_ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>) -> (RawCell, RawCell, RawCell)? {
        var end = cell.end
        while end > cell.start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        guard end > cell.start, bytes[end - 1] == UInt8(ascii: ")"),
              let open = (cell.start..<end).last(where: { bytes[$0] == UInt8(ascii: "(") }),
              let comma = (open..<end).first(where: { bytes[$0] == UInt8(ascii: ",") }) else { return nil }
        func trimmed(_ range: Range<Int>) -> RawCell {
            var lower = range.lowerBound, upper = range.upperBound
            while lower < upper, bytes[lower] == UInt8(ascii: " ") { lower += 1 }
            while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") { upper -= 1 }
            return RawCell(kind: .string, start: lower, end: upper, isEscaped: false, isNonASCII: false)
        }
        let latitude = trimmed(open + 1..<comma), longitude = trimmed(comma + 1..<end - 1)
        guard [latitude, longitude].allSatisfy({ cell in
            cell.end > cell.start && DecimalSyntax.isDecimal(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end]))
        }) else { return nil }
        // The address: what comes before, without the line breaks (escaped: `\n`) and spaces between.
        var addressEnd = open
        while addressEnd > cell.start {
            if bytes[addressEnd - 1] == UInt8(ascii: " ") { addressEnd -= 1; continue }
            if addressEnd - cell.start >= 2, bytes[addressEnd - 2] == UInt8(ascii: "\\"),
               bytes[addressEnd - 1] == UInt8(ascii: "n") || bytes[addressEnd - 1] == UInt8(ascii: "r") {
                addressEnd -= 2
                continue
            }
            break
        }
        let address = addressEnd == cell.start ? nullCell
            : RawCell(kind: .string, start: cell.start, end: addressEnd, isEscaped: cell.isEscaped, isNonASCII: cell.isNonASCII)
        return (address, latitude, longitude)
    }

    /// The members of the object `cell` into `members`, unless they are there already (the
    /// value's previous part read them).
    private mutating func parseMembers(of cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard membersOf != cell.start..<cell.end else { return }
        members.removeAll(keepingCapacity: true)
        try? RawObjectParser.members(of: bytes, in: cell.start..<cell.end, into: &members)
        membersOf = cell.start..<cell.end
    }

    /// Where a part sits in the array when `subColumnTypes` does not say.
    package static func position(of part: FieldPart) -> Int {
        switch part {
        case .locationAddress, .url, .phoneNumber, .pointGeometry: return 0
        case .locationLatitude, .urlDescription, .phoneType, .pointLongitude: return 1
        case .locationLongitude, .pointLatitude: return 2
        }
    }

    /// The value of the member `name` among `members`, if present.
    package func member(_ name: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> RawCell? {
        let name = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        var found: RawCell?
        for member in members {
            let key = UnsafeBufferPointer(rebasing: bytes[member.keyStart..<member.keyEnd])
            let matches: Bool
            if member.keyIsEscaped {
                var decoded: [UInt8] = []
                _ = JSONStringUnescaping.append(bytes, member.keyStart..<member.keyEnd, to: &decoded)
                matches = decoded.elementsEqual(name)
            } else {
                matches = key.elementsEqual(name)
            }
            if matches { found = member.value }
        }
        return found
    }

    /// Element `index` of the `coordinates` array among `members`, if there is one.
    package mutating func coordinate(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> RawCell? {
        guard let coordinates = member("coordinates", bytes), coordinates.kind == .array else { return nil }
        parts.removeAll(keepingCapacity: true)
        try? RawArrayParser.elements(of: bytes, in: coordinates.start..<coordinates.end, into: &parts)
        return parts.count >= 2 ? parts[index] : nil
    }

    /// A point as WKT `POINT (lon lat)`, plus its longitude and latitude. A GeoJSON point (as SODA
    /// sends it) becomes the same WKT the rows.json export has, digits unchanged.
    private mutating func convertPoint(_ cell: RawCell, _ part: FieldPart, _ type: LogicalType, _ column: Int,
                                       _ bytes: UnsafeBufferPointer<UInt8>, _ batch: inout RowBatch) throws {
        let axis = part == .pointLongitude ? 0 : 1
        switch cell.kind {
        case .null:
            batch.values.append(.null)
        case .string where part != .pointGeometry:
            if cell.start == cell.end { return batch.values.append(.null) }
            guard let value = Self.withContent(cell, bytes, { Self.wktCoordinate($0, axis) }) else {
                return try invalidCell(column, cell, bytes, &batch)
            }
            batch.values.append(.real(value))
        case .object:
            parseMembers(of: cell, bytes)
            let isPoint = member("type", bytes).map { Self.withContent($0, bytes) { $0.elementsEqual("Point".utf8) } } ?? false
            let x = coordinate(0, bytes)
            let y = coordinate(1, bytes)
            if part == .pointGeometry {
                if isPoint, let x, let y, x.kind == .number, y.kind == .number {
                    batch.appendBytes(Array("POINT (".utf8) + Array(UnsafeBufferPointer(rebasing: bytes[x.start..<x.end]))
                                      + [0x20] + Array(UnsafeBufferPointer(rebasing: bytes[y.start..<y.end])) + [0x29])
                } else {
                    appendText(cell, bytes, &batch)
                }
            } else {
                try convert((axis == 0 ? x : y) ?? Self.nullCell, type, column, bytes, &batch)
            }
        default:
            if part == .pointGeometry {
                try convert(cell, type, column, bytes, &batch)
            } else {
                batch.values.append(.null)
            }
        }
    }

    /// Coordinate `axis` (0: x, 1: y) of `POINT (x y)` (any case; Z and M values may follow);
    /// nil when the text is no such point.
    package static func wktCoordinate(_ text: UnsafeBufferPointer<UInt8>, _ axis: Int) -> Double? {
        guard let open = text.firstIndex(of: UInt8(ascii: "(")), let close = text.lastIndex(of: UInt8(ascii: ")")),
              open < close else { return nil }
        let head = String(decoding: UnsafeBufferPointer(rebasing: text[0..<open]), as: UTF8.self)
        guard head.trimmingCharacters(in: .whitespaces).uppercased().hasPrefix("POINT") else { return nil }
        var numbers: [Double] = []
        var start = open + 1
        for index in (open + 1)...close {
            let byte = text[index]
            guard byte == 0x20 || byte == UInt8(ascii: ",") || index == close else { continue }
            if index > start {
                let token = UnsafeBufferPointer(rebasing: text[start..<index])
                guard DecimalSyntax.isDecimal(token), let value = DecimalText.parseReal(token), value.isFinite else { return nil }
                numbers.append(value)
            }
            start = index + 1
        }
        return numbers.count >= 2 ? numbers[axis] : nil
    }
}

extension FieldPart {
    /// The member a part is in a SODA object (`{"latitude": ..., "human_address": ...}`).
    package var memberName: StaticString {
        switch self {
        case .locationAddress: return "human_address"
        case .locationLatitude: return "latitude"
        case .locationLongitude: return "longitude"
        case .url: return "url"
        case .urlDescription: return "description"
        case .phoneNumber: return "phone_number"
        case .phoneType: return "phone_type"
        case .pointGeometry: return "point"
        case .pointLongitude: return "point_longitude"
        case .pointLatitude: return "point_latitude"
        }
    }
}
