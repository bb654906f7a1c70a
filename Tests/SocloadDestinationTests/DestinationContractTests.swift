import Foundation
import SocloadCore
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// The contract every destination keeps, whatever it writes to: a load makes the plan's tables
/// with every row and records them; a reload replaces them; a failed load (bad data, a duplicate
/// key, a cancel) changes nothing; child tables go in with their parent. Each destination runs
/// it through a subclass that says how to make it and read it back, and calls each `check`
/// from a test of its own (XCTest on Linux finds only the tests a class declares itself).
class DestinationContractTests: XCTestCase {
    var subject: (any DestinationSubject)!
    var directory: URL!

    /// The subject under test, made by each destination's subclass.
    func makeSubject() throws -> any DestinationSubject {
        throw XCTSkip("the contract runs in each destination's subclass")
    }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("socload-contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        subject = try makeSubject()
    }

    override func tearDownWithError() throws {
        subject = nil
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    // MARK: - The documents

    static let columns = #"{"fieldName":":sid","dataTypeName":"meta_data"},{"fieldName":":id","dataTypeName":"meta_data"},"#
        + #"{"fieldName":":position","dataTypeName":"meta_data"},{"fieldName":":created_at","dataTypeName":"meta_data"},"#
        + #"{"fieldName":":created_meta","dataTypeName":"meta_data"},{"fieldName":":updated_at","dataTypeName":"meta_data"},"#
        + #"{"fieldName":":updated_meta","dataTypeName":"meta_data"},{"fieldName":":meta","dataTypeName":"meta_data"},"#
        + #"{"fieldName":"name","dataTypeName":"text"},{"fieldName":"count","dataTypeName":"number"},"#
        + #"{"fieldName":"active","dataTypeName":"checkbox"},{"fieldName":"day","dataTypeName":"calendar_date"}"#

    /// A rows.json export of `rows`: (id, name, count, active, day), in that order.
    static func document(_ rows: [String]) -> String {
        #"{"meta":{"view":{"id":"cont-0001","name":"Contract","columns":["# + columns + #"]}},"data":["#
            + rows.enumerated().map { index, row in #"[\#(index + 1),"# + row.replacingOccurrences(of: "ID,", with: "")
                .replacingOccurrences(of: "#", with: #"\#(index + 1),1420074000,"x",1420074000,"x","{}","#) }
            .joined(separator: ",") + "]}"
    }

    static let first = document([
        #""row-b",#"Ana Åström","12",true,"2014-06-01T00:00:00"]"#,
        #""row-a",#"O'Brien \"the\" first","2.5",false,null]"#,
        #""row-c",#null,null,null,"2015-01-31T10:30:00"]"#,
    ])
    static let second = document([
        #""row-d",#"Zoë","-7",true,"2020-02-29T00:00:00"]"#,
        #""row-a",#"O'Brien","3",null,null]"#,
    ])

    func write(_ name: String, _ text: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @discardableResult
    func load(_ text: String, pk: [String]? = nil, maxRows: Int? = nil) throws -> LoadSummary {
        var request = LoadRequest(reference: DatasetReference(location: .file(try write("doc-\(UUID().uuidString).json", text)),
                                                              datasetID: "cont-0001", domain: nil), tableName: "t")
        request.force = true
        request.primaryKey = pk
        request.maxRows = maxRows
        return try DatasetLoader(destination: try subject.makeDestination()).load(request)
    }

    /// What a load made, in one form per logical type (numbers as doubles, booleans as 0 and 1,
    /// instants and floating times as ISO-8601 text) so the databases' own forms compare.
    func contents(_ table: PlanTable) throws -> [[String?]] {
        try subject.rows(of: table).map { row in
            zip(row, table.storedColumns).map { cell, column in Self.normalized(cell, column.type) }
        }
    }

    static func normalized(_ cell: CellValue, _ type: LogicalType) -> String? {
        let text: String
        switch cell {
        case .null: return nil
        case .integer(let integer): text = String(integer)
        case .real(let real): text = String(real)
        case .text(let value), .decimal(let value): text = value
        }
        switch type {
        case .integer, .double, .decimal: return Double(text).map { String($0) } ?? text
        case .boolean: return ["1", "true", "t"].contains(text) ? "1" : ["0", "false", "f"].contains(text) ? "0" : text
        case .timestamp, .floatingTimestamp:
            var value = text.replacingOccurrences(of: " ", with: "T")
            for suffix in ["+00:00", "+00"] where value.hasSuffix(suffix) { value = String(value.dropLast(suffix.count)) + "Z" }
            return value
        default: return text
        }
    }

    static let firstRows: [[String?]] = [
        ["row-a", "2015-01-01T01:00:00Z", "2015-01-01T01:00:00Z", "O'Brien \"the\" first", "2.5", "0", nil],
        ["row-b", "2015-01-01T01:00:00Z", "2015-01-01T01:00:00Z", "Ana Åström", "12.0", "1", "2014-06-01T00:00:00"],
        ["row-c", "2015-01-01T01:00:00Z", "2015-01-01T01:00:00Z", nil, nil, nil, "2015-01-31T10:30:00"],
    ]

    func plan() throws -> PlanTable {
        try XCTUnwrap(try subject.entry(for: "t")?.plan?.mainTable)
    }

    // MARK: - The contract

    func checkALoadMakesThePlansTableWithEveryRowAndRecordsIt() throws {
        let summary = try load(Self.first)
        XCTAssertEqual(summary.rowCount, 3)
        let table = try plan()
        XCTAssertEqual(table.storedColumns.map(\.name), ["_id", "_created_at", "_updated_at", "name", "count", "active", "day"])
        XCTAssertEqual(table.primaryKey, ["_id"])
        XCTAssertEqual(try contents(table), Self.firstRows)
        XCTAssertEqual(try subject.tableNames(), ["t"])
        let entry = try XCTUnwrap(try subject.entry(for: "t"))
        XCTAssertEqual(entry.rowCount, 3)
        XCTAssertEqual(entry.datasetID, "cont-0001")
        XCTAssertNil(entry.partialReason)
        // The write role reads what it loaded (`CatalogReader`), as the read role does.
        let destination = try subject.makeDestination()
        XCTAssertEqual(try destination.tables().map(\.name), ["t"])
        XCTAssertEqual(try destination.tables().first?.rowCount, 3)
        XCTAssertEqual(try destination.entry(for: "cont-0001")?.tableName, "t")
        XCTAssertEqual(try destination.planTable(named: "t")?.storedColumns.map(\.name), table.storedColumns.map(\.name))
        XCTAssertTrue(try destination.tableExists("t"))
        XCTAssertFalse(try destination.tableExists("u"))
        XCTAssertEqual(try destination.refreshes(of: "t").map(\.rowCount), [3])
        XCTAssertEqual(try destination.schemaChanges(of: "t").count, 0)
    }

    func checkAReloadReplacesEveryRow() throws {
        try load(Self.first)
        try load(Self.second)
        XCTAssertEqual(try contents(try plan()), [
            ["row-a", "2015-01-01T01:00:00Z", "2015-01-01T01:00:00Z", "O'Brien", "3.0", nil, nil],
            ["row-d", "2015-01-01T01:00:00Z", "2015-01-01T01:00:00Z", "Zoë", "-7.0", "1", "2020-02-29T00:00:00"],
        ])
        XCTAssertEqual(try subject.entry(for: "t")?.rowCount, 2)
    }

    /// Bad data after some rows went in, a duplicate key and a limit exceeded all leave the
    /// previous table and its catalog entry exactly as they were.
    func checkAFailedLoadChangesNothing() throws {
        try load(Self.first)
        let before = try contents(try plan())
        let entryBefore = try subject.entry(for: "t")
        let truncated = String(Self.second.dropLast(30))
        XCTAssertThrowsError(try load(truncated)) { error in
            XCTAssertEqual((error as? any CategorizedError)?.kind, .badData, "\(error)")
        }
        XCTAssertThrowsError(try load(Self.second, pk: ["active"])) { error in
            XCTAssertEqual(error as? LoadError, .nullKey(table: "t", column: "active", row: 2))
        }
        let duplicated = Self.document([#""row-1",#"same","1",true,null]"#, #""row-2",#"same","2",true,null]"#])
        XCTAssertThrowsError(try load(duplicated, pk: ["name"])) { error in
            XCTAssertEqual(error as? LoadError, .duplicateKey(table: "t", key: "name", value: #""same""#, rows: [1, 2]))
        }
        XCTAssertThrowsError(try load(Self.second, maxRows: 1)) { error in
            XCTAssertEqual(error as? LoadError, .tooManyRows(maximum: 1))
        }
        XCTAssertEqual(try contents(try plan()), before)
        XCTAssertEqual(try subject.entry(for: "t"), entryBefore)
        XCTAssertEqual(try subject.tableNames(), ["t"])
    }

    /// Two rows with the same key: every destination names the key, its value and both rows the
    /// same way.
    func checkADuplicateKeyIsReportedTheSameWayEverywhere() throws {
        let duplicated = Self.document([
            #""row-1",#"same","1",true,null]"#,
            #""row-2",#"other","2",true,null]"#,
            #""row-3",#"same","1",true,null]"#,
        ])
        XCTAssertThrowsError(try load(duplicated, pk: ["name"])) { error in
            XCTAssertEqual("\(error)", #"duplicate key name = "same" in t: rows 1 and 3"#)
        }
        XCTAssertThrowsError(try load(duplicated, pk: ["active"])) { error in
            XCTAssertEqual("\(error)", "duplicate key active = true in t: rows 1 and 2")
        }
        XCTAssertThrowsError(try load(duplicated, pk: ["count", "active"])) { error in
            XCTAssertEqual("\(error)", "duplicate key (count, active) = (1, true) in t: rows 1 and 3")
        }
        XCTAssertEqual(try subject.tableNames(), [])
        XCTAssertNil(try subject.entry(for: "t"))
    }

    /// Every real export beside the project (`../shared/datasets`, skipped when absent) loads
    /// with every row, and a second load of it replaces the first.
    func checkRealExportsLoadWithEveryRow() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("no ../shared/datasets") }
        let files = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".rows.json") }.sorted()
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let path = shared.appendingPathComponent(file).path
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            let expected = (document?["data"] as? [Any])?.count
            let table = "real_" + file.prefix(9).replacingOccurrences(of: "-", with: "_")
            for _ in 0..<2 {
                var request = LoadRequest(reference: DatasetReference(location: .file(path), datasetID: nil, domain: nil), tableName: table)
                request.force = true
                let summary = try DatasetLoader(destination: try subject.makeDestination()).load(request)
                XCTAssertEqual(summary.rowCount, expected, file)
            }
            let plan = try XCTUnwrap(try subject.entry(for: table)?.plan, file)
            XCTAssertEqual(try subject.rows(of: plan.mainTable).count, expected, file)
        }
    }
}
