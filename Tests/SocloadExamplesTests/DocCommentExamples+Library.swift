import Dispatch
import Foundation
import Glibc
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// The examples of the geometry and GeoPackage doc comments, of rows, record updates and streaming.
extension DocCommentExamples {
    func testPoolExamples() async throws {
        do {
            let queue = try DatabaseQueue(path: "socload.sqlite")
            let reference = try DatasetReference.resolve("n5m4-mism", domain: nil, datasetsDirectories: ["Datasets"])
            _ = try await DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadRequest(reference: reference))
            queue.close()
        }
        // DatabasePool
        let pool = try DatabasePool(path: "socload.sqlite")
        let loader = DatasetLoader(destination: SQLiteDestination(pool: pool))
        let count = try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from n5m4_mism") }
        XCTAssertEqual(count, 300)
        _ = loader
    }

    func testReadRoleRecordExamples() throws {
        let queue = try DatabaseQueue(path: "socload.sqlite")
        let reference = try DatasetReference.resolve("n5m4-mism", domain: nil, datasetsDirectories: ["Datasets"])
        _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadRequest(reference: reference))
        queue.close()
        let database: any LoadedDatabase = try SQLiteLoadedDatabase(path: "socload.sqlite")
        // LoadedDatabase.fetchAll(_:from:where:orderBy:limit:)
        struct Nomination: Decodable { var name: String; var holdover: Bool; var agency: String? }
        let state = try database.fetchAll(Nomination.self, from: "n5m4_mism", where: .equals("agency", "State"),
                                          orderBy: ["name"], limit: 10)
        XCTAssertEqual(state.count, 10)
    }

    func testStreamingExamples() async throws {
        let queue = try DatabaseQueue(path: "socload.sqlite")
        let reference = try DatasetReference.resolve("n5m4-mism", domain: nil, datasetsDirectories: ["Datasets"])
        _ = try await DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadRequest(reference: reference))
        struct Nomination: Decodable, Sendable { var name: String; var agency: String? }
        // fetchAll(_:from:following:), after an extract
        let extracted = try DatabaseQueue(path: "lookups.sqlite")
        var request = LoadRequest(reference: reference)
        request.extractions = [Extraction(columns: ["agency"])]
        _ = try await DatasetLoader(destination: SQLiteDestination(queue: extracted)).load(request)
        try await extracted.read { db in
            let nominations = try db.fetchAll(Nomination.self, from: "n5m4_mism", following: ["agency"])
            XCTAssertEqual(nominations.count, 300)
            XCTAssertTrue(nominations.contains { $0.agency == "State" })
        }
        // Database.forEach
        let names = try await queue.read { db -> Int in
            var seen = 0
            try db.forEach(Nomination.self, sql: "select name, agency from n5m4_mism") { nomination in
                print(nomination.name)
                seen += 1
                return true
            }
            return seen
        }
        XCTAssertEqual(names, 300)
        // DatabaseRecords
        var streamed = 0
        for try await nomination in queue.records(Nomination.self, sql: "select name, agency from n5m4_mism") {
            print(nomination.name)
            streamed += 1
        }
        XCTAssertEqual(streamed, 300)
    }

    func testRecordUpdateAndRowExamples() throws {
        let queue = try DatabaseQueue(path: "agencies.sqlite")
        try queue.write { db in
            try db.execute(sql: "create table agencies (id integer primary key, name text unique, nominations integer)")
            try db.execute(sql: "insert into agencies (name, nominations) values ('State', 3), ('Labor', 0)")
            // Database.update, count, delete
            struct Agency: Codable { var id: Int64?; var name: String; var nominations: Int }
            try db.update(Agency(id: nil, name: "State", nominations: 4), in: "agencies", by: ["name"])
            let busy = try db.count(in: "agencies", matching: .greaterThan("nominations", 3))
            let removed = try db.delete(from: "agencies", matching: .equals("nominations", 0))
            XCTAssertEqual([busy, removed], [1, 1])
            // Row
            try db.execute(sql: "create table t (name text, votes integer); insert into t values ('Ann', 42)")
            let row = try db.fetchRows(sql: "SELECT name, votes FROM t")[0]
            let name: String? = try row["name"]           // nil for NULL
            let votes = try row.decode(Int.self, column: "votes")
            XCTAssertEqual(name, "Ann")
            XCTAssertEqual(votes, 42)
        }
    }

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
