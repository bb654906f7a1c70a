import Dispatch
import Foundation
import Glibc
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// The examples of the geometry and GeoPackage doc comments.
extension DocCommentExamples {
    func testGeometryExamples() throws {
        // Geometry
        let text = Array("POINT (-87.6 41.8)".utf8)
        let point = text.withUnsafeBufferPointer { Geometry(text: $0) }
        XCTAssertEqual(point?.kind, .point)
        XCTAssertEqual(point?.envelope.minX, -87.6)
        // GeoPackageBinary
        let blob = GeoPackageBinary.encode(Geometry.point(longitude: -87.6, latitude: 41.8)!)
        XCTAssertEqual(Array(blob.prefix(2)), [0x47, 0x50])
        XCTAssertEqual(GeoPackageBinary.header(of: blob)?.envelope?.minX, -87.6)
        // SQLiteDestination(queue:geoPackage:)
        let queue = try DatabaseQueue(path: "crashes.gpkg")
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue, geoPackage: true))
        let reference = try DatasetReference.resolve("geo5-shps", domain: nil, datasetsDirectories: ["Datasets"])
        _ = try loader.load(LoadRequest(reference: reference))
        XCTAssertEqual(try queue.read { db in try db.fetchValue(sql: "SELECT count(*) FROM gpkg_geometry_columns") }, .integer(1))
    }
}
