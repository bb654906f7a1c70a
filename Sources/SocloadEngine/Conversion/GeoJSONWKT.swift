import SocloadCore

/// A GeoJSON geometry object — how SODA sends lines, polygons and their multi- forms — written as
/// the WKT the rows.json export has (`MULTIPOLYGON (((-87.6 41.8, -87.5 41.8, ...)))`), each
/// coordinate's digits as they came, so a geometry column holds the same text whichever API
/// loaded it. (Points have their own path, `RowConverter.convertPoint`.)
enum GeoJSONWKT {
    /// The WKT of the GeoJSON object `object` in `bytes`; nil when it is not a geometry of one of
    /// the six simple types with well-formed, non-empty coordinates (it is kept as it came then).
    static func wkt(_ bytes: UnsafeBufferPointer<UInt8>, object: RawCell) -> [UInt8]? {
        var members: [RawMember] = []
        guard (try? RawObjectParser.members(of: bytes, in: object.start..<object.end, into: &members)) != nil else { return nil }
        var type: String?
        var coordinates: RawCell?
        // The last of a key given twice counts; an escaped key or type is read decoded.
        func decoded(_ range: Range<Int>, escaped: Bool) -> [UInt8] {
            guard escaped else { return Array(bytes[range]) }
            var text: [UInt8] = []
            _ = JSONStringUnescaping.append(bytes, range, to: &text)
            return text
        }
        for member in members {
            let key = decoded(member.keyStart..<member.keyEnd, escaped: member.keyIsEscaped)
            if key.elementsEqual("type".utf8) {
                type = member.value.kind == .string
                    ? String(decoding: decoded(member.value.start..<member.value.end, escaped: member.value.isEscaped), as: UTF8.self)
                    : nil
            } else if key.elementsEqual("coordinates".utf8) {
                coordinates = member.value.kind == .array ? member.value : nil
            }
        }
        guard let type, let coordinates else { return nil }
        // The WKT name, the levels of lists above the positions, and whether positions stand in
        // parentheses of their own.
        let shape: (name: String, levels: Int, wrapped: Bool)
        switch type {
        case "Point": shape = ("POINT", 0, true)
        case "LineString": shape = ("LINESTRING", 1, false)
        case "Polygon": shape = ("POLYGON", 2, false)
        case "MultiPoint": shape = ("MULTIPOINT", 1, true)
        case "MultiLineString": shape = ("MULTILINESTRING", 2, false)
        case "MultiPolygon": shape = ("MULTIPOLYGON", 3, false)
        default: return nil
        }
        var text = Array(shape.name.utf8) + [0x20]
        if shape.levels == 0 {
            text.append(UInt8(ascii: "("))
            guard position(coordinates, bytes, into: &text) else { return nil }
            text.append(UInt8(ascii: ")"))
            return text
        }
        return list(coordinates, levels: shape.levels, wrapped: shape.wrapped, bytes, into: &text) ? text : nil
    }

    /// `(a, b, ...)`, each element a list one level down, or (at the last level) a position.
    private static func list(_ cell: RawCell, levels: Int, wrapped: Bool, _ bytes: UnsafeBufferPointer<UInt8>,
                             into text: inout [UInt8]) -> Bool {
        var elements: [RawCell] = []
        guard (try? RawArrayParser.elements(of: bytes, in: cell.start..<cell.end, into: &elements)) != nil, !elements.isEmpty else {
            return false
        }
        text.append(UInt8(ascii: "("))
        for (index, element) in elements.enumerated() {
            if index > 0 { text += [UInt8(ascii: ","), 0x20] }
            if levels > 1 {
                guard element.kind == .array, list(element, levels: levels - 1, wrapped: wrapped, bytes, into: &text) else { return false }
            } else {
                if wrapped { text.append(UInt8(ascii: "(")) }
                guard position(element, bytes, into: &text) else { return false }
                if wrapped { text.append(UInt8(ascii: ")")) }
            }
        }
        text.append(UInt8(ascii: ")"))
        return true
    }

    /// `x y` (and z, m) from `[x, y, ...]`, the numbers' text as it came.
    private static func position(_ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>, into text: inout [UInt8]) -> Bool {
        guard cell.kind == .array else { return false }
        var numbers: [RawCell] = []
        guard (try? RawArrayParser.elements(of: bytes, in: cell.start..<cell.end, into: &numbers)) != nil, numbers.count >= 2,
              numbers.allSatisfy({ $0.kind == .number }) else { return false }
        for (index, number) in numbers.enumerated() {
            if index > 0 { text.append(0x20) }
            text += bytes[number.start..<number.end]
        }
        return true
    }
}
