import SocloadCore

/// A geometry of a table written as GeoParquet 1.1 asks: WKB in a BYTE_ARRAY column, its
/// bounding box in a covering struct column (`xmin`, `ymin`, `xmax`, `ymax`: row groups skipped
/// by area), and what the `geo` metadata says of it (the kinds of shape, the file's bbox). Its
/// values come from the table's WKT or GeoJSON column, or from a location's latitude and longitude.
struct GeoColumn {
    enum Source {
        /// WKT or GeoJSON text in this column of the row.
        case text(Int)
        /// A point from these columns of the row.
        case point(latitude: Int, longitude: Int)
    }

    let name: String
    let source: Source
    /// The one kind its values are (a single shape goes into a collection of one); nil: any.
    let kind: Geometry.Kind?
    let bboxName: String
    private(set) var envelope = Geometry.Envelope.empty
    private(set) var types: Set<Geometry.Kind> = []
    /// Values that were no geometry (or not of its kind), written as NULL.
    private(set) var invalid = 0

    init(name: String, source: Source, kind: Geometry.Kind?, bboxName: String) {
        (self.name, self.source, self.kind, self.bboxName) = (name, source, kind, bboxName)
    }

    /// The geometry column, then its covering.
    var fields: [ParquetField] {
        [.column(name, .byteArray),
         .group(bboxName, ["xmin", "ymin", "xmax", "ymax"].map { ParquetField.column($0, .double, optional: false) })]
    }

    /// Writes the row's geometry into `geometry` and its box into `box` (four buffers), or NULL.
    mutating func write(_ row: any ResultRow, geometry: ColumnChunkBuffer, box: ArraySlice<ColumnChunkBuffer>) {
        guard let shape = self.geometry(of: row) else {
            geometry.appendNull()
            for buffer in box { buffer.appendNull() }
            return
        }
        let bounds = shape.envelope
        shape.wellKnownBinary().withUnsafeBytes { geometry.append(bytes: $0) }
        for (buffer, value) in zip(box, [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY]) { buffer.append(double: value) }
        envelope.add(bounds)
        types.insert(shape.kind)
    }

    private mutating func geometry(of row: any ResultRow) -> Geometry? {
        var found: Geometry?
        var present = false
        switch source {
        case .text(let index):
            present = row.kind(index) != .null
            if row.kind(index) == .text { found = row.withBytes(index) { Geometry(text: $0.bindMemory(to: UInt8.self)) } }
        case let (.point(latitude, longitude)):
            present = row.kind(latitude) != .null && row.kind(longitude) != .null
            if let lat = Self.number(row, latitude), let lon = Self.number(row, longitude) {
                found = Geometry.point(longitude: lon, latitude: lat)
            }
        }
        if let kind, let shape = found { found = shape.promoted(to: kind) }
        if found == nil, present { invalid += 1 }
        return found
    }

    private static func number(_ row: any ResultRow, _ column: Int) -> Double? {
        switch row.kind(column) {
        case .integer: return Double(row.integer(column))
        case .real: return row.real(column)
        case .text: return row.withBytes(column) { Double(String(decoding: $0, as: UTF8.self)) }
        case .null, .blob: return nil
        }
    }

    /// GeoParquet's name of a kind of shape.
    static func typeName(_ kind: Geometry.Kind) -> String {
        switch kind {
        case .point: return "Point"
        case .lineString: return "LineString"
        case .polygon: return "Polygon"
        case .multiPoint: return "MultiPoint"
        case .multiLineString: return "MultiLineString"
        case .multiPolygon: return "MultiPolygon"
        }
    }

    /// The column's entry in the `geo` metadata (GeoParquet 1.1): WKB, the kinds its values
    /// have, the file's bbox, the covering column; no `crs`: OGC:CRS84, longitude then latitude,
    /// as the specification reads a column without one.
    var metadata: JSONValue {
        var members = [JSONMember(key: "encoding", value: .string("WKB")),
                       JSONMember(key: "geometry_types", value: .array(types.sorted { $0.rawValue < $1.rawValue }.map { .string(Self.typeName($0)) }))]
        if !envelope.isEmpty {
            members.append(JSONMember(key: "bbox", value: .array([envelope.minX, envelope.minY, envelope.maxX, envelope.maxY]
                .map { .number(String($0)) })))
        }
        let covering = ["xmin", "ymin", "xmax", "ymax"].map { JSONMember(key: $0, value: .array([.string(bboxName), .string($0)])) }
        members.append(JSONMember(key: "covering", value: .object([JSONMember(key: "bbox", value: .object(covering))])))
        return .object(members)
    }
}
