import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// `LoadSpec`: one value for what to load, whose `Codable` form is a project entry.
final class LoadSpecTests: XCTestCase {
    func testAnEntryDecodesIntoEveryOptionItNames() throws {
        let entry = #"""
            {"id": "abcd-1234", "table": "permits", "domain": "data.example.org", "where": "amount > 5", "order": "name",
             "page-size": 500, "limit": "40", "max-rows": 1000, "api": "soda2", "force": true, "system-columns": true,
             "type": ["amount=text", "opened=date"], "index": ["category", "name,amount"], "pk": "name", "fts": "name",
             "extract": ["category:categories+count"], "on-schema-change": "EVOLVE", "keep-changes": 3, "history": true,
             "strict": true, "geometry": "site", "distribute-by": "name"}
            """#
        let spec = try JSONDecoder().decode(LoadSpec.self, from: Data(entry.utf8))
        XCTAssertEqual(spec.source, .dataset("abcd-1234"))
        XCTAssertEqual(spec.tableName, "permits")
        XCTAssertEqual(spec.domain, "data.example.org")
        XCTAssertEqual(spec.query, SoQLQuery(where: "amount > 5", order: "name"))
        XCTAssertEqual([spec.pageSize, spec.limit, spec.maxRows], [500, 40, 1000])
        XCTAssertEqual(spec.api, .soda2)
        XCTAssertTrue(spec.force && spec.includeSystemColumns)
        XCTAssertEqual(spec.typeOverrides, ["amount": .text, "opened": .date])
        XCTAssertEqual(spec.indexes, [["category"], ["name", "amount"]])
        XCTAssertEqual(spec.primaryKey, ["name"])
        XCTAssertEqual(spec.fullTextColumns, ["name"])
        XCTAssertEqual(spec.extractions.map(\.spec), ["category:categories+count"])
        XCTAssertEqual(spec.onSchemaChange, .evolve)
        XCTAssertEqual(spec.keptChangeRefreshes, 3)
        XCTAssertTrue(spec.keepsHistory && spec.strict)
        XCTAssertEqual(spec.geometryColumn, "site")
        XCTAssertEqual(spec.distributeBy, "name")

        // Encoded, it is an entry again, and decodes into the same spec.
        let again = try JSONDecoder().decode(LoadSpec.self, from: JSONEncoder().encode(spec))
        XCTAssertEqual(again, spec)
    }

    func testADocumentSpecRoundTripsItsReadingOptions() throws {
        var spec = LoadSpec(document: "committees.tsv", tableName: "committees")
        spec.mode = .upsert
        spec.tableOptions.onSchemaChange = .evolve
        spec.document.format = .csv(CSVDialect(delimiter: UInt8(ascii: "\t"), encoding: .latin1, hasHeader: false))
        spec.document.childKeys = ["members:id": "person"]
        spec.document.glues = [GlueSpec(arrayField: "tags", otherTable: "tags", otherKey: "id", idField: "tag_id")]
        let data = try JSONEncoder().encode(spec)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains(#""delimiter":"tab""#) && text.contains(#""mode":"upsert""#), text)
        XCTAssertEqual(try JSONDecoder().decode(LoadSpec.self, from: data), spec)

        // A spec made in Swift comes back whole, whatever its policy (an upsert's warn is its fail).
        var upsert = LoadSpec(document: "x.csv")
        upsert.mode = .upsert
        upsert.primaryKey = ["id"]
        XCTAssertEqual(try JSONDecoder().decode(LoadSpec.self, from: JSONEncoder().encode(upsert)), upsert)
        XCTAssertEqual(LoadSpecError(key: "pk", problem: "is empty").localizedDescription, #"key "pk" is empty"#)
        // An append keeps the table's shape unless told otherwise.
        let append = try JSONDecoder().decode(LoadSpec.self, from: Data(#"{"document": "a.ndjson", "mode": "append"}"#.utf8))
        XCTAssertEqual(append.onSchemaChange, .fail)
        XCTAssertEqual(try JSONDecoder().decode(LoadSpec.self, from: Data(#"{"document": "a.json", "lines": true}"#.utf8)).document.layout, .lines)
    }

    func testAWrongKeyOrValueIsAnErrorNamingIt() {
        let cases: [(String, String?, String)] = [
            (#"{"id": "abcd-1234", "page-sise": 10}"#, "page-sise", #"is not an option of fetch (did you mean "page-size"?)"#),
            (#"{"document": "a.csv", "where": "x > 1"}"#, "where", "is not an option of load"),
            (#"{"id": "abcd-1234", "page-size": 0}"#, "page-size", "takes a number above 0, not '0'"),
            (#"{"id": "abcd-1234", "force": "yes"}"#, "force", "takes true or false"),
            (#"{"id": "abcd-1234", "index": "a"}"#, "index", #"takes a list, such as ["a", "b"]"#),
            (#"{"id": "abcd-1234", "url": "https://x.org/d/abcd-1234"}"#, nil, "names its source twice (id, url): give one"),
            (#"{"table": "t"}"#, nil, #"names no dataset: give "id", "url" or "file""#),
            (#"{"document": "a.csv", "csv": true, "tsv": true}"#, nil, "--csv and --tsv are two different formats: pass one"),
            (#"{"document": "a.csv", "csv": true, "flatten": true}"#, nil, "--flatten is for JSON documents, not CSV"),
            (#"{"id": "abcd-1234", "incremental": true, "extract": ["a"]}"#, nil, "--extract shapes a load, and --incremental only syncs"),
        ]
        for (text, key, problem) in cases {
            XCTAssertThrowsError(try JSONDecoder().decode(LoadSpec.self, from: Data(text.utf8)), text) { error in
                guard let error = error as? LoadSpecError else { return XCTFail("\(text): \(error)") }
                XCTAssertEqual(error.key, key, text)
                XCTAssertTrue(error.problem.hasPrefix(problem), "\(text): \(error.problem)")
            }
        }
    }

    func testASpecLoadsADatasetAndADocumentAsTheCommandsWould() throws {
        let portal = try FakeSocrataPortal(datasetID: "spec-0001", columns: [.init("name", "text"), .init("amount", "number")],
                                           rows: (1...7).map { index in
                                               .init(id: "row-\(index)", createdAt: 1_420_070_400, updatedAt: 1_420_070_400,
                                                     cells: ["name": .text("N\(index)"), "amount": .number("\(index).5")])
                                           }, rowsUpdatedAt: 1_420_070_400)
        defer { portal.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("socload-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("spec.sqlite").path)
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))

        var spec = LoadSpec(dataset: "spec-0001", domain: portal.baseURL)
        spec.indexes = [["name"]]
        spec.query.where = "name = 'N4'"
        let fetched = try loader.load(spec)
        XCTAssertEqual(fetched.tableName, "spec_0001")
        XCTAssertEqual(try queue.read { db in try db.count(in: "spec_0001") }, 1)
        XCTAssertEqual(try loader.load(LoadSpec(dataset: "spec-0001", domain: portal.baseURL)).rowCount, 7)
        XCTAssertEqual(try DatasetLoader.plan(for: spec).mainTable.indexes.map(\.columns), [["name"]])

        let document = folder.appendingPathComponent("notes.ndjson")
        try Data("{\"id\": 1, \"note\": \"a\"}\n{\"id\": 2, \"note\": \"b\"}\n".utf8).write(to: document)
        var notes = LoadSpec(document: document.path)
        notes.primaryKey = ["id"]
        XCTAssertEqual(try loader.load(notes).rowCount, 2)
        try Data("{\"id\": 2, \"note\": \"c\"}\n{\"id\": 3, \"note\": \"d\"}\n".utf8).write(to: document)
        notes.mode = .upsert
        notes.onSchemaChange = .fail
        XCTAssertEqual(try loader.load(notes).rowCount, 3)
        struct Note: Decodable { var note: String }
        XCTAssertEqual(try queue.read { db in try db.fetchAll(Note.self, sql: "select note from notes order by id") }.map(\.note),
                       ["a", "c", "d"])

        // A document is no dataset to plan or sync from a portal.
        XCTAssertThrowsError(try loader.sync(notes))
    }
}
