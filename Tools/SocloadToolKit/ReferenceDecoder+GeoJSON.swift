import SocloadCore

/// The reference's reading of a GeoJSON geometry (as SODA sends lines and polygons): the WKT
/// the rows.json export has, written from the parsed value, to check the converter's byte-level
/// writer (`GeoJSONWKT`) against.
extension ReferenceDecoder {
    /// `MULTIPOLYGON (((0 0, 1 1, 0 1, 0 0)))` for a GeoJSON object of one of the six simple
    /// types with non-empty coordinates of numbers; nil otherwise (the value stays as it came).
    static func wkt(ofGeoJSON cell: JSONValue) -> String? {
        guard case .string(let type)? = lastMember(cell, "type"), let coordinates = lastMember(cell, "coordinates") else {
            return nil
        }
        func position(_ value: JSONValue) -> String? {
            guard case .array(let numbers) = value, numbers.count >= 2 else { return nil }
            var texts: [String] = []
            for number in numbers {
                guard case .number(let text) = number else { return nil }
                texts.append(text)
            }
            return texts.joined(separator: " ")
        }
        func list(_ value: JSONValue, levels: Int, wrapped: Bool) -> String? {
            guard case .array(let elements) = value, !elements.isEmpty else { return nil }
            var texts: [String] = []
            for element in elements {
                if levels > 1 {
                    guard let inner = list(element, levels: levels - 1, wrapped: wrapped) else { return nil }
                    texts.append(inner)
                } else {
                    guard let point = position(element) else { return nil }
                    texts.append(wrapped ? "(\(point))" : point)
                }
            }
            return "(" + texts.joined(separator: ", ") + ")"
        }
        switch type {
        case "Point": return position(coordinates).map { "POINT (\($0))" }
        case "LineString": return list(coordinates, levels: 1, wrapped: false).map { "LINESTRING \($0)" }
        case "Polygon": return list(coordinates, levels: 2, wrapped: false).map { "POLYGON \($0)" }
        case "MultiPoint": return list(coordinates, levels: 1, wrapped: true).map { "MULTIPOINT \($0)" }
        case "MultiLineString": return list(coordinates, levels: 2, wrapped: false).map { "MULTILINESTRING \($0)" }
        case "MultiPolygon": return list(coordinates, levels: 3, wrapped: false).map { "MULTIPOLYGON \($0)" }
        default: return nil
        }
    }
}
