import Dispatch
import Foundation
import Glibc
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// The examples in the public API's doc comments, compiled and run as written
/// (`testTheDocCommentsExamplesAreTheseOnes` checks that every line of them is here).
final class DocCommentExamples: ExampleTestCase {
    func testDatabaseExamples() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table t(name, votes, agency, year, x)")
        // DatabaseValue
        try db.execute(sql: "insert into t(name, votes) values (?, ?)", arguments: ["Ann", 42])
        // StatementArguments
        let rows = try db.fetchRows(sql: "select * from t where agency = ? and year > ?", arguments: ["State", 2010])
        try db.execute(sql: "update t set x = :x", arguments: ["x": 1])   // or [":x": 1]
        XCTAssertEqual(rows.count, 0)
        XCTAssertEqual(try db.fetchValue(sql: "select x from t"), .integer(1))

        // Database+Fetch
        try db.execute(sql: "create table n5m4_mism(name, agency)")
        try db.execute(sql: "insert into n5m4_mism values ('Ann', 'State')")
        do {
            struct Nomination: Decodable { var name: String; var agency: String? }
            let rows = try db.fetchAll(Nomination.self, sql: "select name, agency from n5m4_mism where agency = ?",
                                       arguments: ["State"])
            XCTAssertEqual(rows.map(\.name), ["Ann"])
        }

        // RowFilter and Database+Select
        struct Event: Decodable { var note: String }
        try db.execute(sql: "create table events(category, note, start_time)")
        try db.execute(sql: "insert into events values ('a', 'Café', '2015-10-29T10:00:00')")
        let categories = ["a"]
        let cats = categories
        let filter: RowFilter = .in("category", categories)
            && .contains("note", "cafe", caseInsensitive: true, diacriticInsensitive: true)
            && .between("start_time", "2015-10-01", "2015-10-29")
        XCTAssertEqual(try db.fetchAll(Event.self, from: "events", where: filter).map(\.note), ["Café"])
        try db.execute(sql: "alter table events rename to t2")
        try db.execute(sql: "drop table t")
        try db.execute(sql: "alter table t2 rename to t")
        let events = try db.fetchAll(Event.self, from: "t",
                                     where: .in("category", cats) && .contains("note", "cafe", caseInsensitive: true, diacriticInsensitive: true),
                                     orderBy: ["start_time"], limit: 100)
        XCTAssertEqual(events.count, 1)

        // DatePeriod
        let june = DatePeriod("2014-06")!        // start "2014-06", end "2014-07"
        let query = RowFilter.all([.greaterThanOrEqual("day", june.start), .lessThan("day", june.end!)])
        XCTAssertEqual(query.sql()?.arguments, [.text("2014-06"), .text("2014-07")])

        // RowFilter.sql, ConditionWriter
        let fragment = RowFilter.lessThanOrEqual("d", "2015-10-29").sql()
        XCTAssertEqual(fragment?.sql, "\"d\" < ?")
        XCTAssertEqual(fragment?.arguments, [.text("2015-10-30")])
        var writer = ConditionWriter(dialect: SQLiteDialect())
        let condition = writer.condition(.lessThanOrEqual("d", "2014-06"))
        XCTAssertEqual(condition, "\"d\" < ?")
        XCTAssertEqual(writer.arguments, [.text("2014-07")])
    }

    func testMessageAndCatalogExamples() throws {
        // CredentialRedaction
        let shown = CredentialRedaction.url("https://ana:pw@data.example.org/x.json")  // "https://ana@data.example.org/x.json"
        let message = CredentialRedaction.text("HTTP 404 from http://a:b@h/x")          // "HTTP 404 from http://a@h/x"
        XCTAssertEqual(shown, "https://ana@data.example.org/x.json")
        XCTAssertEqual(message, "HTTP 404 from http://a@h/x")
        // ShortList
        let listed = ["a", "b", "c", "d", "e", "f", "g"].shortList()   // "a, b, c, d, e ... and 2 more"
        XCTAssertEqual(listed, "a, b, c, d, e ... and 2 more")
        // Database.tableExists
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table N5M4_MISM(x)")
        let loaded = try db.tableExists("n5m4_mism")
        XCTAssertTrue(loaded)
        XCTAssertFalse(try db.tableExists("other"))
    }

    func testDatabaseQueueExamples() throws {
        do {
            let queue = try DatabaseQueue(path: "socload.sqlite")
            try queue.inDatabase { db in try db.execute(sql: "create table t(name)") }
            try queue.write { db in try db.execute(sql: "insert into t(name) values (?)", arguments: ["Ann"]) }
            let names = try queue.read { db in try db.fetchAll(String.self, sql: "select name from t") }
            XCTAssertEqual(names, ["Ann"])
            try queue.write { db in try db.execute(sql: "insert into t values (1)") }
            queue.checkpoint()
            let signalSource = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: .global())
            signalSource.setEventHandler { queue.interrupt() }
            signalSource.resume()
            signalSource.cancel()
        }
        do {
            var configuration = DatabaseConfiguration()
            configuration.acceptsChanges = false
            let queue = try DatabaseQueue(path: "socload.sqlite", configuration: configuration)
            XCTAssertThrowsError(try queue.inDatabase { db in try db.execute(sql: "delete from t") })
        }
        do {
            let queue = try DatabaseQueue(path: "socload.sqlite", configuration: .forReading("socload.sqlite"))
            XCTAssertEqual(try queue.read { db in try db.fetchValue(sql: "select count(*) from t") }, .integer(2))
        }
    }

    func testLoadingExamples() throws {
        // DatasetLoader and SQLiteDestination
        let queue = try DatabaseQueue(path: "socload.sqlite")
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))
        let summary = try loader.load(LoadSpec(dataset: "n5m4-mism"))
        XCTAssertEqual(summary.rowCount, 300)

        // SQLiteVerifier and SQLiteCatalog.drop
        let verification = try queue.read { db in try SQLiteVerifier.verify("n5m4_mism", db: db) }
        for line in verification?.differenceLines ?? [] { print(line) }
        XCTAssertEqual(verification?.differences, [])
        try queue.read { db in
            let forms = try SQLiteCatalog(db: db).timestampForms(of: "n5m4_mism")
            XCTAssertEqual(forms["nomination_date"], .floating)
        }
        // SQLiteLoadedDatabase, the read role
        do {
            let database = try SQLiteLoadedDatabase(path: "socload.sqlite")
            for table in try database.tables() { print(table.name, table.rowCount) }
            XCTAssertEqual(try database.tables().map(\.rowCount), [300])
            XCTAssertThrowsError(try database.drop("n5m4_mism")) // read-only: opened without acceptsChanges
            // TableContentHash
            let hash = try TableContentHash.rows(of: "n5m4_mism", in: database)   // 32 hex digits
            XCTAssertEqual(hash.count, 32)
            XCTAssertEqual(hash, try TableContentHash.rows(of: "n5m4_mism", in: database))
        }
        let dropped = try queue.write { db in try SQLiteCatalog(db: db).drop("n5m4_mism") }
        XCTAssertEqual(dropped, "n5m4_mism")

        // StagedDatabaseFile
        let staged = try StagedDatabaseFile(target: "city.sqlite")
        do {
            let queue = try DatabaseQueue(path: staged.path)
            try queue.write { db in try db.execute(sql: "create table t(a)") }
            queue.close()
            try staged.moveIntoPlace()       // or staged.discard() after a failure
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: "city.sqlite"))
    }

    func testSocrataExamples() throws {
        // ViewMetadata(description:)
        let json = #"{"id":"abcd-1234","columns":[{"fieldName":"name","dataTypeName":"text"}]}"#
        let view = try ViewMetadata(description: Array(json.utf8), source: "test")
        // LoadPlan
        let plan = try LoadPlan.socrata(view: view, options: PlanOptions(tableName: "n5m4_mism"))
        print(plan.tables[0].columns.map(\.name))
        // RowConverter
        var converter = RowConverter(plan: plan, rows: .arrays)
        var batch = RowBatch(columnCount: plan.mainTable.columns.count, firstRowNumber: 1, expectedRows: 1024)
        try Array(#"["Ann"]"#.utf8).withUnsafeBufferPointer { rowBytes in
            try converter.append(row: rowBytes, rowNumber: 1, offset: 0, to: &batch)
        }
        XCTAssertEqual(batch.row(0), [.text("Ann")])
        // RowsJSONReader
        let document = Array(#"{"meta":{"view":{"columns":[{"fieldName":"name","dataTypeName":"text"}]}},"data":[["Ann"]]}"#.utf8)
        try document.withUnsafeBytes { chunk in
            let reader = RowsJSONReader()
            try reader.feed(chunk, onMetadata: { view in print(view.columns.count) }, onRow: { row in nil })   // each chunk
            try reader.finish()
        }
        // CatalogSearch
        let search = CatalogSearch(words: "bus delays", domain: "data.cityofnewyork.us", limit: 5)
        print(search.url(catalog: CatalogSearch.defaultCatalog))   // then search.run(catalog:)
        XCTAssertEqual(search.url(catalog: CatalogSearch.defaultCatalog),
                       "https://api.us.socrata.com/api/catalog/v1?q=bus%20delays&domains=data.cityofnewyork.us&limit=5&offset=0")
    }

    func testPostgreSQLExamples() throws {
        // PostgreSQLConnectionString
        let target = PostgreSQLConnectionString("postgresql://ana:secret@db.example.org/opendata")
        print(target?.redacted ?? "")  // postgresql://ana@db.example.org/opendata
        XCTAssertEqual(target?.redacted, "postgresql://ana@db.example.org/opendata")
        // LoadPlan.shortenedName
        let short = LoadPlan.shortenedName(String(repeating: "a", count: 80), toBytes: 63)
        XCTAssertEqual(short.utf8.count, 63)

        // `postgres:` alone: the PG* environment variables name the test database.
        let testDatabase = try TestPostgreSQL.makeDatabase()
        let url = try XCTUnwrap(URLComponents(string: testDatabase.url))
        setenv("PGHOST", url.host ?? "127.0.0.1", 1)
        setenv("PGPORT", String(url.port ?? 5432), 1)
        setenv("PGUSER", url.user ?? "postgres", 1)
        setenv("PGDATABASE", testDatabase.name, 1)
        defer { for name in ["PGHOST", "PGPORT", "PGUSER", "PGDATABASE"] { unsetenv(name) } }
        do {
            // PostgreSQLDestination
            let connection = try PostgreSQLConnection(PostgreSQLConnectionString("postgres:")!)
            let loader = DatasetLoader(destination: PostgreSQLDestination(connection: connection))
            XCTAssertEqual(try loader.load(LoadSpec(dataset: "n5m4-mism")).rowCount, 300)
        }
        do {
            // PostgreSQLDatabase
            let database = PostgreSQLDatabase(connection: try PostgreSQLConnection(PostgreSQLConnectionString("postgres:")!))
            for table in try database.tables() { print(table.name, table.rowCount) }
            XCTAssertEqual(try database.tables().map(\.rowCount), [300])
        }
    }

    func testRecordWriteExamples() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table agencies (id integer primary key, name text unique, nominations integer)")
        // Database+Write
        struct Agency: Codable { var id: Int64?; var name: String; var nominations: Int }
        try db.insert(Agency(id: nil, name: "State", nominations: 0), into: "agencies")
        try db.upsert(Agency(id: nil, name: "State", nominations: 3), into: "agencies", by: ["name"])
        let state = try db.findOrCreate(Agency(id: nil, name: "State", nominations: 0), in: "agencies", by: ["name"])
        XCTAssertEqual(state.nominations, 3)
        XCTAssertEqual(state.id, 1)
    }

    func testLookupExamples() throws {
        let queue = try DatabaseQueue(path: "socload.sqlite")
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))
        XCTAssertEqual(try loader.load(LoadSpec(dataset: "n5m4-mism")).rowCount, 300)
        // Extraction
        let extraction = try Extraction(spec: "agency+count+distinct=name")
        print(extraction.columns, extraction.count, extraction.countDistinct)
        XCTAssertEqual(extraction, Extraction(columns: ["agency"], count: true, countDistinct: ["name"]))
        // DatasetLoader.extract
        let summary = try loader.extract(Extraction(columns: ["agency"], count: true), from: "n5m4_mism")
        XCTAssertEqual(summary.lookup.foreignKey, "agency_id")
        // LookupExtractor: the same, on a destination alone
        do {
            let destination = SQLiteDestination(queue: queue)
            let summary = try LookupExtractor(destination: destination).extract(Extraction(columns: ["position"], count: true), from: "n5m4_mism")
            XCTAssertEqual(summary.lookup.foreignKey, "position_id")
        }
        // RowFilter.related
        let predicate: RowFilter = .related("agency_id", to: "agency", where: .in("agency", ["State", "Defense"]))
        struct Nomination: Decodable { var name: String }
        let nominations = try queue.read { db in try db.fetchAll(Nomination.self, from: "n5m4_mism", where: predicate) }
        let expected = try queue.read { db in
            try db.fetchValue(sql: "SELECT sum(n5m4_mism_count) FROM agency WHERE agency IN ('State', 'Defense')")
        }
        XCTAssertEqual(expected, .integer(Int64(nominations.count)))
        // SQLiteVerifier.nonNullCounts
        let counts = try queue.read { db in try SQLiteVerifier.nonNullCounts(of: "n5m4_mism", db: db) }
        XCTAssertEqual(counts["agency"], 300)
    }

    func testDocumentExamples() throws {
        // DatasetLoader.load, a document
        try #"[{"name": "Budget", "members": 7}]"#.write(toFile: "committees.json", atomically: true, encoding: .utf8)
        let queue = try DatabaseQueue(path: "socload.sqlite")
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))
        let summary = try loader.load(LoadSpec(document: "committees.json"))
        XCTAssertEqual(summary.tableName, "committees")
        XCTAssertEqual(try queue.read { db in try db.fetchValue(sql: "SELECT members FROM committees") }, .integer(7))
    }

    /// Every line of every code example in the doc comments of the libraries is in this file (or
    /// its extensions), so
    /// an example that stops compiling or working fails here. (A block of output, such as an
    /// error's text, is not Swift and is left out: a block counts when a line binds or calls.)
    func testTheDocCommentsExamplesAreTheseOnes() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Tests/SocloadExamplesTests")
        let here = try ["DocCommentExamples.swift", "DocCommentExamples+Library.swift", "DocCommentExamples+Catalog.swift",
                        "DocCommentExamples+Watch.swift", "DocCommentExamples+Parquet.swift",
                        "DocCommentExamples+Platforms.swift"].map {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        let lines = Set(here.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var checked = 0
        for library in ["SocloadCore", "SocloadDatabase", "SocloadEngine", "SocloadSocrata", "SocloadSQLite", "SocloadPostgreSQL",
                        "SocloadProject", "SocloadParquet", "SocloadPlatforms"] {
            let folder = Fixtures.packageRoot.appendingPathComponent("Sources/\(library)")
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                var block: [String] = []
                for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [""] {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed.hasPrefix("///     ") {
                        block.append(String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces))
                        continue
                    }
                    let isSwift = block.contains { $0.hasPrefix("let ") || $0.hasPrefix("var ") || $0.hasPrefix("try ") }
                    for code in block where isSwift && !code.hasPrefix("//") {
                        XCTAssertTrue(lines.contains(code), "\(library)/\(file): example line not compiled here: \(code)")
                        checked += 1
                    }
                    block = []
                }
            }
        }
        XCTAssertGreaterThan(checked, 30)
    }
}
