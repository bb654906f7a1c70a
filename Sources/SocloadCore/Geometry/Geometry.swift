/// A two-dimensional geometry in longitude and latitude (EPSG:4326), read once from the WKT a
/// rows.json export gives (`POINT (-87.6 41.8)`, `MULTIPOLYGON (((...)))`), the GeoJSON a SODA
/// response gives (`{"type":"Point","coordinates":[-87.6,41.8]}`), or a latitude and a
/// longitude, and written as each database reads it: extended WKB for PostGIS
/// (`wellKnownBinary(srid:)`), GeoPackage binary for a GeoPackage (`geoPackageBinary()`).
/// Anything else (three dimensions, EMPTY, a collection, malformed text) is no geometry (nil).
///
///     let text = Array("POINT (-87.6 41.8)".utf8)
///     let point = text.withUnsafeBufferPointer { Geometry(text: $0) }
///     // point?.kind == .point, point?.envelope.minX == -87.6
public struct Geometry: Sendable {
    /// The ISO WKB type codes (and the GeoPackage geometry type names).
    public enum Kind: UInt32, Sendable, CaseIterable {
        case point = 1, lineString, polygon, multiPoint, multiLineString, multiPolygon

        /// As GeoPackage and WKT name it: `POINT`, `MULTIPOLYGON`...
        public var name: String {
            switch self {
            case .point: return "POINT"
            case .lineString: return "LINESTRING"
            case .polygon: return "POLYGON"
            case .multiPoint: return "MULTIPOINT"
            case .multiLineString: return "MULTILINESTRING"
            case .multiPolygon: return "MULTIPOLYGON"
            }
        }

        /// The kind a Socrata column type holds (`multipolygon` → `.multiPolygon`); nil for
        /// one that is not a shape, or says nothing more than "a geometry".
        public init?(socrataType: String) {
            switch socrataType.lowercased() {
            case "point": self = .point
            case "line", "linestring": self = .lineString
            case "polygon": self = .polygon
            case "multipoint": self = .multiPoint
            case "multiline", "multilinestring": self = .multiLineString
            case "multipolygon": self = .multiPolygon
            default: return nil
            }
        }
    }

    /// A geometry's coordinates: one point, a list of points, a list of lists...
    indirect enum Shape: Sendable {
        case point(Double, Double)
        case points([Position])
        case rings([[Position]])
        case polygons([[[Position]]])
    }

    typealias Position = (Double, Double)

    /// The smallest rectangle holding every point.
    public struct Envelope: Sendable, Equatable {
        public var minX, maxX, minY, maxY: Double

        public init(minX: Double, maxX: Double, minY: Double, maxY: Double) {
            (self.minX, self.maxX, self.minY, self.maxY) = (minX, maxX, minY, maxY)
        }

        /// Holds nothing yet: any point or envelope added is the whole of it.
        public static let empty = Envelope(minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity)

        /// False for `empty`.
        public var isEmpty: Bool { minX > maxX }

        /// Grows to hold the point `x`, `y`.
        public mutating func add(x: Double, y: Double) {
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = max(maxY, y)
        }

        /// Grows to hold `other`.
        public mutating func add(_ other: Envelope) {
            add(x: other.minX, y: other.minY)
            add(x: other.maxX, y: other.maxY)
        }
    }

    public let kind: Kind
    let shape: Shape

    init(kind: Kind, shape: Shape) {
        self.kind = kind
        self.shape = shape
    }

    /// A point; nil when a coordinate is not finite.
    public static func point(longitude: Double, latitude: Double) -> Geometry? {
        guard longitude.isFinite, latitude.isFinite else { return nil }
        return Geometry(kind: .point, shape: .point(longitude, latitude))
    }

    /// WKT or GeoJSON text; nil when it is neither, or a shape this type does not hold.
    public init?(text: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while start < text.count, text[start] <= 0x20 { start += 1 }
        guard start < text.count else { return nil }
        if text[start] == UInt8(ascii: "{") {
            guard let geometry = Self.geoJSON(text) else { return nil }
            self = geometry
            return
        }
        var reader = WKTReader(bytes: text, index: start)
        guard let (kind, shape) = reader.geometry(), reader.atEnd else { return nil }
        self.init(kind: kind, shape: shape)
    }

    /// This geometry as one of `kind`: itself, or a single shape as a collection of one
    /// (a polygon in a multipolygon column); nil when it cannot be one.
    public func promoted(to kind: Kind) -> Geometry? {
        switch (self.kind, kind, shape) {
        case _ where self.kind == kind: return self
        case let (.point, .multiPoint, .point(x, y)): return Geometry(kind: kind, shape: .points([(x, y)]))
        case let (.lineString, .multiLineString, .points(line)): return Geometry(kind: kind, shape: .rings([line]))
        case let (.polygon, .multiPolygon, .rings(rings)): return Geometry(kind: kind, shape: .polygons([rings]))
        default: return nil
        }
    }

    public var envelope: Envelope {
        var envelope = Envelope.empty
        func add(_ point: Position) { envelope.add(x: point.0, y: point.1) }
        switch shape {
        case let .point(x, y): add((x, y))
        case .points(let points): points.forEach(add)
        case .rings(let rings): rings.forEach { $0.forEach(add) }
        case .polygons(let polygons): polygons.forEach { $0.forEach { $0.forEach(add) } }
        }
        return envelope
    }

    // MARK: - Well-known binary

    /// Little-endian WKB: ISO (as GeoPackage wants it) without `srid`, PostGIS's extended WKB
    /// (the SRID flag and the SRID after the type) with one.
    public func wellKnownBinary(srid: UInt32? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        appendWellKnownBinary(srid: srid, to: &bytes)
        return bytes
    }

    func appendWellKnownBinary(srid: UInt32?, to bytes: inout [UInt8]) {
        bytes.append(1)
        if let srid {
            Self.append(kind.rawValue | 0x2000_0000, to: &bytes)
            Self.append(srid, to: &bytes)
        } else {
            Self.append(kind.rawValue, to: &bytes)
        }
        body(into: &bytes)
    }

    private func body(into bytes: inout [UInt8]) {
        switch (kind, shape) {
        case let (.point, .point(x, y)):
            Self.append(x, y, to: &bytes)
        case let (.lineString, .points(points)):
            Self.appendPoints(points, to: &bytes)
        case let (.polygon, .rings(rings)):
            Self.append(UInt32(rings.count), to: &bytes)
            for ring in rings { Self.appendPoints(ring, to: &bytes) }
        case let (.multiPoint, .points(points)):
            Self.append(UInt32(points.count), to: &bytes)
            for (x, y) in points { Geometry(kind: .point, shape: .point(x, y)).appendWellKnownBinary(srid: nil, to: &bytes) }
        case let (.multiLineString, .rings(lines)):
            Self.append(UInt32(lines.count), to: &bytes)
            for line in lines { Geometry(kind: .lineString, shape: .points(line)).appendWellKnownBinary(srid: nil, to: &bytes) }
        case let (.multiPolygon, .polygons(polygons)):
            Self.append(UInt32(polygons.count), to: &bytes)
            for rings in polygons { Geometry(kind: .polygon, shape: .rings(rings)).appendWellKnownBinary(srid: nil, to: &bytes) }
        default:
            break
        }
    }

    private static func appendPoints(_ points: [Position], to bytes: inout [UInt8]) {
        append(UInt32(points.count), to: &bytes)
        for (x, y) in points { append(x, y, to: &bytes) }
    }

    static func append(_ x: Double, _ y: Double, to bytes: inout [UInt8]) {
        append(x.bitPattern, to: &bytes)
        append(y.bitPattern, to: &bytes)
    }

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        Swift.withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    // MARK: - GeoJSON

    private static func geoJSON(_ text: UnsafeBufferPointer<UInt8>) -> Geometry? {
        guard case .object(let members)? = JSONValueParser.value(of: text),
              case .string(let type)? = members.first(where: { $0.key == "type" })?.value,
              let coordinates = members.first(where: { $0.key == "coordinates" })?.value else { return nil }
        func position(_ value: JSONValue) -> Position? {
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
        case "Point": return position(coordinates).map { Geometry(kind: .point, shape: .point($0.0, $0.1)) }
        case "LineString": return list(coordinates, position).map { Geometry(kind: .lineString, shape: .points($0)) }
        case "Polygon": return list(coordinates, { list($0, position) }).map { Geometry(kind: .polygon, shape: .rings($0)) }
        case "MultiPoint": return list(coordinates, position).map { Geometry(kind: .multiPoint, shape: .points($0)) }
        case "MultiLineString":
            return list(coordinates, { list($0, position) }).map { Geometry(kind: .multiLineString, shape: .rings($0)) }
        case "MultiPolygon":
            return list(coordinates, { list($0, { list($0, position) }) }).map { Geometry(kind: .multiPolygon, shape: .polygons($0)) }
        default: return nil
        }
    }
}

/// Kept by name in a saved plan (`"MULTIPOLYGON"`).
extension Geometry.Kind: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let kind = Self.allCases.first(where: { $0.name == name }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no geometry kind \(name)")
        }
        self = kind
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
