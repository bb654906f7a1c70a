/// GeoPackage's geometry encoding (GeoPackage 1.3, clause 2.1.3): a header (`GP`, version 0,
/// flags, the SRS id, an envelope) followed by ISO WKB. socload writes little-endian, with the
/// `[minx, maxx, miny, maxy]` envelope for every shape but a point (whose envelope is itself);
/// the reading side (`envelope(of:)`, behind the `ST_MinX`... functions the RTree triggers
/// call) takes any standard blob, big- or little-endian, with or without an envelope.
///
///     let blob = GeoPackageBinary.encode(Geometry.point(longitude: -87.6, latitude: 41.8)!)
///     // blob.prefix(2) == [0x47, 0x50] ("GP"); GeoPackageBinary.envelope(of: blob)?.minX == -87.6
public enum GeoPackageBinary {
    /// The SRS every socload geometry is in: WGS 84 longitude/latitude.
    public static let srsID: Int32 = 4326

    /// `envelope`: the geometry's, when the caller has it already (it is not computed again).
    public static func encode(_ geometry: Geometry, envelope known: Geometry.Envelope? = nil, srsID: Int32 = srsID) -> [UInt8] {
        let withEnvelope = geometry.kind != .point
        var bytes: [UInt8] = [0x47, 0x50, 0, withEnvelope ? 0b0000_0011 : 0b0000_0001]
        Geometry.append(srsID, to: &bytes)
        if withEnvelope {
            let envelope = known ?? geometry.envelope
            Geometry.append(envelope.minX, envelope.maxX, to: &bytes)
            Geometry.append(envelope.minY, envelope.maxY, to: &bytes)
        }
        geometry.appendWellKnownBinary(srid: nil, to: &bytes)
        return bytes
    }

    /// What a blob's header says: whether it is empty, and its envelope, read from the header or,
    /// without one there, from the WKB. nil: not a GeoPackage geometry.
    public struct Header: Equatable, Sendable {
        public var isEmpty: Bool
        /// nil for an empty geometry.
        public var envelope: Geometry.Envelope?

        public init(isEmpty: Bool, envelope: Geometry.Envelope?) {
            self.isEmpty = isEmpty
            self.envelope = envelope
        }
    }

    public static func header(of blob: [UInt8]) -> Header? {
        blob.withUnsafeBufferPointer { header(of: $0) }
    }

    /// `header(of:)` of bytes in place (a SQL function's argument), copying none.
    public static func header(of blob: UnsafeBufferPointer<UInt8>) -> Header? {
        var reader = ByteReader(bytes: blob)
        guard reader.bytes.count >= 8, reader.bytes[0] == 0x47, reader.bytes[1] == 0x50, reader.bytes[2] == 0 else { return nil }
        let flags = reader.bytes[3]
        guard flags & 0b0010_0000 == 0 else { return nil }
        let littleEndian = flags & 1 == 1
        let isEmpty = flags & 0b0001_0000 != 0
        let coordinates: Int
        switch (flags >> 1) & 0b111 {
        case 0: coordinates = 0
        case 1: coordinates = 4
        case 2, 3: coordinates = 6
        case 4: coordinates = 8
        default: return nil
        }
        reader.index = 8
        if coordinates > 0 {
            // minx, maxx, miny, maxy, then z and m ranges, which the 2-D envelope does not need.
            guard let minX = reader.double(littleEndian), let maxX = reader.double(littleEndian),
                  let minY = reader.double(littleEndian), let maxY = reader.double(littleEndian) else { return nil }
            return Header(isEmpty: isEmpty, envelope: isEmpty ? nil : Geometry.Envelope(minX: minX, maxX: maxX, minY: minY, maxY: maxY))
        }
        guard !isEmpty else { return Header(isEmpty: true, envelope: nil) }
        reader.index = 8
        var envelope = Geometry.Envelope.empty
        guard reader.scanWellKnownBinary(into: &envelope, depth: 0) else { return nil }
        guard !envelope.isEmpty else { return Header(isEmpty: true, envelope: nil) }
        return Header(isEmpty: false, envelope: envelope)
    }

    /// Reads WKB for its points' extent: ISO types 1-7 with Z, M or ZM (1000s), either byte order.
    private struct ByteReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        /// The next `T`, in the byte order given.
        mutating func bits<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type, _ littleEndian: Bool) -> T? {
            let size = MemoryLayout<T>.size
            guard index + size <= bytes.count else { return nil }
            var value: T = 0
            for offset in 0..<size {
                value |= T(bytes[index + (littleEndian ? offset : size - 1 - offset)]) << (8 * offset)
            }
            index += size
            return value
        }

        mutating func integer(_ littleEndian: Bool) -> UInt32? { bits(UInt32.self, littleEndian) }

        mutating func double(_ littleEndian: Bool) -> Double? { bits(UInt64.self, littleEndian).map(Double.init(bitPattern:)) }

        mutating func scanWellKnownBinary(into envelope: inout Geometry.Envelope, depth: Int) -> Bool {
            guard depth < 32, index < bytes.count, bytes[index] <= 1 else { return false }
            let littleEndian = bytes[index] == 1
            index += 1
            guard let code = integer(littleEndian) else { return false }
            let base = code % 1000
            let dimensions: Int
            switch code / 1000 {
            case 0: dimensions = 2
            case 1, 2: dimensions = 3
            case 3: dimensions = 4
            default: return false
            }
            func point() -> Bool {
                guard let x = double(littleEndian), let y = double(littleEndian) else { return false }
                for _ in 2..<dimensions where double(littleEndian) == nil { return false }
                // An empty point is NaN, NaN.
                if x.isNaN || y.isNaN { return true }
                envelope.add(x: x, y: y)
                return true
            }
            func points() -> Bool {
                guard let count = integer(littleEndian), Int(count) <= (bytes.count - index) / (8 * dimensions) else { return false }
                for _ in 0..<count where !point() { return false }
                return true
            }
            switch base {
            case 1: return point()
            case 2: return points()
            case 3:
                guard let rings = integer(littleEndian), Int(rings) <= bytes.count - index else { return false }
                for _ in 0..<rings where !points() { return false }
                return true
            case 4, 5, 6, 7:
                guard let parts = integer(littleEndian), Int(parts) <= bytes.count - index else { return false }
                for _ in 0..<parts where !scanWellKnownBinary(into: &envelope, depth: depth + 1) { return false }
                return true
            default:
                return false
            }
        }
    }
}
