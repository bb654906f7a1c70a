import Foundation
import SocloadCore
import SocloadDatabase
import XCTest

/// GeoPackage geometry blobs: what socload writes (little-endian, an envelope but for points,
/// ISO WKB), and the header reading behind the `ST_*` functions every connection has, on blobs
/// of the other forms the standard allows (big-endian, no envelope, Z, empty).
final class GeoPackageBinaryTests: XCTestCase {
    private func geometry(_ text: String) -> Geometry? {
        Array(text.utf8).withUnsafeBufferPointer { Geometry(text: $0) }
    }

    func testWrittenBlobsHaveTheStandardHeaderAndISOWellKnownBinary() throws {
        let point = try XCTUnwrap(geometry("POINT (-87.6 41.8)"))
        let blob = GeoPackageBinary.encode(point)
        XCTAssertEqual(Array(blob.prefix(8)), [0x47, 0x50, 0, 0b01, 0xE6, 0x10, 0, 0], "GP, version 0, little-endian, no envelope, 4326")
        XCTAssertEqual(Array(blob[8..<13]), [1, 1, 0, 0, 0], "ISO WKB: byte order, type 1 (no SRID flag)")
        XCTAssertEqual(blob.count, 8 + 21)
        XCTAssertEqual(GeoPackageBinary.header(of: blob), .init(isEmpty: false, envelope: .init(minX: -87.6, maxX: -87.6, minY: 41.8, maxY: 41.8)))

        let polygon = try XCTUnwrap(geometry("MULTIPOLYGON (((0 0, 4 0, 4 3, 0 0)), ((-2 -1, -1 -1, -1 5, -2 -1)))"))
        let shape = GeoPackageBinary.encode(polygon)
        XCTAssertEqual(shape[3], 0b11, "little-endian with the [minx, maxx, miny, maxy] envelope")
        XCTAssertEqual(GeoPackageBinary.header(of: shape)?.envelope, .init(minX: -2, maxX: 4, minY: -1, maxY: 5))
        XCTAssertEqual(Array(shape[40..<45]), [1, 6, 0, 0, 0], "a multipolygon after the 40-byte header")
    }

    func testHeadersOfOtherWritersAreRead() throws {
        // Big-endian, no envelope: a LINESTRING Z (1000 + 2) of two points.
        var blob: [UInt8] = [0x47, 0x50, 0, 0, 0, 0, 0x10, 0xE6, 0, 0, 0, 0x03, 0xEA, 0, 0, 0, 2]
        for value in [3.0, -1.0, 7.0, -5.0, 2.5, 9.0] { blob += withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init) }
        XCTAssertEqual(GeoPackageBinary.header(of: blob)?.envelope, .init(minX: -5, maxX: 3, minY: -1, maxY: 2.5))
        // The empty flag, with no envelope.
        XCTAssertEqual(GeoPackageBinary.header(of: [0x47, 0x50, 0, 0b1_0001, 0xE6, 0x10, 0, 0, 1, 1, 0, 0, 0]),
                       .init(isEmpty: true, envelope: nil))
        // Not a GeoPackage geometry: wrong magic, extended, truncated, a point count past the end.
        XCTAssertNil(GeoPackageBinary.header(of: Array("POINT (1 2)".utf8)))
        XCTAssertNil(GeoPackageBinary.header(of: [0x47, 0x50, 0, 0b10_0001, 0, 0, 0, 0]))
        XCTAssertNil(GeoPackageBinary.header(of: [0x47, 0x50, 0, 0b11, 0, 0, 0, 0, 1, 2]))
        XCTAssertNil(GeoPackageBinary.header(of: [0x47, 0x50, 0, 1, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F]))
    }

    func testSpatialIndexFunctionsOnEveryConnection() throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        let blob = GeoPackageBinary.encode(try XCTUnwrap(geometry(#"{"type":"LineString","coordinates":[[1,2],[-3,8]]}"#)))
        let row = try queue.read { db in
            try db.fetchRows(sql: "SELECT ST_MinX(?1), ST_MaxX(?1), ST_MinY(?1), ST_MaxY(?1), ST_IsEmpty(?1), ST_MinX(NULL), ST_MinX('text')",
                             arguments: StatementArguments(positional: [.blob(Data(blob))]))[0]
        }
        XCTAssertEqual(row.values, [.real(-3), .real(1), .real(2), .real(8), .integer(0), .null, .null])
    }

    func testSingleShapesGoIntoTheirCollectionsOnly() throws {
        let polygon = try XCTUnwrap(geometry("POLYGON ((0 0, 1 0, 1 1, 0 0))"))
        XCTAssertEqual(polygon.promoted(to: .multiPolygon)?.kind, .multiPolygon)
        XCTAssertNil(polygon.promoted(to: .lineString))
        XCTAssertNil(try XCTUnwrap(geometry("LINESTRING (0 0, 1 1)")).promoted(to: .multiPolygon))
        XCTAssertEqual(Geometry.Kind(socrataType: "multiline"), .multiLineString)
        XCTAssertNil(Geometry.Kind(socrataType: "location"))
    }
}
