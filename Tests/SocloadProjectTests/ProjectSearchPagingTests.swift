import Foundation
import SocloadProject
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// A search entry lists every dataset the catalog has, past the Discovery API's 10,000-result
/// window for `offset` (paged by `scroll_id` there), each once, with its `data_updated_at`.
final class ProjectSearchPagingTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("socload-search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func project(_ portal: SimulatedPortal) throws -> Project {
        let path = folder.appendingPathComponent("socload.json").path
        let text = #"{"database": "p.sqlite", "datasets": [{"search": {"domain": "\#(portal.baseURL)", "catalog": "\#(portal.baseURL)"}}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try Project.load(path)
    }

    func testASearchPastTenThousandResultsPagesByScrollID() throws {
        let portal = try SimulatedPortal(count: 10_250, scale: 0.001)
        defer { portal.stop() }
        let search = try XCTUnwrap(try project(portal).searches.first)
        let datasets = try search.expand(http: HTTPOptions(), retry: RetryPolicy(maximumRetries: 0))
        XCTAssertEqual(datasets.count, 10_250)
        XCTAssertEqual(Set(datasets.map(\.name)).count, 10_250, "each dataset once")
        XCTAssertEqual(datasets.last?.name, SimulatedPortal.id(10_249))
        XCTAssertEqual(datasets.first?.catalogDataUpdatedAt, "2023-11-14T22:13:25.000Z")
        // The first page (offset 0) told the total; then 103 pages by scroll_id, the last short.
        XCTAssertEqual(portal.stats()["catalog"], 1 + 103)
        let scrolled = portal.server.requests.filter { $0.path.contains("scroll_id=") }
        XCTAssertEqual(scrolled.count, 103)
        XCTAssertTrue(scrolled.allSatisfy { !$0.path.contains("offset=") })
    }

    func testASearchWithinTheWindowPagesByOffset() throws {
        let portal = try SimulatedPortal(count: 250, scale: 0.001)
        defer { portal.stop() }
        let search = try XCTUnwrap(try project(portal).searches.first)
        XCTAssertEqual(try search.expand(http: HTTPOptions(), retry: RetryPolicy(maximumRetries: 0)).count, 250)
        XCTAssertEqual(portal.stats()["catalog"], 3)
        XCTAssertFalse(portal.server.requests.contains { $0.path.contains("scroll_id") })
    }
}
