import Foundation
import SocloadTestSupport
import XCTest

/// `socload load PAGE --metadata VIEW`: pages saved the ordinary way (`/resource/ID.json`, no
/// `:id`), of every SODA shape, typed exactly as `fetch` types the same dataset; in SQLite and
/// PostgreSQL alike.
final class SavedSODAPageTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portal: FakeSocrataPortal!

    static let columns: [FakeSocrataPortal.Column] = [
        .init("name", "text"), .init("amount", "number"), .init("seen", "calendar_date"), .init("done", "checkbox"),
        .init("stamp", "date"), .init("site", "location"), .init("link", "url"), .init("spot", "point"),
    ]
    static let userColumns = "name, amount, seen, done, stamp, site, site_latitude, site_longitude, link, link_description, "
        + "spot, spot_longitude, spot_latitude"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let rows = (1...7).map { index -> FakeSocrataPortal.Row in
            var cells: [String: FakeSocrataPortal.Cell] = [
                "name": .text("Név \(index)"), "amount": .number("\(index * 7).25"), "seen": .calendarDate("2015-0\(index)-01T00:00:00"),
                "done": .checkbox(index % 2 == 0), "stamp": .timestamp(1_420_070_400 + index * 3600),
                "site": .location(address: "{\"city\": \"Zürich\"}", latitude: "47.\(index)", longitude: "8.5\(index)"),
                "link": .url("https://example.org/\(index)", description: index == 3 ? nil : "link \(index)"),
                "spot": .point(longitude: "-122.2\(index)", latitude: "47.6\(index)"),
            ]
            if index == 4 { cells["amount"] = nil; cells["site"] = nil } // ragged: fields absent from some records
            return .init(id: "row-\(index)", createdAt: 1_420_070_400, updatedAt: 1_420_070_400, cells: cells)
        }
        portal = try FakeSocrataPortal(datasetID: "page-0001", columns: Self.columns, rows: rows, rowsUpdatedAt: 1_430_000_000)
    }

    override func tearDown() {
        portal.stop()
    }

    private func run(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db], environment: ["SOCLOAD_RETRY_DELAY": "0.01"])
    }

    @discardableResult
    private func succeed(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> SocloadRun {
        let result = try run(arguments, db: db)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result
    }

    private func csv(_ sql: String, db: String) throws -> [String] {
        try succeed(["query", sql, "--format", "csv"], db: db).stdout.split(whereSeparator: \.isNewline).map(String.init)
    }

    private func schema(_ table: String, db: String) throws -> [String] {
        try succeed(["schema", table, "--format", "csv"], db: db).stdout.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return "\(fields[0]) key=\(fields[3]) \(fields[fields.count - 1])"
        }
    }

    /// The page as `curl .../resource/ID.json?$limit=50000` saves it: no system fields.
    private func savedPage() throws -> [[String: Any]] {
        let body = portal.soda2PageBody(offset: 0, limit: 1_000)
        let records = try JSONSerialization.jsonObject(with: Data(body)) as! [[String: Any]]
        return records.map { $0.filter { !$0.key.hasPrefix(":") } }
    }

    /// The same records as SODA3 sends them: numbers and coordinates as JSON numbers.
    private func soda3Shaped(_ records: [[String: Any]]) -> [[String: Any]] {
        records.map { record in
            var record = record
            if let amount = record["amount"] as? String { record["amount"] = Double(amount)! }
            if var site = record["site"] as? [String: Any] {
                for part in ["latitude", "longitude"] { site[part] = Double(site[part] as! String)! }
                record["site"] = site
            }
            return record
        }
    }

    private func write(_ records: [[String: Any]], _ name: String, pretty: Bool = true) throws -> String {
        let path = directory.path(name)
        try JSONSerialization.data(withJSONObject: records, options: pretty ? [.prettyPrinted] : []).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testPagesWithoutSystemFieldsInEverySODAShapeAreTypedAsFetchTypesThem() throws {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        let view = "\(portal.baseURL)/api/views/page-0001.json"
        let records = try savedPage()
        let soda2 = try write(records, "soda2.json")
        let soda3 = try write(soda3Shaped(records), "soda3.json", pretty: false)
        for db in [directory.path("pages.sqlite"), postgreSQL.url] {
            try succeed(["fetch", "page-0001", "--domain", portal.baseURL, "--api", "soda2", "--quiet"], db: db)
            let fetched = try csv("SELECT \(Self.userColumns) FROM page_0001 ORDER BY name", db: db)
            XCTAssertEqual(fetched.count, 8, db)
            let fetchedTypes = try schema("page_0001", db: db).filter { !$0.hasPrefix("_") }
            for (page, table) in [(soda2, "saved2"), (soda3, "saved3")] {
                let load = try succeed(["load", page, "--metadata", view, "--table", table], db: db)
                XCTAssertTrue(load.stderr.hasPrefix("Loaded 7 rows into \(table) (13 columns)"), load.stderr)
                XCTAssertEqual(try csv("SELECT \(Self.userColumns) FROM \(table) ORDER BY name", db: db), fetched, "\(table) in \(db)")
                // No system column, and no key: the records carry no :id.
                XCTAssertEqual(try schema(table, db: db), fetchedTypes.map { $0.replacingOccurrences(of: "key=1", with: "key=0") },
                               "\(table) in \(db)")
            }
            // With :id in the records (saved with $select=:*,*), _id is the key as fetch makes it.
            let withIDs = directory.path("with-ids.json")
            try Data(portal.soda2PageBody(offset: 0, limit: 1_000)).write(to: URL(fileURLWithPath: withIDs))
            try succeed(["load", withIDs, "--metadata", view, "--table", "keyed"], db: db)
            XCTAssertEqual(try schema("keyed", db: db), try schema("page_0001", db: db), db)
            // --pk keys a page without :id.
            try succeed(["load", soda2, "--metadata", view, "--table", "by_name", "--pk", "name"], db: db)
            XCTAssertTrue(try schema("by_name", db: db).first!.hasPrefix("name key=1"), db)
        }
    }

    func testAHeaderRowAnEmptyPageAndARealSavedPage() throws {
        let db = directory.path("odd.sqlite")
        let view = "\(portal.baseURL)/api/views/page-0001.json"
        // A CSV header imported as data: its cells are not of their columns' types, counted.
        var records = try savedPage()
        records.insert(Dictionary(uniqueKeysWithValues: Self.columns.map { ($0.fieldName, $0.fieldName as Any) }), at: 0)
        let header = try succeed(["load", try write(records, "header.json"), "--metadata", view, "--table", "h"], db: db)
        XCTAssertTrue(header.stderr.contains("amount: 1 cell was not a number, stored as NULL; first at row 1: \"amount\""),
                      header.stderr)
        XCTAssertEqual(try csv("SELECT count(*) AS n FROM h", db: db), ["n", "8"])
        // An empty page: the table with its columns and no rows.
        let empty = try succeed(["load", try write([], "empty.json"), "--metadata", view, "--table", "e"], db: db)
        XCTAssertTrue(empty.stderr.hasPrefix("Loaded 0 rows into e (13 columns)"), empty.stderr)

        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        let page = shared.appendingPathComponent("koop-schools-page.json").path
        let description = shared.appendingPathComponent("koop-schools-view.json").path
        let real = try succeed(["load", page, "--metadata", description, "--table", "schools"], db: db)
        XCTAssertTrue(real.stderr.hasPrefix("Loaded 80 rows into schools (11 columns)"), real.stderr)
        XCTAssertEqual(try schema("schools", db: db).prefix(4),
                       ["objectid key=0 decimal", "shape key=0 json", "shape_latitude key=0 double", "shape_longitude key=0 double"])
        XCTAssertEqual(try csv("SELECT objectid, shape_latitude, typeof(objectid) AS t FROM schools ORDER BY objectid LIMIT 1", db: db),
                       ["objectid,shape_latitude,t", "1,47.51042025500004,integer"])
        // Without the description, the numbers stay text and the summary says so once.
        let bare = try succeed(["load", page, "--table", "bare"], db: db)
        let hints = bare.stderr.split(separator: "\n").filter { $0.contains("written as a string") }
        XCTAssertEqual(hints, ["Warning: objectid: every value is a number written as a string (as SODA 2 sends numbers), "
                               + "stored as text; --metadata VIEW.json types it as fetch does, or --type objectid=decimal"],
                       bare.stderr)
    }
}
