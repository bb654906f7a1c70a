import SocloadCore
import Foundation

/// Geometries as PostGIS reads them in binary COPY: extended well-known binary (EWKB) with
/// SRID 4326, little-endian, two dimensions. Written from the WKT a rows.json export gives
/// (`POINT (-87.6 41.8)`, `MULTIPOLYGON (((...)))`) or the GeoJSON a SODA response gives
/// (`{"type":"Point","coordinates":[-87.6,41.8]}`), or from a latitude and a longitude.
/// Anything else (three dimensions, EMPTY, a collection, malformed text) gives nil.
enum WellKnownBinary {
    static let srid: UInt32 = 4326

    enum Kind: UInt32 {
        case point = 1, lineString, polygon, multiPoint, multiLineString, multiPolygon
    }

    /// A geometry's shape: one point, a list of points, a list of lists...
    indirect enum Shape {
        case point(Double, Double)
        case points([(Double, Double)])
        case rings([[(Double, Double)]])
        case polygons([[[(Double, Double)]]])
    }

    static func point(longitude: Double, latitude: Double) -> [UInt8]? {
        guard longitude.isFinite, latitude.isFinite else { return nil }
        return encode(.point, .point(longitude, latitude))
    }

    /// WKT or GeoJSON text.
    static func geometry(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var start = 0
        while start < text.count, text[start] <= 0x20 { start += 1 }
        guard start < text.count else { return nil }
        if text[start] == UInt8(ascii: "{") { return geoJSON(text) }
        var reader = WKTReader(bytes: text, index: start)
        guard let (kind, shape) = reader.geometry(), reader.atEnd else { return nil }
        return encode(kind, shape)
    }

    // MARK: - Encoding

    static func encode(_ kind: Kind, _ shape: Shape) -> [UInt8] {
        var bytes: [UInt8] = [1]
        append(kind.rawValue | 0x2000_0000, to: &bytes)
        append(srid, to: &bytes)
        body(kind, shape, into: &bytes)
        return bytes
    }

    private static func body(_ kind: Kind, _ shape: Shape, into bytes: inout [UInt8]) {
        switch (kind, shape) {
        case let (.point, .point(x, y)):
            append(x, y, to: &bytes)
        case let (.lineString, .points(points)):
            appendPoints(points, to: &bytes)
        case let (.polygon, .rings(rings)):
            append(UInt32(rings.count), to: &bytes)
            for ring in rings { appendPoints(ring, to: &bytes) }
        case let (.multiPoint, .points(points)):
            append(UInt32(points.count), to: &bytes)
            for (x, y) in points {
                bytes.append(1)
                append(Kind.point.rawValue, to: &bytes)
                append(x, y, to: &bytes)
            }
        case let (.multiLineString, .rings(lines)):
            append(UInt32(lines.count), to: &bytes)
            for line in lines {
                bytes.append(1)
                append(Kind.lineString.rawValue, to: &bytes)
                appendPoints(line, to: &bytes)
            }
        case let (.multiPolygon, .polygons(polygons)):
            append(UInt32(polygons.count), to: &bytes)
            for rings in polygons {
                bytes.append(1)
                append(Kind.polygon.rawValue, to: &bytes)
                append(UInt32(rings.count), to: &bytes)
                for ring in rings { appendPoints(ring, to: &bytes) }
            }
        default:
            break
        }
    }

    private static func appendPoints(_ points: [(Double, Double)], to bytes: inout [UInt8]) {
        append(UInt32(points.count), to: &bytes)
        for (x, y) in points { append(x, y, to: &bytes) }
    }

    private static func append(_ x: Double, _ y: Double, to bytes: inout [UInt8]) {
        append(x.bitPattern, to: &bytes)
        append(y.bitPattern, to: &bytes)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        Swift.withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    // MARK: - GeoJSON

    private static func geoJSON(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard case .object(let members)? = JSONValueParser.value(of: text),
              case .string(let type)? = members.first(where: { $0.key == "type" })?.value,
              let coordinates = members.first(where: { $0.key == "coordinates" })?.value else { return nil }
        func position(_ value: JSONValue) -> (Double, Double)? {
            guard case .array(let numbers) = value, numbers.count == 2,
                  case .number(let x) = numbers[0], case .number(let y) = numbers[1],
                  let longitude = Double(x), let latitude = Double(y), longitude.isFinite, latitude.isFinite else { return nil }
            return (longitude, latitude)
        }
        func list<T>(_ value: JSONValue, _ element: (JSONValue) -> T?) -> [T]? {
            guard case .array(let elements) = value, !elements.isEmpty else { return nil }
            var result: [T] = []
            for item in elements {
                guard let converted = element(item) else { return nil }
                result.append(converted)
            }
            return result
        }
        switch type {
        case "Point": return position(coordinates).map { encode(.point, .point($0.0, $0.1)) }
        case "LineString": return list(coordinates, position).map { encode(.lineString, .points($0)) }
        case "Polygon": return list(coordinates, { list($0, position) }).map { encode(.polygon, .rings($0)) }
        case "MultiPoint": return list(coordinates, position).map { encode(.multiPoint, .points($0)) }
        case "MultiLineString": return list(coordinates, { list($0, position) }).map { encode(.multiLineString, .rings($0)) }
        case "MultiPolygon":
            return list(coordinates, { list($0, { list($0, position) }) }).map { encode(.multiPolygon, .polygons($0)) }
        default: return nil
        }
    }
}

/// Reads well-known text: `TYPE ( ... )`, two coordinates per point.
private struct WKTReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return index == bytes.count
        }
    }

    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] <= 0x20 { index += 1 }
    }

    mutating func take(_ character: UInt8) -> Bool {
        skipSpaces()
        guard index < bytes.count, bytes[index] == character else { return false }
        index += 1
        return true
    }

    mutating func word() -> String {
        skipSpaces()
        let start = index
        while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"), (bytes[index] | 0x20) <= UInt8(ascii: "z") { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
    }

    mutating func number() -> Double? {
        skipSpaces()
        let start = index
        while index < bytes.count, bytes[index] > 0x20, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: ")") {
            index += 1
        }
        guard index > start, index - start < 40 else { return nil }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// `x y`
    mutating func position() -> (Double, Double)? {
        guard let x = number(), let y = number() else { return nil }
        return (x, y)
    }

    /// `( item, item, ... )`
    mutating func list<T>(_ item: (inout WKTReader) -> T?) -> [T]? {
        guard take(UInt8(ascii: "(")) else { return nil }
        var items: [T] = []
        repeat {
            guard let value = item(&self) else { return nil }
            items.append(value)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: ")")) ? items : nil
    }

    mutating func geometry() -> (WellKnownBinary.Kind, WellKnownBinary.Shape)? {
        let type = word()
        switch type {
        case "POINT":
            guard take(UInt8(ascii: "(")), let point = position(), take(UInt8(ascii: ")")) else { return nil }
            return (.point, .point(point.0, point.1))
        case "LINESTRING":
            return list { $0.position() }.map { (.lineString, .points($0)) }
        case "POLYGON":
            return list { $0.list { $0.position() } }.map { (.polygon, .rings($0)) }
        case "MULTIPOINT":
            // Both `MULTIPOINT ((1 2), (3 4))` and `MULTIPOINT (1 2, 3 4)`.
            let saved = index
            if let points = list({ reader -> (Double, Double)? in
                guard reader.take(UInt8(ascii: "(")), let point = reader.position(), reader.take(UInt8(ascii: ")")) else { return nil }
                return point
            }) {
                return (.multiPoint, .points(points))
            }
            index = saved
            return list { $0.position() }.map { (.multiPoint, .points($0)) }
        case "MULTILINESTRING":
            return list { $0.list { $0.position() } }.map { (.multiLineString, .rings($0)) }
        case "MULTIPOLYGON":
            return list { $0.list { $0.list { $0.position() } } }.map { (.multiPolygon, .polygons($0)) }
        default:
            return nil
        }
    }
}
