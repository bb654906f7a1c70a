/// Reads well-known text for `Geometry`: two coordinates per point.
struct WKTReader {
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

    mutating func geometry() -> (Geometry.Kind, Geometry.Shape)? {
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
