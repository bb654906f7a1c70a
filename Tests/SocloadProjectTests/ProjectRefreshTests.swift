import Foundation
import SocloadDatabase
import SocloadPostgreSQL
import SocloadProject
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// `Project`: a project file read into load specs, and refreshed from Swift as `socload refresh`
/// refreshes it, against a real loopback portal and a real SQLite file.
final class ProjectRefreshFromSwiftTests: XCTestCase {
    var portal: FakeSocrataPortal!
    var folder: URL!

    override func setUpWithError() throws {
        portal = try FakeSocrataPortal(datasetID: "proj-0001", columns: [.init("name", "text"), .init("kind", "text")],
                                       rows: (1...9).map { index in
                                           .init(id: "row-\(index)", createdAt: 1_420_070_400, updatedAt: 1_420_070_400,
                                                 cells: ["name": .text("N\(index)"), "kind": .text(["a", "b", "c"][index % 3])])
                                       }, rowsUpdatedAt: 1_420_070_400)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("socload-project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        portal.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func writeProject(_ text: String) throws -> String {
        let path = folder.appendingPathComponent("socload.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testARefreshLoadsEachEntryRecordsTheLockAndThenFindsThemUpToDate() throws {
        let path = try writeProject("""
            {"database": "open.sqlite", "domain": "\(portal.baseURL)", "defaults": {"retries": 0},
             "datasets": [{"id": "proj-0001", "table": "all_rows", "index": ["name"], "extract": ["kind"]},
                          {"name": "some", "id": "proj-0001", "table": "some_rows", "where": "kind = 'a'"},
                          {"id": "gone-0001"}]}
            """)
        let project = try Project.load(path)
        XCTAssertEqual(project.datasets.map(\.name), ["all_rows", "some", "gone-0001"])
        XCTAssertEqual(project.datasets[0].spec.indexes, [["name"]])
        XCTAssertEqual(project.datasets[0].connection.retries, 0)
        XCTAssertEqual(project.database, folder.appendingPathComponent("open.sqlite").path)

        let first = try project.refresh(environment: ["SOCLOAD_RETRY_DELAY": "0"])
        XCTAssertEqual(first.map(\.name), ["all_rows", "some", "gone-0001"])
        let rows = first.map { result -> Int? in
            if case .success(.loaded(let summary)) = result.result { return summary.rowCount }
            return nil
        }
        XCTAssertEqual(rows, [9, 3, nil], "\(first.map(\.result))")
        guard case .failure = first[2].result else { return XCTFail("a dataset the portal lacks fails alone") }

        let queue = try DatabaseQueue(path: project.database ?? "")
        XCTAssertEqual(try queue.read { db in try db.count(in: "kind") }, 3)
        let lock = try SocloadLockFile.read(SocloadLockFile.path(forProject: path))
        XCTAssertEqual(lock.datasets.keys.sorted(), ["all_rows", "some"])
        XCTAssertEqual(lock.datasets["some"]?.rowCount, 3)
        queue.close()

        let second = try project.refresh(names: ["some"])
        guard case .success(.loaded(let summary)) = second.first?.result else { return XCTFail("\(second)") }
        XCTAssertTrue(summary.isUpToDate)
        XCTAssertEqual(second.count, 1)
        XCTAssertThrowsError(try project.refresh(names: ["nothing"])) { error in
            XCTAssertTrue("\(error)".contains("has no dataset named 'nothing'"), "\(error)")
        }
    }

    func testCKANArcGISAndOpenDataSoftEntriesLoadAndRefreshFromSwift() throws {
        let platforms = try FakePlatformPortal(rows: 130, pageCap: 50)
        // The project's domain is for its dataset ids; the URLs say their own platforms.
        let path = try writeProject("""
            {"database": "platforms.sqlite", "domain": "\(portal.baseURL)", "defaults": {"page-size": 40},
             "datasets": [{"name": "ckan", "url": "\(platforms.ckanURL)"},
                          {"name": "layer", "url": "\(platforms.arcgisURL)", "table": "parks_layer"},
                          {"name": "ods", "url": "\(platforms.baseURL)/explore/dataset/parks/", "platform": "ods", "table": "parks_ods"},
                          {"name": "wrong", "url": "\(platforms.ckanURL)", "where": "a = 1"}]}
            """)
        let project = try Project.load(path)
        let first = try project.refresh()
        let rows = first.map { result -> Int? in
            if case .success(.loaded(let summary)) = result.result { return summary.rowCount }
            return nil
        }
        XCTAssertEqual(rows, [130, 130, 130, nil], "\(first.map(\.result))")
        guard case .failure(let error) = first[3].result else { return XCTFail("a Socrata option on a CKAN URL fails") }
        XCTAssertTrue("\(error)".contains("is for Socrata datasets"), "\(error)")
        // Pages of the entries' page size (40), under each platform's own limit (50).
        let pages = platforms.server.requests.filter { $0.route.hasSuffix("datastore_search") && $0.query["limit"] != "0" }
        XCTAssertEqual(pages.first?.query["limit"], "40")
        let queue = try DatabaseQueue(path: project.database ?? "")
        XCTAssertEqual(try queue.read { db in try db.fetchOne(Int.self, sql: "SELECT count(*) FROM parks_layer WHERE geometry LIKE 'POINT (%'") }, 130)
        queue.close()
        let second = try project.refresh(names: ["ckan", "layer", "ods"])
        XCTAssertEqual(second.map { result -> Bool in
            if case .success(.loaded(let summary)) = result.result { return summary.isUpToDate }
            return false
        }, [true, true, true])
    }

    func testAWrongEntryIsAProjectErrorNamingTheEntryAndKey() throws {
        let path = try writeProject(#"{"datasets": [{"id": "abcd-1234"}, {"url": "https://x.org/d/abcd-5678", "pk": 5, "index": "a"}]}"#)
        XCTAssertThrowsError(try Project.load(path)) { error in
            XCTAssertEqual("\(error)", "\(path): dataset 2 (https://x.org/d/abcd-5678), key \"index\" takes a list, such as [\"a\", \"b\"]")
        }
        // A file entry is also known by the dataset id its name holds.
        let file = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        let byFile = try Project.load(try writeProject(#"{"datasets": [{"file": "\#(file)", "table": "noms"}]}"#))
        XCTAssertTrue(byFile.datasets[0].isCalled("n5m4-mism") && byFile.datasets[0].isCalled("noms"))
        let missing = folder.appendingPathComponent("none.json").path
        XCTAssertThrowsError(try Project.load(missing)) { error in
            XCTAssertTrue((error as? ProjectError)?.isMissing == true, "\(error)")
            XCTAssertEqual(error.localizedDescription, "\(error)")
        }
    }

    /// A PostgreSQL project: each entry in its schema, one connection per schema, the lock written.
    func testAPostgreSQLProjectLoadsIntoEachEntrysSchema() throws {
        let database = try TestPostgreSQL.makeDatabase()
        let path = try writeProject("""
            {"database": "\(database.url)", "domain": "\(portal.baseURL)", "defaults": {"schema": "open_data"},
             "datasets": [{"id": "proj-0001", "table": "all_rows"},
                          {"name": "mine", "id": "proj-0001", "table": "some_rows", "where": "kind = 'b'", "schema": "mine"}]}
            """)
        let results = try Project.load(path).refresh()
        let counts = results.map { result -> Int? in
            if case .success(.loaded(let summary)) = result.result { return summary.rowCount }
            return nil
        }
        XCTAssertEqual(counts, [9, 3], "\(results.map(\.result))")
        let counted = { (schema: String) in
            try PostgreSQLDatabase(connection: try database.connect(), schema: schema).tables().map { "\($0.name) \($0.rowCount)" }
        }
        XCTAssertEqual(try counted("open_data"), ["all_rows 9"])
        XCTAssertEqual(try counted("mine"), ["some_rows 3"])
        XCTAssertEqual(try SocloadLockFile.read(SocloadLockFile.path(forProject: path)).datasets.keys.sorted(), ["all_rows", "mine"])
    }
}
