import Foundation
import SocloadKit
import SocloadTestSupport
import XCTest

/// The README's Swift examples, compiled and run as written (`testTheReadmesExamplesAreTheseOnes`
/// checks that every line of them is here). Each runs in a temporary directory that has the
/// bundled `Datasets`, so `socload.sqlite` and `Datasets` mean what the README says.
final class ReadmeExamples: ExampleTestCase {
    /// "Loading a dataset from Swift".
    func testLoadingADataset() throws {
        let token = ProcessInfo.processInfo.environment["SOCRATA_APP_TOKEN"]
        let domain: String? = nil                    // a portal such as "data.example.org"; nil: the bundled copy
        let queue = try DatabaseQueue(path: "socload.sqlite")
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue),
                                   http: HTTPOptions(appToken: token))
        var spec = LoadSpec(dataset: "n5m4-mism", domain: domain) // an id, a portal URL or a rows.json
        spec.typeOverrides = ["confirmation_vote": .text]  // --type confirmation_vote=text
        spec.indexes = [["agency"]]                  // --index agency
        let summary = try loader.load(spec)          // or: try await loader.load(spec)
        print("\(summary.rowCount) rows in \(summary.tableName)")
        for column in summary.invalidCells { print(column.summary) }

        let plan = try DatasetLoader.plan(for: spec) // what --dry-run prints: no rows, no database

        XCTAssertEqual(summary.rowCount, 300)
        XCTAssertEqual(plan.mainTable.column(named: "confirmation_vote")?.type, .text)
        XCTAssertEqual(plan.mainTable.indexes.map(\.columns), [["agency"]])
    }

    /// "Using the library from Swift": rows decoded by column name, synchronously and with async.
    func testReadingRows() async throws {
        try loadBundledCopy()
        struct Nomination: Decodable {
            var name: String
            var agency: String?
            var nominationDate: Date?   // ISO-8601 text or epoch seconds

            enum CodingKeys: String, CodingKey {
                case name, agency, nominationDate = "nomination_date"
            }
        }

        // The synchronous call, where the context is not async (as at a script's top level).
        func readSynchronously() throws -> [Nomination] {
            let queue = try DatabaseQueue(path: "socload.sqlite")
            let rows = try queue.read { db in
                try db.fetchAll(Nomination.self, sql: "select name, agency from n5m4_mism where agency = ?",
                                arguments: ["State"])
            }
            return rows
        }

        // In async code the same call is awaited; the closure runs on the queue meanwhile.
        func nominations(from queue: DatabaseQueue) async throws -> [Nomination] {
            try await queue.read { db in
                try db.fetchAll(Nomination.self, sql: "select name, agency from n5m4_mism where agency = ?",
                                arguments: ["State"])
            }
        }

        let rows = try readSynchronously()
        let same = try await nominations(from: DatabaseQueue(path: "socload.sqlite"))
        XCTAssertFalse(rows.isEmpty)
        XCTAssertEqual(rows.map(\.name), same.map(\.name))
        XCTAssertTrue(rows.allSatisfy { $0.agency == "State" })
    }

    /// "Conditions without SQL: RowFilter".
    func testPredicates() throws {
        struct Event: Decodable {
            var category: String
            var note: String
        }
        let queue = try DatabaseQueue(path: "events.sqlite")
        try queue.write { db in
            try db.execute(sql: "create table t(category, note, start_time)")
            for (category, note, start) in [("a", "Café Zürich", "2015-01-02"), ("b", "CAFE", "2015-01-01"), ("c", "cafe", "2015-01-03")] {
                try db.execute(sql: "insert into t values (?, ?, ?)", arguments: [category, note, start])
            }
        }
        let cats = ["a", "b"]
        let events = try queue.read { db in
            try db.fetchAll(Event.self, from: "t",
                            where: .in("category", cats) && .contains("note", "cafe", caseInsensitive: true, diacriticInsensitive: true),
                            orderBy: ["start_time"], limit: 100)
        }
        XCTAssertEqual(events.map(\.category), ["b", "a"])
    }

    /// "Writing records".
    func testWritingRecords() throws {
        let queue = try DatabaseQueue(path: "agencies.sqlite")
        struct Agency: Codable { var id: Int64?; var name: String; var nominations: Int }
        let state = try queue.write { db in
            try db.execute(sql: "create table if not exists agencies (id integer primary key, name text unique, nominations integer)")
            try db.insert(Agency(id: nil, name: "Treasury", nominations: 58), into: "agencies")
            try db.upsert(Agency(id: nil, name: "Treasury", nominations: 59), into: "agencies", by: ["name"])
            return try db.findOrCreate(Agency(id: nil, name: "State", nominations: 0), in: "agencies", by: ["name"])
        }
        XCTAssertEqual(state.id, 2)
        XCTAssertEqual(try queue.read { try $0.fetchAll(Int.self, sql: "select nominations from agencies order by id") }, [59, 0])

        try queue.write { db in
            try db.update(Agency(id: nil, name: "State", nominations: 4), in: "agencies", by: ["name"])  // rows changed: 1
            try db.delete(from: "agencies", matching: .equals("nominations", 0))                        // rows deleted
        }
        let busy = try queue.read { db in try db.count(in: "agencies", matching: .greaterThan("nominations", 3)) }
        XCTAssertEqual(busy, 2)
        XCTAssertEqual(try queue.read { try $0.fetchAll(String.self, sql: "select name from agencies order by id") }, ["Treasury", "State"])
    }

    /// "A small app: a pool, reads during a load, records, cancellation".
    func testASmallApp() async throws {
        let pool = try DatabasePool(path: "city.sqlite")
        let loader = DatasetLoader(destination: SQLiteDestination(pool: pool))
        _ = try await loader.load(LoadSpec(dataset: "n5m4-mism"))

        var refresh = LoadSpec(dataset: "n5m4-mism")
        refresh.force = true
        let reload = Task { [refresh] in try await loader.load(refresh) }       // the nightly refresh
        let nominations = try await pool.read { db in try db.count(in: "n5m4_mism") }  // answered at once: 300

        struct Note: Codable { var id: Int64?; var nominee: String; var text: String }
        try await pool.write { db in
            try db.execute(sql: "create table if not exists notes (id integer primary key, nominee text, text text)")
            try db.insert(Note(id: nil, nominee: "Ann", text: "call back"), into: "notes")
        }
        let slow = Task { try await pool.read { db in try db.fetchAll(Note.self, sql: "select * from notes") } }
        slow.cancel()                                       // throws CancellationError; the pool goes on
        _ = try await reload.value

        XCTAssertEqual(nominations, 300)
        let notes = try await pool.read { db in try db.count(in: "notes") }
        XCTAssertEqual(notes, 1)
    }

    private func loadBundledCopy() throws {
        let queue = try DatabaseQueue(path: "socload.sqlite")
        _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
    }

    /// Every line of every Swift example in the README and the docs is in this file (imports aside), so an
    /// example that stops compiling or working fails here.
    /// "Reading a loaded database, SQLite or PostgreSQL".
    func testReadingThroughTheReadRole() throws {
        try loadBundledCopy()
        let database: any LoadedDatabase = try SQLiteLoadedDatabase(path: "socload.sqlite")
        for table in try database.tables() { print(table.name, table.rowCount, table.nameInSQL) }
        let statement = try database.selectStatement(SelectRequest(table: "n5m4_mism", columns: ["name"],
                                                                   predicate: .equals("agency", "State"), limit: 3))
        try database.read(statement, columns: { names in print(names) }) { row in print(row) }

        XCTAssertEqual(try database.tables().map(\.rowCount), [300])
        var rows: [[DatabaseValue]] = []
        try database.read(statement, columns: { XCTAssertEqual($0, ["name"]) }) { rows.append($0) }
        XCTAssertEqual(rows.count, 3)
    }

    func testTheReadmesExamplesAreTheseOnes() throws {
        let readme = try ["README.md", "docs/library.md", "docs/guide.md"].map { page in
            try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(page), encoding: .utf8)
        }.joined(separator: "\n")
        let here = try ["ReadmeExamples.swift", "ReadmeExamples+Projects.swift"].map { file in
            try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/SocloadExamplesTests/" + file), encoding: .utf8)
        }.joined(separator: "\n")
        let lines = Set(here.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        XCTAssertGreaterThanOrEqual(blocks.count, 3)
        for block in blocks {
            for line in block.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty, !trimmed.hasPrefix("import ") else { continue }
                XCTAssertTrue(lines.contains(trimmed), "README example line not compiled here: \(trimmed)")
            }
        }
    }
}
