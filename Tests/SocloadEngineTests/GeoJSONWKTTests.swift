@testable import SocloadEngine
import SocloadCore
import XCTest

/// SODA's GeoJSON geometries become the WKT the rows.json export has, digits as they came; what
/// is no simple geometry stays as it came (nil here).
final class GeoJSONWKTTests: XCTestCase {
    private func wkt(_ json: String) -> String? {
        let bytes = Array(json.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            GeoJSONWKT.wkt(buffer, object: RawCell(kind: .object, start: 0, end: buffer.count, isEscaped: false, isNonASCII: false))
                .map { String(decoding: $0, as: UTF8.self) }
        }
    }

    func testEverySimpleTypeWithItsDigits() {
        XCTAssertEqual(wkt(#"{"type":"Point","coordinates":[-87.600,41.8]}"#), "POINT (-87.600 41.8)")
        XCTAssertEqual(wkt(#"{"type":"LineString","coordinates":[[1,2],[3.50,4e1]]}"#), "LINESTRING (1 2, 3.50 4e1)")
        XCTAssertEqual(wkt(#"{"coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.2,0.2],[0.3,0.2],[0.2,0.3],[0.2,0.2]]],"type":"Polygon"}"#),
                       "POLYGON ((0 0, 1 0, 1 1, 0 0), (0.2 0.2, 0.3 0.2, 0.2 0.3, 0.2 0.2))")
        XCTAssertEqual(wkt(#"{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}"#), "MULTIPOINT ((1 2), (3 4))")
        XCTAssertEqual(wkt(#"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[5,6],[7,8]]]}"#),
                       "MULTILINESTRING ((1 2, 3 4), (5 6, 7 8))")
        XCTAssertEqual(wkt(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}"#),
                       "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))")
        XCTAssertEqual(wkt(#"{"type":"Point","coordinates":[1,2,3]}"#), "POINT (1 2 3)")
    }

    func testWhatIsNoSimpleGeometryIsLeftAsItCame() {
        for json in [#"{"type":"GeometryCollection","geometries":[]}"#, #"{"type":"LineString","coordinates":[]}"#,
                     #"{"type":"LineString","coordinates":[[1,"2"]]}"#, #"{"type":"Polygon","coordinates":[[1,2]]}"#,
                     #"{"coordinates":[1,2]}"#, #"{"type":"Point"}"#, #"{"type":"Point","coordinates":[1]}"#] {
            XCTAssertNil(wkt(json), json)
        }
        // What it writes, the geometry reader reads as the same shape.
        let text = wkt(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}"#)!
        let parsed = Array(text.utf8).withUnsafeBufferPointer { Geometry(text: $0) }
        XCTAssertEqual(parsed?.kind, .multiPolygon)
    }
}
