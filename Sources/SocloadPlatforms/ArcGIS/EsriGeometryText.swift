import SocloadCore

/// An ArcGIS REST geometry (`{"x", "y"}`, `{"points"}`, `{"paths"}`, `{"rings"}`) as WKT in
/// longitude and latitude (the query asks `outSR=4326`), each coordinate's digits as they came;
/// a z or m value is left out. A polyline is a MULTILINESTRING and a polygon a MULTIPOLYGON, so
/// a layer's column holds one kind. Esri's outer rings run clockwise and its holes the other
/// way: each hole goes with the outer ring that holds its first point. Nil: no geometry (a
/// feature without one, `"x": "NaN"`, an empty shape); `malformed` is set when there was one
/// that could not be read.
enum EsriGeometryText {
    static func wkt(_ geometry: JSONValue?, malformed: inout Bool) -> String? {
        guard let geometry, !geometry.isNull else { return nil }
        func point(_ value: JSONValue) -> (text: String, x: Double, y: Double)? {
            guard let pair = value.arrayValue, pair.count >= 2, case .number(let x) = pair[0], case .number(let y) = pair[1],
                  let dx = Double(x), let dy = Double(y) else { return nil }
            return ("\(x) \(y)", dx, dy)
        }
        func path(_ value: JSONValue) -> [(text: String, x: Double, y: Double)]? {
            guard let points = value.arrayValue else { return nil }
            let read = points.compactMap(point)
            return read.count == points.count ? read : nil
        }
        if let x = geometry["x"] {
            guard case .number(let xText) = x, case .number(let yText)? = geometry["y"] else {
                if x.isNull || x.stringValue == "NaN" { return nil }
                malformed = true
                return nil
            }
            return "POINT (\(xText) \(yText))"
        }
        if let points = geometry["points"]?.arrayValue {
            guard let read = path(.array(points)) else { malformed = true; return nil }
            return read.isEmpty ? nil : "MULTIPOINT (" + read.map { "(\($0.text))" }.joined(separator: ", ") + ")"
        }
        if let paths = geometry["paths"]?.arrayValue {
            let read = paths.compactMap(path)
            guard read.count == paths.count, read.allSatisfy({ $0.count >= 2 }) else { malformed = true; return nil }
            return read.isEmpty ? nil : "MULTILINESTRING (" + read.map { "(" + $0.map(\.text).joined(separator: ", ") + ")" }
                .joined(separator: ", ") + ")"
        }
        if let rings = geometry["rings"]?.arrayValue {
            let read = rings.compactMap(path)
            guard read.count == rings.count, read.allSatisfy({ $0.count >= 4 }) else { malformed = true; return nil }
            return read.isEmpty ? nil : multiPolygon(read)
        }
        malformed = true
        return nil
    }

    private typealias Ring = [(text: String, x: Double, y: Double)]

    /// Rings grouped into polygons: clockwise ones (negative signed area) begin a polygon, the
    /// others are holes of the polygon that holds their first point (else of the last one). With
    /// no clockwise ring at all every ring is a polygon of its own.
    private static func multiPolygon(_ rings: [Ring]) -> String {
        var polygons: [[Ring]] = []
        let outer = rings.map { signedArea($0) < 0 }
        if !outer.contains(true) {
            polygons = rings.map { [$0] }
        } else {
            for (ring, isOuter) in zip(rings, outer) where isOuter { polygons.append([ring]) }
            for (ring, isOuter) in zip(rings, outer) where !isOuter {
                let holder = polygons.lastIndex { contains($0[0], ring[0]) } ?? polygons.count - 1
                polygons[holder].append(ring)
            }
        }
        return "MULTIPOLYGON (" + polygons.map { polygon in
            "(" + polygon.map { "(" + $0.map(\.text).joined(separator: ", ") + ")" }.joined(separator: ", ") + ")"
        }.joined(separator: ", ") + ")"
    }

    private static func signedArea(_ ring: Ring) -> Double {
        var sum = 0.0
        for index in ring.indices.dropLast() {
            sum += ring[index].x * ring[index + 1].y - ring[index + 1].x * ring[index].y
        }
        return sum / 2
    }

    /// Even-odd test of `point` against `ring`.
    private static func contains(_ ring: Ring, _ point: (text: String, x: Double, y: Double)) -> Bool {
        var inside = false
        var previous = ring[ring.count - 1]
        for current in ring {
            if (current.y > point.y) != (previous.y > point.y),
               point.x < (previous.x - current.x) * (point.y - current.y) / (previous.y - current.y) + current.x {
                inside.toggle()
            }
            previous = current
        }
        return inside
    }
}
