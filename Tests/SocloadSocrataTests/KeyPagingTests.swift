import Synchronization
import Foundation
import SocloadDatabase
@testable import SocloadSocrata
@testable import SocloadTransport
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// Both query APIs page by key: each page after the first asks for the rows after the last row
/// of the page before, in the load's order with `:id` as the tie-break, so no request carries an
/// offset past the first page's; where the order or the rows give no key, by offset, saying why.
final class KeyPagingTests: XCTestCase {
    var portal: FakeSocrataPortal!
    var harness: LoadHarness!

    override func setUpWithError() throws {
        portal = try FakePortalDataset.makePortal()
        harness = try LoadHarness()
    }

    override func tearDown() {
        portal.stop()
    }

    private func request(_ api: DatasetAPI, table: String, order: String? = nil, select: String? = nil) throws -> LoadRequest {
        let reference = try DatasetReference.resolve(FakePortalDataset.id, domain: portal.baseURL, datasetsDirectories: [])
        var request = LoadRequest(reference: reference, tableName: table)
        request.api = api
        request.pageSize = 4
        request.query = SoQLQuery(select: select, order: order)
        return request
    }

    /// The offset (SODA 2.1 `$offset`, SODA3 rows before the page number) each page request asked for.
    private func offsets(since first: Int) -> [Int] {
        portal.server.requests.dropFirst(first).compactMap { request -> Int? in
            if request.route.hasPrefix("/resource/") { return Int(request.query["$offset"] ?? "0") }
            guard request.method == "POST", let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                  let page = object["page"] as? [String: Any], let number = page["pageNumber"] as? Int,
                  let size = page["pageSize"] as? Int else { return nil }
            return (number - 1) * size
        }
    }

    private func ids(_ table: String) throws -> [String] {
        try harness.rows("SELECT _id FROM \(table) ORDER BY _id").map { row in
            if case .text(let id) = row[0] as DatabaseValue { return id }
            return ""
        }
    }

    /// Orders on text, numbers, checkboxes, floating and fixed timestamps (with NULLs: every fifth
    /// row has no `closed_at`), ascending, descending, with NULL FIRST or LAST, and on several
    /// fields: every row arrives once, through SODA 2.1 and SODA3, and no page asks for an offset.
    func testEveryOrderPagesByKeyAndLoadsEveryRowOnce() throws {
        portal.requiredAppToken = "t"
        let http = HTTPOptions(appToken: "t")
        try harness.load(request(.rows, table: "whole"), http: http)
        let expected = try ids("whole")
        XCTAssertEqual(expected.count, 23)
        let orders = [nil, "category", "category DESC", "amount", "amount DESC", "active", "opened DESC", "closed_at",
                      "closed_at DESC", "closed_at NULL FIRST", "closed_at DESC NULL LAST", "active, closed_at DESC", "name",
                      ":updated_at DESC", ":id DESC", "category, :id DESC"]
        for api in [DatasetAPI.soda2, .soda3] {
            for (index, order) in orders.enumerated() {
                let first = portal.server.requests.count
                let summary = try harness.load(request(api, table: "ordered_\(api.rawValue)_\(index)", order: order), http: http)
                let label = "\(api.displayName), order \(order ?? "none")"
                XCTAssertEqual(summary.rowCount, 23, label)
                XCTAssertEqual(try ids("ordered_\(api.rawValue)_\(index)"), expected, label)
                XCTAssertEqual(offsets(since: first), Array(repeating: 0, count: 6), "six pages of 4, never an offset: \(label)")
                XCTAssertFalse(summary.notes.contains { $0.contains("offset") }, "\(label): \(summary.notes)")
            }
        }
    }

    /// A `--select` without `:id`, an order on an expression or on a location: by offset, with a note
    /// that says why, and still every row.
    func testWhereTheOrderGivesNoKeyPagesByOffsetAndSaysWhy() throws {
        let cases: [(order: String?, select: String?, why: String)] = [
            (nil, "name, amount", "--select leaves out :id, which the order pages by"),
            ("upper(name)", nil, "--order term \"upper(name)\" is not a plain field (an expression cannot be read back from a row)"),
            ("site", nil, "--order term \"site\" is a location column, whose values have no SoQL literal to continue after"),
            ("category", ":id, name", "--select leaves out category, which the order pages by"),
        ]
        for (index, (order, select, why)) in cases.enumerated() {
            let first = portal.server.requests.count
            let summary = try harness.load(request(.soda2, table: "offset_\(index)", order: order, select: select))
            XCTAssertEqual(summary.rowCount, 23)
            XCTAssertEqual(offsets(since: first).filter { $0 < 1 << 30 }, [0, 4, 8, 12, 16, 20], why)
            XCTAssertTrue(summary.notes.contains { $0.hasPrefix("paged by offset, not by key: \(why), ") }, "\(summary.notes)")
        }
    }

    /// The keyset's SoQL, NULLs included: after a NULL, ascending with NULLs last, only NULLs with a
    /// later `:id` remain; descending with NULLs first, every value does.
    func testTheKeyConditionHandlesNullsAndDirections() throws {
        let types = ["ward": "number", "name": "text", "when": "calendar_date", "site": "location", "kind": "drop_down_list"]
        func condition(_ order: String, _ row: String) throws -> String {
            guard case .byKey(let keyset) = SoQLKeyset.paging(for: SoQLQuery(order: order), columnTypes: types) else {
                XCTFail("no key for \(order)")
                return ""
            }
            return try keyset.condition(after: JSONValueParser.parse(Array(row.utf8))).get()
        }
        let row = #"{":id":"row-9","ward":"7","name":"O'Hare"}"#
        XCTAssertEqual(try condition(":id", row), ":id > 'row-9'")
        XCTAssertEqual(try condition("ward", row), "((ward > 7 OR ward IS NULL) OR (ward = 7 AND :id > 'row-9'))")
        XCTAssertEqual(try condition("ward DESC", row), "(ward < 7 OR (ward = 7 AND :id > 'row-9'))")
        XCTAssertEqual(try condition("name NULL FIRST", row), "(name > 'O''Hare' OR (name = 'O''Hare' AND :id > 'row-9'))")
        XCTAssertEqual(try condition("when", row), "(when IS NULL AND :id > 'row-9')")
        XCTAssertEqual(try condition("when DESC", row), "(when IS NOT NULL OR (when IS NULL AND :id > 'row-9'))")
        XCTAssertEqual(try condition("kind DESC", #"{":id":"row-9","kind":"Parks"}"#),
                       "(kind < 'Parks' OR (kind = 'Parks' AND :id > 'row-9'))")
        XCTAssertEqual(try condition("ward, :id DESC", row), "((ward > 7 OR ward IS NULL) OR (ward = 7 AND :id < 'row-9'))")
        XCTAssertEqual(SoQLKeyset.paging(for: SoQLQuery(order: "site"), columnTypes: types),
                       .byOffset(why: "--order term \"site\" is a location column, whose values have no SoQL literal to continue after"))
        guard case .byKey(let keyset) = SoQLKeyset.paging(for: SoQLQuery(), columnTypes: types) else { return XCTFail() }
        XCTAssertEqual(keyset.condition(after: .object([])), .failure(.init(reason: "the portal's rows carry no :id")))
    }

    /// Pages are not a snapshot: a dataset that changes while it is paged is read again from the
    /// start, once; changing again, the load fails (unavailable) and the table is untouched.
    func testADatasetThatChangesWhilePagedStartsOverOnceThenFails() throws {
        try harness.load(request(.soda2, table: "moving"))
        let before = try harness.snapshot("moving")
        // (changes made, changes still to make): each page 2 makes one while there are some to make.
        let changes = Mutex((made: 0, budget: 1))
        portal.inject { [portal = portal!] request in
            guard request.route.hasPrefix("/resource/"), portal.position(of: request) == 4 else { return nil }
            let change = changes.withLock { state -> Int? in
                guard state.budget > 0 else { return nil }
                state.made += 1
                state.budget -= 1
                return state.made
            }
            if let change {
                portal.update({ rows, _ in rows[0].cells["name"] = .text("Renamed \(change)") },
                              rowsUpdatedAt: FakePortalDataset.start + 100 * 86_400 + change)
            }
            return nil
        }
        let notices = Mutex<[String]>([])
        var force = try request(.soda2, table: "moving")
        force.force = true
        let summary = try harness.load(force, onRetry: { notice in notices.withLock { $0.append(notice) } })
        XCTAssertEqual(summary.rowCount, 23)
        XCTAssertEqual(try harness.value("SELECT name FROM moving ORDER BY _id LIMIT 1"), .text("Renamed 1"))
        XCTAssertEqual(notices.withLock { $0.count }, 1)
        XCTAssertTrue(notices.withLock { $0.first?.contains("changed on the portal while its pages were read") } == true)

        let snapshot = try harness.snapshot("moving")
        changes.withLock { $0.budget = 2 }
        XCTAssertThrowsError(try harness.load(force)) { error in
            XCTAssertEqual((error as? LoadError)?.kind, .unavailable)
            XCTAssertTrue("\(error)".hasPrefix("the dataset changed on the portal while its pages were read, twice"), "\(error)")
        }
        XCTAssertEqual(try harness.snapshot("moving"), snapshot)
        XCTAssertNotEqual(snapshot, before)
    }
}
