import Dispatch
import Foundation
import Glibc
import SocloadCore
import SocloadDatabase
import SocloadPostgreSQL
import SocloadProject
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// The examples of the geometry and GeoPackage doc comments, of rows, record updates and streaming.
extension DocCommentExamples {
    func testPoolExamples() async throws {
        do {
            let queue = try DatabaseQueue(path: "socload.sqlite")
            _ = try await DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
            queue.close()
        }
        // DatabasePool
        let pool = try DatabasePool(path: "socload.sqlite")
        let loader = DatasetLoader(destination: SQLiteDestination(pool: pool))
        let count = try await pool.read { db in try db.fetchOne(Int.self, sql: "select count(*) from n5m4_mism") }
        XCTAssertEqual(count, 300)
        _ = loader
    }

    /// `TableOptions`: the options every load shares, set once and given to a request.
    func testTableOptionsExample() throws {
        try #"[{"case_number": "A1", "agency": "State"}, {"case_number": "A2", "agency": "Labor"}]"#
            .write(toFile: "committees.json", atomically: true, encoding: .utf8)
        var options = TableOptions()
        options.primaryKey = ["case_number"]
        options.indexes = [["agency"]]
        var spec = LoadSpec(document: "committees.json")
        spec.tableOptions = options
        let queue = try DatabaseQueue(path: "socload.sqlite")
        let summary = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(spec)
        XCTAssertEqual(summary.catalogEntry.plan?.mainTable.primaryKey, ["case_number"])
        XCTAssertEqual(spec.primaryKey, ["case_number"], "each option is also a property of the spec")
        let indexed = try queue.read { db in try db.fetchAll(String.self, sql: "select name from pragma_index_list('committees')") }
        XCTAssertTrue(indexed.contains { $0.contains("agency") }, "\(indexed)")
    }

    /// `TableNameIndex`: the names a plan claims, and the table that finds them by name.
    func testTableNameIndexExample() throws {
        let queue = try DatabaseQueue(path: "socload.sqlite")
        _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
        let plan = try XCTUnwrap(try queue.read { db in try SQLiteCatalog(db: db).entry(for: "n5m4_mism")?.plan })
        let index = TableNameIndex(dialect: SQLiteDialect())
        let claimed = TableNameIndex.names(claimedBy: plan)   // lowercased
        _ = (index.createStatements, claimed)
        XCTAssertEqual(claimed, ["n5m4_mism"])
        XCTAssertEqual(try queue.read { db in try SQLiteCatalog(db: db).plans(claiming: ["n5m4_mism"]).map(\.mainTable.name) }, ["n5m4_mism"])
    }

    /// `AbandonedFiles`: what killed processes left in a folder.
    func testAbandonedFilesExample() {
        AbandonedFiles.remove(in: NSTemporaryDirectory(), prefix: "socload-pages-")
    }

    /// `LoadSpec.syncs(tableRows:)`: big tables kept by sync, a first load whole.
    func testIncrementalAboveExample() {
        var spec = LoadSpec(source: .dataset("abcd-1234"))
        spec.incrementalAbove = 100_000
        _ = spec.syncs(tableRows: 250_000)   // true
        XCTAssertTrue(spec.syncs(tableRows: 250_000))
        XCTAssertFalse(spec.syncs(tableRows: 850))
        XCTAssertFalse(spec.syncs(tableRows: nil), "a table not loaded yet is loaded whole")
    }

    /// `CatalogReader`: a destination says what it has loaded.
    func testCatalogReaderExample() throws {
        do {
            let queue = try DatabaseQueue(path: "socload.sqlite")
            _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
            queue.close()
        }
        let destination = SQLiteDestination(queue: try DatabaseQueue(path: "socload.sqlite"))
        if let entry = try destination.entry(for: "n5m4_mism") { print(entry.fetchedAt) }
        XCTAssertEqual(try destination.entry(for: "n5m4_mism")?.rowCount, 300)
        XCTAssertEqual(try destination.tables().map(\.name), ["n5m4_mism"])
    }

    /// `DatabaseReader` and `DatabaseWriter`: one function serves a queue, a pool and, in tests, an
    /// in-memory queue.
    func testReaderAndWriterRoles() throws {
        func agencies(in reader: any DatabaseReader) throws -> [String] {
            try reader.read { db in try db.fetchAll(String.self, sql: "select distinct agency from n5m4_mism") }
        }
        func rename(_ old: String, to new: String, in writer: any DatabaseWriter) throws {
            try writer.write { db in try db.execute(sql: "update agencies set name = ? where name = ?", arguments: [new, old]) }
        }
        do {
            let queue = try DatabaseQueue(path: "socload.sqlite")
            _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
            let fromQueue = try agencies(in: queue)
            queue.close()
            let pool = try DatabasePool(path: "socload.sqlite")
            XCTAssertEqual(Set(try agencies(in: pool)), Set(fromQueue))
            XCTAssertFalse(fromQueue.isEmpty)
            pool.close()
        }
        let queue = try DatabaseQueue.inMemory()
        try queue.write { db in
            try db.execute(sql: "create table agencies (name text)")
            try db.execute(sql: "insert into agencies values ('State')")
        }
        try rename("State", to: "Department of State", in: queue)
        // DestinationCapabilities
        let capabilities = DestinationCapabilities(storableValues: .anything, writers: .many)
        print(capabilities.writers == .one ? "loads wait for each other" : "loads run side by side")
        XCTAssertEqual(SQLiteDestination.capabilities.writers, .one)
        XCTAssertEqual(try queue.read { db in try db.fetchAll(String.self, sql: "select name from agencies") }, ["Department of State"])
    }

    func testPostgreSQLRecordExamples() throws {
        let testDatabase = try TestPostgreSQL.makeDatabase()
        let connection = try PostgreSQLConnection(try XCTUnwrap(PostgreSQLConnectionString(testDatabase.url)))
        try connection.execute("CREATE TABLE agencies (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name text UNIQUE, "
                               + "nominations integer)")
        let database = PostgreSQLDatabase(connection: connection, schema: "public")
        // PostgreSQLDatabase.insert, upsert, update, delete
        struct Agency: Codable { var id: Int64?; var name: String; var nominations: Int }
        let id = try database.insert(Agency(id: nil, name: "State", nominations: 0), into: "agencies")  // its identity id
        let labor = try database.findOrCreate(Agency(id: nil, name: "Labor", nominations: 0), in: "agencies", by: ["name"])
        XCTAssertEqual(id, 1)
        XCTAssertEqual(labor.id, 2)
        try database.delete(from: "agencies", matching: .equals("name", "Labor"))
        try database.upsert(Agency(id: nil, name: "State", nominations: 3), into: "agencies", by: ["name"])
        try database.update(Agency(id: nil, name: "State", nominations: 4), in: "agencies", by: ["name"])
        XCTAssertEqual(try database.fetchAll(Int.self, SQLFragment(sql: "SELECT nominations FROM agencies")), [4])
        try database.delete(from: "agencies", matching: .equals("nominations", 0))
        XCTAssertEqual(try database.count(in: "agencies"), 1)
    }

    func testReadRoleRecordExamples() throws {
        let queue = try DatabaseQueue(path: "socload.sqlite")
        _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
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
        _ = try await DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
        struct Nomination: Decodable, Sendable { var name: String; var agency: String? }
        // fetchAll(_:from:following:), after an extract
        let extracted = try DatabaseQueue(path: "lookups.sqlite")
        var spec = LoadSpec(dataset: "n5m4-mism")
        spec.extractions = [Extraction(columns: ["agency"])]
        _ = try await DatasetLoader(destination: SQLiteDestination(queue: extracted)).load(spec)
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
        _ = try loader.load(LoadSpec(dataset: "geo5-shps"))
        XCTAssertEqual(try queue.read { db in try db.fetchValue(sql: "SELECT count(*) FROM gpkg_geometry_columns") }, .integer(1))
    }

    func testDocumentModeExamples() throws {
        try #"[{"name": "Budget", "members": 7}]"#.write(toFile: "committees.json", atomically: true, encoding: .utf8)
        let queue = try DatabaseQueue(path: "socload.sqlite")
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))
        // DocumentLoadMode
        try #"[{"name": "Budget", "members": 9}, {"name": "Rules", "members": 5}]"#
            .write(toFile: "changes.json", atomically: true, encoding: .utf8)
        do {
            var keyed = LoadSpec(document: "committees.json")
            keyed.primaryKey = ["name"]
            _ = try loader.load(keyed)
            var spec = LoadSpec(document: "changes.json", tableName: "committees")
            spec.mode = .upsert
            spec.onSchemaChange = .fail
            let upserted = try loader.load(spec).merged // inserted, updated
            XCTAssertEqual(upserted, MergedRows(mode: .upsert, records: 2, inserted: 1))
            XCTAssertEqual(try queue.read { db in try db.fetchValue(sql: "SELECT sum(members) FROM committees") }, .integer(14))
        }
        // TableMerge
        let stored = PlanTable(name: "big", columns: [PlanColumn(name: "n", type: .integer, source: .field(cell: 0))])
        let arriving = PlanTable(name: "big", columns: [PlanColumn(name: "n", type: .text, source: .field(cell: 0))])
        let merge = TableMerge(stored: stored, arriving: arriving)
        let refused = merge.mismatches // ["column n: big holds integer, the records have text"]
        XCTAssertEqual(refused, ["column n: big holds integer, the records have text"])
    }

    /// `LoadSpec`, `DatasetLoader.load(_:)` and `Project`.
    func testSpecAndProjectExamples() throws {
        let queue = try DatabaseQueue(path: "socload.sqlite")
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))
        // DatasetLoader.load(_:)
        let summary = try loader.load(LoadSpec(dataset: "n5m4-mism"))
        XCTAssertEqual(summary.rowCount, 300)
        // LoadSpec
        var spec = LoadSpec(dataset: "n5m4-mism", domain: "data.example.org")
        spec.tableOptions.indexes = [["agency"]]
        spec.query.where = "agency = 'Department of State'"
        XCTAssertEqual(try JSONDecoder().decode(LoadSpec.self, from: JSONEncoder().encode(spec)), spec)
        // Project and Project.refresh
        try #"{"database": "project.sqlite", "datasets": [{"id": "n5m4-mism"}, {"id": "none-0000"}]}"#
            .write(toFile: "socload.json", atomically: true, encoding: .utf8)
        let project = try Project.load("socload.json")
        let results = try project.refresh()
        XCTAssertEqual(results.map(\.name), ["n5m4-mism", "none-0000"])
        var failed: [String] = []
        for dataset in try project.refresh() {
            if case .failure(let error) = dataset.result { print(dataset.name, error) }
            if case .failure = dataset.result { failed.append(dataset.name) }
        }
        XCTAssertEqual(failed, ["none-0000"])
    }

    /// `PortalNotice`: what a portal says beside the data, heard through `HTTPOptions.onResponseHead`.
    func testPortalNoticeExample() throws {
        var http = HTTPOptions()
        http.onResponseHead = { head, url in
            for notice in PortalNotice.notices(in: head, url: url) where notice.isForPeople { print(notice) }
        }
        let head = HTTPResponseHead(statusCode: 200, headers: ["deprecation": "@1790812800"])
        http.onResponseHead?(head, "https://data.example.org/api/views/abcd-1234/rows.json")
        XCTAssertEqual(PortalNotice.notices(in: head, url: "https://data.example.org/").map(\.description),
                       ["data.example.org says: this API is deprecated (Deprecation: @1790812800)"])
    }
}
