import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

final class DatasetLoaderTests: XCTestCase {
    static let tiny = #"{"meta":{"view":{"id":"abcd-1234","name":"Tiny","rowsUpdatedAt":1446120000,"columns":[{"fieldName":":sid","dataTypeName":"meta_data"},{"fieldName":"name","dataTypeName":"text"},{"fieldName":"n","dataTypeName":"number"}]}},"data":[["row-aaaa","Ann","1.000000"],["row-bbbb","Zoë","2.5"],["row-cccc",null,null]]}"#

    func testBundledDatasetsLoadWithTheirTypesAndValues() throws {
        let harness = try LoadHarness()
        for (id, rows, columns) in [("n5m4-mism", 300, 13), ("ci7y-pmts", 120, 26), ("geo5-shps", 40, 20)] {
            let path = Fixtures.datasetsDirectory.appendingPathComponent("\(id).json").path
            let summary = try harness.load(.file(path), id: id)
            XCTAssertEqual(summary.rowCount, rows, id)
            XCTAssertEqual(summary.columnCount, columns, id)
            XCTAssertEqual(try harness.value("SELECT count(*) FROM \(summary.tableName)"), .integer(Int64(rows)))
        }
        let types = try harness.queue.read { db in
            try db.fetchAll(String.self, sql: "SELECT name || ' ' || type FROM pragma_table_info('ci7y_pmts')")
        }
        XCTAssertEqual(types, [
            "_id TEXT", "_created_at TEXT", "_updated_at TEXT", "permit_number TEXT", "kind TEXT", "notes TEXT",
            "contact_email TEXT", "flag TEXT", "fee NUMERIC", "valuation NUMERIC", "completion NUMERIC", "rating NUMERIC",
            "density REAL", "approved INTEGER", "applied_date TEXT", "issued_at TEXT", "site TEXT", "site_latitude REAL",
            "site_longitude REAL", "website TEXT", "website_description TEXT", "phone TEXT", "phone_type TEXT",
            "point TEXT", "point_longitude REAL", "point_latitude REAL",
        ])

        // First permit, cell by cell (see Datasets/ci7y-pmts.json, line 2).
        let permit = try XCTUnwrap(harness.rows("SELECT * FROM ci7y_pmts ORDER BY rowid LIMIT 1").first)
        let expected: [String: DatabaseValue] = [
            "_id": "row-6ika_rnys.nn8t", "_created_at": "2015-01-01T02:00:00Z", "_updated_at": "2015-01-01T02:10:00Z",
            "permit_number": "P-00001", "kind": "Demolition", "notes": nil, "contact_email": "owner1@example.org",
            "flag": nil, "fee": 949.98, "valuation": 19295, "completion": 97, "rating": 5, "density": nil,
            "approved": 1, "applied_date": "2015-01-01T02:00:00", "issued_at": "2015-01-18T09:00:00Z",
            "site_latitude": 47.63495, "site_longitude": -122.28334, "website": "https://permits.example.org/1",
            "website_description": "Permit 1", "phone": nil, "phone_type": nil, "point": "POINT (-122.28334 47.63495)",
            "point_longitude": -122.28334, "point_latitude": 47.63495,
        ]
        for (column, value) in expected {
            XCTAssertEqual(permit[column], value, column)
        }
        XCTAssertEqual(permit["site"], .text(#"{"address": "691 Königstraße", "city": "Seattle", "state": "WA", "zip": "98101"}"#))

        // Aggregates that only hold if every row converted: NaN/Infinity doubles are NULL, [null,null] urls are NULL.
        XCTAssertEqual(try harness.value("SELECT count(*) FROM ci7y_pmts WHERE density IS NULL"), .integer(15))
        XCTAssertEqual(try harness.value("SELECT count(*) FROM ci7y_pmts WHERE typeof(fee) NOT IN ('integer', 'real')"), .integer(0))
        XCTAssertEqual(try harness.value("SELECT count(*) FROM ci7y_pmts WHERE issued_at NOT LIKE '____-__-__T__:__:__Z'"), .integer(0))
        XCTAssertEqual(try harness.value("SELECT count(*) FROM n5m4_mism WHERE agency_url IS NULL AND agency_url_description IS NULL"),
                       try harness.value("SELECT 300 - count(agency_url) FROM n5m4_mism"))
        XCTAssertEqual(try harness.value("SELECT count(*) FROM n5m4_mism WHERE _id NOT GLOB '[0-9A-F]*-*-*-*-*'"), .integer(0))
        XCTAssertEqual(try harness.value("SELECT count(*) FROM n5m4_mism WHERE typeof(confirmation_vote) NOT IN ('integer', 'null')"), .integer(0))

        // First nomination, cell by cell (Datasets/n5m4-mism.json, line 2: an old-backend row).
        let nomination = try XCTUnwrap(harness.rows("SELECT * FROM n5m4_mism ORDER BY rowid LIMIT 1").first)
        XCTAssertEqual(nomination.values, [
            "0FC21E6B-3239-AEB9-EB2C-F0B12A2FABA9", "2015-01-01T01:00:00Z", "2015-01-01T01:00:00Z", "Ana Åström",
            "Member, National Science Board", "Agriculture", "https://www.usda.gov", nil, "2013-10-28T00:00:00", nil,
            nil, 1, "Pending",
        ])

        let shape = try XCTUnwrap(harness.rows("SELECT * FROM geo5_shps ORDER BY rowid LIMIT 2").last)
        XCTAssertEqual(shape["shape"] as DatabaseValue?, "POINT (-122.2980 47.6010)")
        XCTAssertEqual(shape["shape_longitude"] as DatabaseValue?, -122.298)
        XCTAssertEqual(shape["shape_latitude"] as DatabaseValue?, 47.601)
        XCTAssertEqual(shape["shape_latitude_2"] as DatabaseValue?, "label 2")
        XCTAssertEqual(shape["inspections"] as DatabaseValue?, #"[["2015-03-03",true]]"#)
        XCTAssertEqual(shape["mystery"] as DatabaseValue?, #"[2,"x"]"#)
    }

    func testCatalogEntry() throws {
        let harness = try LoadHarness()
        let path = try harness.file("tiny.json", Array(Self.tiny.utf8))
        try harness.load(.file(path), id: "abcd-1234")
        let entry = try XCTUnwrap(harness.queue.read { try SQLiteCatalog(db: $0).entry(for: "abcd-1234") })
        XCTAssertEqual(entry.tableName, "abcd_1234")
        XCTAssertEqual(entry.name, "Tiny")
        XCTAssertEqual(entry.sourceURL, path)
        XCTAssertEqual(entry.rowCount, 3)
        XCTAssertEqual(entry.rowsUpdatedAt, "2015-10-29T12:00:00Z")
        XCTAssertEqual(entry.columnMappingJSON,
                       #"[{"fieldName":":id","columns":[{"name":"_id","type":"text"}]},{"fieldName":"name","columns":[{"name":"name","type":"text"}]},{"fieldName":"n","columns":[{"name":"n","type":"decimal"}]}]"#)
        XCTAssertTrue(entry.columnsJSON.contains(#""fieldName":":sid""#))
        XCTAssertEqual(try harness.queue.read { try SQLiteCatalog(db: $0).entry(for: "abcd_1234") }, entry)
    }

    func testEveryHTTPDeliveryGivesTheSameTable() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = try Fixtures.bundled("ci7y-pmts")
        let headers = [("Content-Type", "application/json"), ("ETag", "\"v1\""), ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")]
        server.route("/plain", .init(headers: headers, body: body))
        server.route("/chunked", .init(headers: headers, body: body, delivery: .chunked(chunkSize: 777)))
        // Rows cut at every kind of place by tiny chunks take the copy-then-parse path of the fast loader.
        server.route("/chunked-1", .init(headers: headers, body: body, delivery: .chunked(chunkSize: 1)))
        server.route("/chunked-13", .init(headers: headers, body: body, delivery: .chunked(chunkSize: 13)))
        server.route("/gzip", .init(headers: headers, body: body, gzip: true))
        server.route("/moved", .redirect(to: "/moved-again"))
        server.route("/moved-again", .redirect(to: "\(server.baseURL)/gzip", status: 301))

        let harness = try LoadHarness()
        let reference = try harness.load(.file(Fixtures.datasetsDirectory.appendingPathComponent("ci7y-pmts.json").path),
                                         table: "expected")
        XCTAssertEqual(reference.rowCount, 120)
        let expected = try harness.rows("SELECT * FROM expected ORDER BY rowid")
        var options = HTTPOptions(appToken: "secret-token")
        options.lowSpeedTime = 5
        for path in ["/plain", "/chunked", "/chunked-1", "/chunked-13", "/gzip", "/moved"] {
            let summary = try harness.load(.url(server.baseURL + path), table: "t", http: options)
            XCTAssertEqual(summary.rowCount, 120, path)
            XCTAssertEqual(try harness.rows("SELECT * FROM t ORDER BY rowid"), expected, path)
            XCTAssertEqual(summary.catalogEntry.etag, "\"v1\"", path)
            XCTAssertEqual(summary.catalogEntry.lastModified, "Wed, 21 Oct 2015 07:28:00 GMT", path)
        }
        let first = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(first.headers["user-agent"], "socload/\(SocloadVersion.current)")
        XCTAssertEqual(first.headers["x-app-token"], "secret-token")
        XCTAssertTrue(first.headers["accept-encoding"]?.contains("gzip") ?? false)
        XCTAssertFalse(try harness.rows("SELECT * FROM _socload_datasets").description.contains("secret-token"))
    }

    func testErrorStatusesCarryThePortalMessage() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/missing", .init(status: 404, body: Array(#"{"code":"dataset.missing","error":true,"message":"Cannot find view with id abcd-1234"}"#.utf8)))
        server.route("/broken", .init(status: 500, body: Array(#"{"errorCode":"internal","message":"Internal error"}"#.utf8)))
        server.route("/html", .init(status: 503, headers: [("Content-Type", "text/html")],
                                    body: Array("<html><head><title>Service\n Unavailable</title></head><body>x</body></html>".utf8)))
        server.route("/html200", .init(headers: [("Content-Type", "text/html")], body: Array("<!DOCTYPE html><html></html>".utf8)))
        server.route("/envelope200", .init(body: Array(#"{"error":true,"message":"query timeout"}"#.utf8)))
        let harness = try LoadHarness()
        let cases: [(String, String)] = [
            ("/missing", "HTTP 404 Not Found from \(server.baseURL)/missing: dataset.missing: Cannot find view with id abcd-1234"),
            ("/broken", "HTTP 500 Internal Server Error from \(server.baseURL)/broken: internal: Internal error"),
            ("/html", "HTTP 503 Service Unavailable from \(server.baseURL)/html: Service Unavailable"),
            ("/html200", "received an HTML page where a JSON dataset was expected"),
            ("/envelope200", "received a Socrata error instead of a dataset: query timeout"),
        ]
        for (path, message) in cases {
            XCTAssertThrowsError(try harness.load(.url(server.baseURL + path))) { error in
                XCTAssertEqual("\(error)", message, path)
            }
        }
        XCTAssertEqual(try harness.value("SELECT count(*) FROM sqlite_schema"), .integer(0), "nothing was created")
    }

    func testSharedRawErrorResponses() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let harness = try LoadHarness()
        for (file, status, message) in [("soda-ruby-404.response", 404, "dataset.missing"),
                                        ("soda-ruby-500_error.response", 500, "Internal error")] {
            let raw = try Data(contentsOf: shared.appendingPathComponent(file))
            let text = String(decoding: raw, as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            let body = parts.dropFirst().joined(separator: "\r\n\r\n")
            server.route("/\(file)", .init(status: status, body: Array(body.utf8)))
            XCTAssertThrowsError(try harness.load(.url("\(server.baseURL)/\(file)"))) { error in
                guard case let HTTPError.status(code, detail, _, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(code, status)
                XCTAssertTrue(detail?.contains(message) ?? false, "\(detail ?? "nil")")
            }
        }
    }

    func testFailedLoadsLeaveThePreviousTableUntouched() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = try Fixtures.bundled("n5m4-mism")
        server.route("/good", .init(body: body))
        server.route("/dropped", .init(body: body, delivery: .dropAfter(bytes: body.count / 2)))
        server.route("/truncated", .init(body: Array(body.prefix(body.count * 3 / 4))))
        server.route("/missing", .init(status: 404, body: Array("{}".utf8)))
        var badRow = String(decoding: body, as: UTF8.self)
        badRow = badRow.replacingOccurrences(of: "\"Confirmed\"]", with: "\"Confirmed\",\"extra cell\"]")
        server.route("/bad-row", .init(body: Array(badRow.utf8)))
        let stalled = try LoopbackHTTPServer()
        defer { stalled.stop() }
        stalled.route("/stall", .init(body: body, delivery: .stall(seconds: 4)))

        let harness = try LoadHarness()
        try harness.load(.url(server.baseURL + "/good"), table: "nominations")
        let before = try harness.snapshot("nominations")
        XCTAssertEqual(before.count, 301)
        var options = HTTPOptions()
        options.lowSpeedTime = 1
        let failures: [(String, String)] = [
            (server.baseURL + "/dropped", "transfer closed with"),
            (server.baseURL + "/truncated", "the document ends early"),
            (server.baseURL + "/missing", "HTTP 404"),
            (server.baseURL + "/bad-row", "cells where the metadata has 17 columns"),
            (stalled.baseURL + "/stall", "Operation too slow"),
            ("http://127.0.0.1:1/refused", "Failed to connect"),
        ]
        for (url, message) in failures {
            XCTAssertThrowsError(try harness.load(.url(url), table: "nominations", http: options)) { error in
                XCTAssertTrue("\(error)".contains(message), "\(url): \(error)")
            }
            XCTAssertEqual(try harness.snapshot("nominations"), before, url)
        }
        let cancellation = LoadCancellation()
        cancellation.cancel(signal: 2)
        XCTAssertThrowsError(try harness.load(.url(server.baseURL + "/good"), table: "nominations", cancellation: cancellation)) { error in
            XCTAssertEqual(error as? LoadError, .interrupted(signal: 2))
        }
        XCTAssertEqual(try harness.snapshot("nominations"), before)
    }
}
