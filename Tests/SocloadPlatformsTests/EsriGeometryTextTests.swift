import SocloadCore
@testable import SocloadPlatforms
import XCTest

/// ArcGIS geometries as WKT: digits kept, z dropped, rings grouped into polygons by orientation.
final class EsriGeometryTextTests: XCTestCase {
    private func wkt(_ json: String) -> (String?, Bool) {
        var malformed = false
        let value = try? JSONValueParser.parse(Array(json.utf8))
        return (EsriGeometryText.wkt(value, malformed: &malformed), malformed)
    }

    func testPointsLinesAndEmptyShapes() {
        XCTAssertEqual(wkt(#"{"x": -118.2800001, "y": 33.83, "z": 12}"#).0, "POINT (-118.2800001 33.83)")
        XCTAssertEqual(wkt(#"{"x": "NaN", "y": "NaN"}"#).0, nil)
        XCTAssertFalse(wkt(#"{"x": "NaN", "y": "NaN"}"#).1, "an empty point is no geometry, not a malformed one")
        XCTAssertEqual(wkt(#"{"x": null, "y": null}"#).0, nil)
        XCTAssertEqual(wkt(#"{"points": [[1, 2], [3, 4, 5]]}"#).0, "MULTIPOINT ((1 2), (3 4))")
        XCTAssertEqual(wkt(#"{"paths": [[[0, 0], [1, 1]], [[2, 2], [3, 3], [4, 5]]]}"#).0,
                       "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3, 4 5))")
        XCTAssertEqual(wkt("null").0, nil)
        XCTAssertEqual(wkt(#"{"paths": [[[0, 0]]]}"#).1, true)
        XCTAssertEqual(wkt(#"{"rings": [[[0, "a"], [1, 1], [0, 0], [0, 0]]]}"#).1, true)
        XCTAssertEqual(wkt(#"{"curvePaths": []}"#).1, true)
    }

    func testHolesGoWithTheOuterRingThatHoldsThem() {
        // Two clockwise outer rings (esri's exteriors), the second with a counter-clockwise hole.
        let outerA = "[[0,0],[0,10],[10,10],[10,0],[0,0]]"
        let outerB = "[[20,0],[20,10],[30,10],[30,0],[20,0]]"
        let holeInB = "[[22,2],[28,2],[28,8],[22,8],[22,2]]"
        XCTAssertEqual(wkt(#"{"rings": [\#(outerA), \#(outerB), \#(holeInB)]}"#).0,
                       "MULTIPOLYGON (((0 0, 0 10, 10 10, 10 0, 0 0)), ((20 0, 20 10, 30 10, 30 0, 20 0), (22 2, 28 2, 28 8, 22 8, 22 2)))")
        // The hole listed first still goes with B.
        XCTAssertEqual(wkt(#"{"rings": [\#(outerB), \#(outerA), \#(holeInB)]}"#).0,
                       "MULTIPOLYGON (((20 0, 20 10, 30 10, 30 0, 20 0), (22 2, 28 2, 28 8, 22 8, 22 2)), ((0 0, 0 10, 10 10, 10 0, 0 0)))")
        // A server that writes every ring counter-clockwise: each is a polygon of its own.
        XCTAssertEqual(wkt(#"{"rings": [[[0,0],[10,0],[10,10],[0,0]]]}"#).0, "MULTIPOLYGON (((0 0, 10 0, 10 10, 0 0)))")
    }
}
