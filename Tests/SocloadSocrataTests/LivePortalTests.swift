import Synchronization
import Foundation
import SocloadDatabase
@testable import SocloadSocrata
@testable import SocloadTransport
import SocloadSQLite
import SocloadTestSupport
import XCTest

final class LivePortalTests: XCTestCase {
    var portal: FakeSocrataPortal!
    var harness: LoadHarness!

    override func setUpWithError() throws {
        portal = try FakePortalDataset.makePortal()
        harness = try LoadHarness()
    }

    override func tearDown() {
        portal.stop()
    }

    func request(_ api: DatasetAPI, table: String? = nil, pageSize: Int = 5) throws -> LoadRequest {
        let reference = try DatasetReference.resolve(FakePortalDataset.id, domain: portal.baseURL, datasetsDirectories: [])
        var request = LoadRequest(reference: reference, tableName: table)
        request.api = api
        request.pageSize = pageSize
        return request
    }

    func table(_ name: String) throws -> [Row] {
        try harness.rows("SELECT * FROM \(name) ORDER BY _id")
    }

    func testRowsSODA2AndSODA3GiveIdenticalTables() throws {
        portal.requiredAppToken = "app-token-1"
        let options = HTTPOptions(appToken: "app-token-1")
        try harness.load(request(.rows, table: "via_rows"), http: options)
        try harness.load(request(.soda2, table: "via_soda2"), http: options)
        try harness.load(request(.soda3, table: "via_soda3"), http: options)
        let rows = try table("via_rows")
        XCTAssertEqual(rows.count, 23)
        XCTAssertEqual(try table("via_soda2"), rows)
        XCTAssertEqual(try table("via_soda3"), rows)
        let schema = { (name: String) in try self.harness.rows("SELECT name, type FROM pragma_table_info('\(name)')") }
        XCTAssertEqual(try schema("via_soda2"), try schema("via_rows"))
        XCTAssertEqual(try schema("via_soda3"), try schema("via_rows"))
        let first = try XCTUnwrap(rows.first)
        XCTAssertEqual(first["_id"] as DatabaseValue?, "row-0001_abcd.efgh")
        XCTAssertEqual(first["_updated_at"] as DatabaseValue?, "2015-01-01T01:01:00Z")
        XCTAssertEqual(first["opened"] as DatabaseValue?, "2015-02-11T00:00:00")
        XCTAssertEqual(first["closed_at"] as DatabaseValue?, "2015-01-02T00:00:00Z")
        XCTAssertEqual(first["amount"] as DatabaseValue?, 1.25)
        XCTAssertEqual(first["site_latitude"] as DatabaseValue?, 47.601)
        XCTAssertEqual(first["spot"] as DatabaseValue?, "POINT (-122.301 47.601)")
        XCTAssertEqual(first["website_description"] as DatabaseValue?, "Site 1")
    }

    func testSODA2PagesAreStableAndStopOnTheFirstShortPage() throws {
        let summary = try harness.load(request(.soda2))
        XCTAssertEqual(summary.rowCount, 23)
        let pages = portal.server.requests.filter { $0.route == "/resource/\(FakePortalDataset.id).json" }
        // Paged by key: each page after the first asks for the rows after the last one before it.
        XCTAssertEqual(pages.map { $0.query["$offset"] }, [nil, nil, nil, nil, nil])
        let ids = try (1...23).map { index in try harness.value("SELECT _id FROM fake_0001 ORDER BY _id LIMIT 1 OFFSET \(index - 1)") }
            .map { value in if case .text(let id)? = value { return id } else { return "" } }
        XCTAssertEqual(pages.map { $0.query["$where"] }, [nil] + [5, 10, 15, 20].map { ":id > '\(ids[$0 - 1])'" })
        for page in pages {
            XCTAssertEqual(page.query["$order"], ":id")
            XCTAssertEqual(page.query["$select"], ":*, *")
            XCTAssertEqual(page.query["$limit"], "5")
        }
        XCTAssertEqual(summary.catalogEntry.sourceURL, "\(portal.baseURL)/resource/\(FakePortalDataset.id).json")
    }

    /// Every way socload pages ends its ordering with `:id`, the tie-break that keeps pages from
    /// overlapping or skipping rows: SODA 2 pages, SODA3 queries and sync, whatever order the user gave.
    func testEveryPagingOrderEndsWithTheIDTieBreak() throws {
        let cases: [(String?, String)] = [(nil, ":id"), ("", ":id"), ("category", "category, :id"), ("amount DESC", "amount DESC, :id"),
                                          (":id DESC", ":id DESC"), ("category, :id", "category, :id"), (":idx", ":idx, :id"),
                                          (":updated_at", ":updated_at, :id")]
        for (order, expected) in cases {
            XCTAssertEqual(SoQLQuery(order: order).stableOrder, expected, "\(order ?? "nil")")
            XCTAssertTrue(SoQLQuery(order: order).statement.hasSuffix("ORDER BY \(expected)"))
        }
        portal.requiredAppToken = "t"
        var soda3 = try request(.soda3, table: "paged3")
        soda3.query = SoQLQuery(order: "amount DESC")
        try harness.load(soda3, http: HTTPOptions(appToken: "t"))
        let queries = portal.server.requests.filter { $0.method == "POST" }.compactMap { request in
            (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["query"] as? String
        }
        XCTAssertFalse(queries.isEmpty)
        XCTAssertTrue(queries.allSatisfy { $0.hasSuffix("ORDER BY amount DESC, :id") }, "\(queries)")
        let sync = DatasetLoader(destination: SQLiteDestination(queue: harness.queue), http: HTTPOptions(appToken: "t"))
        try harness.load(request(.soda2, table: "synced"), http: HTTPOptions(appToken: "t"))
        _ = try sync.sync("synced", pageSize: 5)
        // With a token, sync reads through SODA3.
        let syncQueries = portal.server.requests.filter { $0.method == "POST" }.compactMap { request in
            (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["query"] as? String
        }.filter { $0.contains("WHERE :updated_at > ") }
        XCTAssertFalse(syncQueries.isEmpty)
        XCTAssertTrue(syncQueries.allSatisfy { $0.hasSuffix("ORDER BY :updated_at, :id") }, "\(syncQueries)")
    }

    func testSoQLIsEncodedAndPushedDown() throws {
        var request = try request(.auto, table: "filtered")
        request.query = SoQLQuery(where: "name = 'A&B = C+D''s café'", order: "category")
        let summary = try harness.load(request)
        XCTAssertEqual(summary.rowCount, 1)
        let page = try XCTUnwrap(portal.server.requests.last { $0.route.hasPrefix("/resource/") })
        XCTAssertEqual(page.query["$where"], "name = 'A&B = C+D''s café'")
        XCTAssertEqual(page.query["$order"], "category, :id")
        XCTAssertTrue(page.path.contains("%26") && page.path.contains("%2B") && page.path.contains("%27"), page.path)
        XCTAssertEqual(try harness.rows("SELECT name FROM filtered").first?[0], "A&B = C+D's café")

        var selection = try self.request(.soda2, table: "selected")
        selection.query = SoQLQuery(select: "name, amount")
        try harness.load(selection)
        let columns = try harness.queue.read { try $0.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info('selected')") }
        XCTAssertEqual(columns, ["name", "amount"])
    }

    func testColumnsFromHeadersWhenMetadataIsHidden() throws {
        try harness.load(request(.soda2, table: "with_metadata"))
        portal.hidesMetadata = true
        try harness.load(request(.soda2, table: "from_headers"))
        XCTAssertEqual(try table("from_headers"), try table("with_metadata"))
        portal.sendsFieldHeaders = false
        XCTAssertThrowsError(try harness.load(request(.soda2, table: "blind"))) { error in
            XCTAssertTrue("\(error)".contains("cannot tell the columns"), "\(error)")
        }
    }

    func testViewsThatAreNotTabularAreRejected() throws {
        portal.viewType = "href"
        XCTAssertThrowsError(try harness.load(request(.soda2))) { error in
            XCTAssertEqual("\(error)", "fake-0001 is a href, not a tabular dataset: it has no rows of its own to load")
        }
    }

    func testSODA3NeedsATokenOrALogin() throws {
        XCTAssertThrowsError(try harness.load(request(.soda3))) { error in
            XCTAssertEqual((error as? LoadError)?.kind, .usage)
        }
        portal.requiredLogin = "ann:s3cret"
        var options = HTTPOptions()
        options.credentials = Credentials(username: "ann", password: "s3cret")
        XCTAssertEqual(try harness.load(request(.soda3), http: options).rowCount, 23)
        XCTAssertTrue(HTTPDownloader.mayCarryPassword("https://data.example.org/x"))
        XCTAssertTrue(HTTPDownloader.mayCarryPassword("http://localhost:8080/x"))
        XCTAssertFalse(HTTPDownloader.mayCarryPassword("http://data.example.org/x"))
        XCTAssertThrowsError(try HTTPDownloader(options: options).download("http://data.example.org/x") { _ in }) { error in
            XCTAssertEqual(error as? HTTPError, .insecureCredentials(url: "http://data.example.org/x"))
        }
        XCTAssertFalse("\(options.credentials!)".contains("s3cret"))
    }

    // MARK: - Faults

    /// Counts requests per key and answers the first `times` with `response`.
    final class FaultScript: @unchecked Sendable {
        let lock = NSLock()
        var counts: [String: Int] = [:]
        func next(_ key: String) -> Int { lock.withLock { counts[key, default: 0] += 1; return counts[key]! } }
        func count(_ key: String) -> Int { lock.withLock { counts[key, default: 0] } }
    }

    func testRetriesHonourRetryAfterAndRetryOnlyTheFailedPage() throws {
        let script = FaultScript()
        portal.inject { [portal = portal!] request in
            guard request.route.hasPrefix("/resource/") else { return nil }
            let offset = String(portal.position(of: request))
            let attempt = script.next(offset)
            switch (offset, attempt) {
            case ("0", 1): return .init(status: 429, headers: [("Retry-After", "1")], body: Array("{\"message\":\"slow down\"}".utf8))
            case ("5", 1), ("5", 2): return .init(status: 503, body: Array("{\"message\":\"busy\"}".utf8))
            case ("10", 1):
                let body = Array(String(repeating: " ", count: 4096).utf8) + Array("[{\":id\":\"x\"}]".utf8)
                return .init(body: body, delivery: .dropAfter(bytes: 2048)) // a reset in the middle of page 3
            default: return nil
            }
        }
        let collected = Mutex<[String]>([])
        let started = Date()
        let summary = try harness.load(request(.soda2), retry: RetryPolicy(maximumRetries: 3, baseDelay: 0.01, maximumDelay: 0.05),
                                       onRetry: { notice in collected.withLock { $0.append(notice) } })
        let notices = collected.withLock { $0 }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1.0, "Retry-After: 1 was honoured")
        XCTAssertEqual(summary.rowCount, 23)
        XCTAssertEqual(try table("fake_0001").count, 23)
        XCTAssertEqual(script.count("0"), 2)
        XCTAssertEqual(script.count("5"), 3)
        XCTAssertEqual(script.count("10"), 2)
        XCTAssertEqual(script.count("15"), 1, "earlier pages are not fetched again")
        XCTAssertEqual(notices.count, 4)
        XCTAssertTrue(notices[0].hasPrefix("HTTP 429 Too Many Requests"), notices[0])
    }

    func testAfterTheLastRetryTheErrorNamesThePageAndTheTableIsUntouched() throws {
        try harness.load(request(.soda2))
        let before = try harness.snapshot("fake_0001")
        portal.inject { [portal = portal!] request in
            guard request.route.hasPrefix("/resource/"), portal.position(of: request) == 5 else { return nil }
            return .init(status: 503, body: Array("{\"code\":\"overloaded\",\"message\":\"try later\"}".utf8))
        }
        var force = try request(.soda2)
        force.force = true
        XCTAssertThrowsError(try harness.load(force)) { error in
            var fifth: String?
            if case .text(let id)?? = try? harness.value("SELECT _id FROM fake_0001 ORDER BY _id LIMIT 1 OFFSET 4") { fifth = id }
            XCTAssertEqual("\(error)", "HTTP 503 Service Unavailable from \(portal.baseURL)/resource/fake-0001.json?"
                           + "$select=%3A%2A%2C%20%2A&$where=%3Aid%20%3E%20%27\(fifth ?? "")%27&$order=%3Aid&$limit=5: "
                           + "overloaded: try later (page 2)")
            XCTAssertEqual((error as? PageError)?.kind, .unavailable)
            XCTAssertEqual((error as? PageError)?.number, 2)
        }
        XCTAssertEqual(try harness.snapshot("fake_0001"), before)
    }

    /// A page that breaks after some of its rows went into the table (more than one batch of
    /// 1,024), then succeeds on retry: the retry starts from the page's savepoint, so no row is
    /// loaded twice or lost.
    func testAPageThatDropsAfterRowsWereInsertedIsRetriedWithoutDuplicates() throws {
        let rows = (1...5_000).map { index in
            FakeSocrataPortal.Row(id: String(format: "row-%05d", index), createdAt: 1_420_070_400 + index,
                                  updatedAt: 1_420_070_400 + index, cells: ["name": .text("Name \(index)")])
        }
        let big = try FakeSocrataPortal(datasetID: "drop-0001", columns: [.init("name", "text")], rows: rows,
                                        rowsUpdatedAt: 1_430_000_000)
        defer { big.stop() }
        let page = big.soda2PageBody(offset: 2_500, limit: 2_500)
        var separators = 0
        var cut = 0
        for index in 0..<(page.count - 1) where page[index] == UInt8(ascii: ",") && page[index + 1] == UInt8(ascii: "\n") {
            separators += 1
            if separators == 2_100 { cut = index + 1; break }
        }
        XCTAssertGreaterThan(cut, 0)
        let dropAt = cut
        let script = FaultScript()
        big.inject { request in
            guard request.route.hasPrefix("/resource/"), big.position(of: request) == 2_500,
                  script.next("2500") == 1 else { return nil }
            return .init(body: page, delivery: .dropAfter(bytes: dropAt))
        }
        var load = LoadRequest(reference: try DatasetReference.resolve("drop-0001", domain: big.baseURL, datasetsDirectories: []))
        load.api = .soda2
        load.pageSize = 2_500
        let summary = try harness.load(load, retry: RetryPolicy(maximumRetries: 2, baseDelay: 0.01, maximumDelay: 0.05))
        XCTAssertEqual(script.count("2500"), 2, "the page was retried")
        XCTAssertEqual(summary.rowCount, 5_000)
        XCTAssertEqual(try harness.value("SELECT count(*) FROM drop_0001"), .integer(5_000))
        XCTAssertEqual(try harness.value("SELECT count(DISTINCT _id) FROM drop_0001"), .integer(5_000))
        XCTAssertEqual(try harness.value("SELECT max(_id) FROM drop_0001"), .text("row-05000"))
    }

    func testStalledPageIsRetried() throws {
        let script = FaultScript()
        portal.inject { [portal = portal!] request in
            guard request.route.hasPrefix("/resource/"), portal.position(of: request) == 0, script.next("0") == 1 else { return nil }
            return .init(body: Array("[".utf8) + Array(repeating: 32, count: 100), delivery: .stall(seconds: 5))
        }
        var options = HTTPOptions()
        options.lowSpeedTime = 1
        XCTAssertEqual(try harness.load(request(.soda2), http: options).rowCount, 23)
        XCTAssertEqual(script.count("0"), 2)
    }

    // MARK: - Conditional refresh and sync
}
