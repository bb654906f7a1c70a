import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// What a portal says beside the data (deprecation, sunset, warnings) is passed on: each distinct
/// notice once a run, also under `--quiet`; the deprecation of the field headers every SODA3 page
/// carries is not said.
final class PortalNoticeTests: XCTestCase {
    func testDeprecationAndSunsetAreSaidOnceEvenWhenQuiet() throws {
        let portal = try ProjectRefreshTests.portal("note-0001", rows: 7)
        defer { portal.stop() }
        portal.extraHeaders = [("Deprecation", "@1790812800"), ("Sunset", "Wed, 01 Sep 2027 00:00:00 GMT"),
                               ("X-SODA2-Warning", "X-SODA2-Fields, X-SODA2-Types, and X-SODA2-Legacy-Types are deprecated")]
        let directory = try TemporaryDirectory()
        let db = directory.path("notes.sqlite")
        for api in ["rows", "soda2"] {
            let run = try SocloadProcess.run(["fetch", "note-0001", "--domain", portal.baseURL, "--db", db, "--api", api,
                                              "--page-size", "3", "--quiet", "--force"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let lines = run.stderr.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines, ["Warning: 127.0.0.1 says: this API is deprecated (Deprecation: @1790812800)",
                                   "Warning: 127.0.0.1 says: this API is withdrawn from Wed, 01 Sep 2027 00:00:00 GMT (Sunset)"],
                           "\(api): every response carried them, each is said once")
        }
        // The refresh log keeps every notice a load heard, the unsaid one too, and the API.
        let log = try SocloadProcess.run(["info", "note_0001", "--refreshes", "--format", "json", "--db", db])
        let records = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]], log.stderr)
        XCTAssertEqual(records.map { $0["api"] as? String }, ["rows", "soda2"])
        XCTAssertEqual(records.last?["notices"] as? String, """
            127.0.0.1 says: X-SODA2-Fields, X-SODA2-Types, and X-SODA2-Legacy-Types are deprecated (X-SODA2-Warning)
            127.0.0.1 says: this API is deprecated (Deprecation: @1790812800)
            127.0.0.1 says: this API is withdrawn from Wed, 01 Sep 2027 00:00:00 GMT (Sunset)
            """)
    }

    func testTheNoticesOfRealResponses() throws {
        var head = HTTPResponseHead(statusCode: 200, headers: ["warning": #"299 - "Deprecated API""#,
                                                                "x-soda2-warning": "Rows are capped at 50,000"])
        XCTAssertEqual(PortalNotice.notices(in: head, url: "https://data.example.org/resource/abcd-1234.json").map(\.description),
                       ["data.example.org says: Rows are capped at 50,000 (X-SODA2-Warning)",
                        "data.example.org says: Deprecated API (Warning)"])
        head.headers = [:]
        XCTAssertTrue(PortalNotice.notices(in: head, url: "https://x.org/").isEmpty)
        // A SODA3 page recorded from Chicago's portal: its one notice is about the field headers.
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        let data = try Data(contentsOf: shared.appendingPathComponent("data.cityofchicago.org__zidz-sdfj__query-v3.headers.json"))
        let recorded = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let headers = (recorded["headers"] as? [String: Any]) ?? recorded
        let lowered = Dictionary(headers.compactMap { key, value in (value as? String).map { (key.lowercased(), $0) } },
                                 uniquingKeysWith: { first, _ in first })
        let notices = PortalNotice.notices(in: HTTPResponseHead(statusCode: 200, headers: lowered),
                                           url: "https://data.cityofchicago.org/api/v3/views/zidz-sdfj/query.json")
        XCTAssertEqual(notices.map(\.header), ["X-SODA2-Warning"])
        XCTAssertEqual(notices.map(\.isForPeople), [false])
    }
}
