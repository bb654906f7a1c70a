import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// Cancelling a load (a Task, a signal), moving an index with an extraction, limits and duplicate row ids.
extension DatasetLoaderTests {
    /// The async form loads the same table, and cancelling its Task stops a load that is waiting
    /// on the network: rolled back, the previous table intact.
    func testAsyncLoadAndTaskCancellation() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = try Fixtures.bundled("n5m4-mism")
        server.route("/good", .init(body: body))
        server.route("/stall", .init(body: body, delivery: .stall(seconds: 4)))
        let harness = try LoadHarness()
        let loader = DatasetLoader(destination: SQLiteDestination(queue: harness.queue))
        func request(_ path: String) -> LoadRequest {
            LoadRequest(reference: DatasetReference(location: .url(server.baseURL + path), datasetID: "n5m4-mism", domain: nil),
                        tableName: "nominations")
        }
        let summary = try await loader.load(request("/good"))
        XCTAssertEqual(summary.rowCount, 300)
        let before = try harness.snapshot("nominations")
        let started = Date()
        let task = Task { try await loader.load(request("/stall")) }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled load must not succeed")
        } catch {
            XCTAssertEqual(error as? LoadError, .cancelled)
            XCTAssertEqual("\(error)", "cancelled")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 3.5, "cancelled before the stall ended")
        XCTAssertEqual(try harness.snapshot("nominations"), before)
        // The loader and its queue work afterwards.
        let again = try await loader.load(request("/good"))
        XCTAssertEqual(again.rowCount, 300)
    }

    /// `cancel(signal:)` on a loader made as the README shows (no LoadCancellation of its own)
    /// stops a running load with `LoadError.interrupted`, and the queue and the loader work after.
    func testCancelBySignalLeavesTheLoaderAndQueueWorking() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = try Fixtures.bundled("n5m4-mism")
        server.route("/good", .init(body: body))
        server.route("/stall", .init(body: body, delivery: .stall(seconds: 4)))
        let harness = try LoadHarness()
        let loader = DatasetLoader(destination: SQLiteDestination(queue: harness.queue))
        func request(_ path: String) -> LoadRequest {
            LoadRequest(reference: DatasetReference(location: .url(server.baseURL + path), datasetID: "n5m4-mism", domain: nil),
                        tableName: "nominations")
        }
        XCTAssertEqual(try loader.load(request("/good")).rowCount, 300)
        let before = try harness.snapshot("nominations")
        let cancelled = expectation(description: "cancelled")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            loader.cancel(signal: 2)
            cancelled.fulfill()
        }
        let started = Date()
        XCTAssertThrowsError(try loader.load(request("/stall"))) { error in
            XCTAssertEqual(error as? LoadError, .interrupted(signal: 2))
        }
        wait(for: [cancelled], timeout: 5)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3.5)
        XCTAssertEqual(try harness.snapshot("nominations"), before)
        XCTAssertEqual(try harness.queue.read { db in try db.fetchValue(sql: "SELECT count(*) FROM nominations") }, .integer(300))
        XCTAssertEqual(try loader.load(request("/good")).rowCount, 300)
        // A cancel that comes while nothing runs is forgotten with the load it stopped: it does
        // not stop the next one.
        loader.cancel(signal: 15)
        XCTAssertThrowsError(try loader.load(request("/good")))
        XCTAssertEqual(try loader.load(request("/good")).rowCount, 300)
    }

    /// The README's flow: a load with `request.indexes = [["agency"]]`, then `extract agency`:
    /// the index moves to agency_id, and a reload without the index keeps the moved one.
    func testExtractingAnIndexedColumnMovesTheIndex() throws {
        let harness = try LoadHarness()
        let loader = DatasetLoader(destination: SQLiteDestination(queue: harness.queue))
        let reference = try DatasetReference.resolve("n5m4-mism", domain: nil, datasetsDirectories: [Fixtures.datasetsDirectory.path])
        var request = LoadRequest(reference: reference)
        request.indexes = [["agency"]]
        _ = try loader.load(request)
        _ = try loader.extract(Extraction(columns: ["agency"], count: true), from: "n5m4_mism")
        let indexes = { try harness.queue.read { db in
            try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'n5m4_mism' ORDER BY name")
        } }
        let moved = try indexes()
        XCTAssertTrue(moved.contains("idx_n5m4_mism_agency_id"), "\(moved)")
        XCTAssertFalse(try indexes().contains("idx_n5m4_mism_agency"))
        let summary = try loader.load(LoadRequest(reference: reference))
        XCTAssertEqual(summary.notes, [])
        XCTAssertTrue(try indexes().contains("idx_n5m4_mism_agency_id"))
    }

    func testLimitAndDuplicateRowIDs() throws {
        let harness = try LoadHarness()
        let path = try harness.file("tiny.json", Array(Self.tiny.utf8))
        XCTAssertEqual(try harness.load(.file(path), limit: 2).rowCount, 2)
        XCTAssertEqual(try harness.value("SELECT count(*) FROM abcd_1234"), .integer(2))
        XCTAssertEqual(try harness.load(.file(path), limit: 0).rowCount, 0)
        let duplicate = try harness.file("dup.json", Array(Self.tiny.replacingOccurrences(of: "row-bbbb", with: "row-aaaa").utf8))
        XCTAssertThrowsError(try harness.load(.file(duplicate))) { error in
            XCTAssertEqual("\(error)", "duplicate key _id = \"row-aaaa\" in abcd_1234: rows 1 and 2")
            XCTAssertEqual((error as? LoadError)?.kind, .badData)
        }
        XCTAssertThrowsError(try harness.load(.file(path), table: "_socload_datasets")) { error in
            XCTAssertEqual(error as? LoadError, .reservedTableName("_socload_datasets"))
        }
    }
}
