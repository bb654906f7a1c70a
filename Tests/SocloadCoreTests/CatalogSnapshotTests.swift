import SocloadCore
import XCTest

/// `CatalogSnapshot` answers as the catalog's own lookup does: the exact name first, then the
/// name as PostgreSQL shortened it, then ignoring case, then a dataset id's latest load.
final class CatalogSnapshotTests: XCTestCase {
    private func entry(_ table: String, id: String?, fetchedAt: String) -> CatalogEntry {
        CatalogEntry(tableName: table, datasetID: id, domain: nil, name: nil, sourceURL: "x", fetchedAt: fetchedAt,
                     rowsUpdatedAt: nil, rowCount: 1, columnsJSON: "[]", columnMappingJSON: "{}", etag: nil, lastModified: nil)
    }

    func testLookupsFollowTheCatalogsOrder() {
        let long = String(repeating: "a", count: 70)
        let shortened = LoadPlan.shortenedName(long, toBytes: 63)
        let snapshot = CatalogSnapshot([
            entry("T", id: "abcd-1234", fetchedAt: "2026-01-01T00:00:00Z"),
            entry("t", id: "wxyz-9876", fetchedAt: "2026-01-02T00:00:00Z"),
            entry("copy", id: "abcd-1234", fetchedAt: "2026-02-01T00:00:00Z"),
            entry(shortened, id: nil, fetchedAt: "2026-01-01T00:00:00Z"),
        ])
        XCTAssertEqual(snapshot.count, 4)
        XCTAssertEqual(snapshot.entry(for: "T")?.datasetID, "abcd-1234", "the exact name before another case")
        XCTAssertEqual(snapshot.entry(for: "t")?.datasetID, "wxyz-9876")
        XCTAssertEqual(snapshot.entry(for: "COPY")?.tableName, "copy")
        XCTAssertEqual(snapshot.entry(for: "abcd-1234")?.tableName, "copy", "a dataset id: its latest load")
        XCTAssertEqual(snapshot.entry(for: long)?.tableName, shortened)
        XCTAssertNil(snapshot.entry(for: "none"))
    }
}
