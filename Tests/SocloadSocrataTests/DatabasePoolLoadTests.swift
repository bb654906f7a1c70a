import Foundation
import Synchronization
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// A load through a `DatabasePool` (`SQLiteDestination(pool:)`): reads during the load return
/// while it runs, with the previous copy of the table; the file stays in WAL mode, even for a
/// first load.
final class DatabasePoolLoadTests: XCTestCase {
    private func bigExport(rows: Int, at path: String) throws {
        var text = #"{"meta":{"view":{"id":"bigg-0001","name":"Big","columns":["#
            + #"{"id":-1,"name":"sid","dataTypeName":"meta_data","fieldName":":sid"},"#
            + #"{"id":1,"name":"Name","dataTypeName":"text","fieldName":"name"},"#
            + #"{"id":2,"name":"Amount","dataTypeName":"number","fieldName":"amount"}]}},"data":["#
        for row in 0..<rows {
            text += (row == 0 ? "\n" : ",\n") + #"["row-\#(String(row * 7_919 % 1_000_003, radix: 36))","Name é \#(row)","\#(row % 977).25"]"#
        }
        text += "\n]}\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func testReadsDuringALoadReturnWithThePreviousCopy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("socload-pool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        let pool = try DatabasePool(path: path("pool.sqlite"))
        let loader = DatasetLoader(destination: SQLiteDestination(pool: pool))
        let small = path("small.rows.json"), big = path("big.rows.json")
        try bigExport(rows: 10, at: small)
        try bigExport(rows: 200_000, at: big)
        let first = DatasetReference(location: .file(small), datasetID: "bigg-0001", domain: nil)
        _ = try await loader.load(LoadRequest(reference: first, tableName: "big"))
        let mode = try await pool.read { db in try db.fetchValue(sql: "pragma journal_mode") }
        XCTAssertEqual(mode, DatabaseValue.text("wal"), "a first load through a pool keeps the WAL its readers need")

        let loading = Atomic<Bool>(true)
        var request = LoadRequest(reference: DatasetReference(location: .file(big), datasetID: "bigg-0001", domain: nil),
                                  tableName: "big")
        request.force = true
        let reload = request
        let load = Task {
            defer { loading.store(false, ordering: .sequentiallyConsistent) }
            return try await loader.load(reload)
        }
        var duringLoad: [Int] = []
        var slowest = Duration.zero
        while loading.load(ordering: .sequentiallyConsistent) {
            let started = ContinuousClock.now
            let count = try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from big") ?? -1 }
            slowest = max(slowest, ContinuousClock.now - started)
            if loading.load(ordering: .sequentiallyConsistent) { duringLoad.append(count) }
        }
        print("\(duringLoad.count) reads during the load; the slowest took \(slowest)")
        let summary = try await load.value
        XCTAssertEqual(summary.rowCount, 200_000)
        XCTAssertFalse(duringLoad.isEmpty, "reads returned while the load ran")
        // Each read saw a whole copy: the previous one until the commit, the new one after it
        // (the load returns a little after its commit).
        XCTAssertTrue(duringLoad.contains(10), "\(duringLoad.count) reads")
        XCTAssertTrue(Set(duringLoad).isSubset(of: [10, 200_000]), "\(Set(duringLoad))")
        XCTAssertFalse(duringLoad.drop { $0 == 10 }.contains(10), "no read went back to the old copy")
        let after = try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from big") }
        XCTAssertEqual(after, 200_000)
    }
}
