import Foundation
import SocloadTestSupport
import XCTest

/// `fetch --dry-run` says which API the load would read through, and why.
final class DryRunAPITests: XCTestCase {
    func testTheDryRunSaysWhichAPIAndWhy() throws {
        let portal = try ProjectRefreshTests.portal("plan-0001", rows: 3)
        defer { portal.stop() }
        let directory = try TemporaryDirectory()
        let cases: [([String], String)] = [
            ([], "api SODA 2.1 (--api auto without an app token or a login, which SODA3 needs)"),
            (["--where", "name = 'x'"], "api SODA 2.1 (--api auto without an app token or a login, which SODA3 needs)"),
            (["--app-token", "t"], "api SODA3 (--api auto with an app token or a login: SODA3, Socrata's standard for reads)"),
            (["--api", "soda3", "--app-token", "t"], "api SODA3 (--api soda3)"),
            (["--api", "rows"], "api rows.json (--api rows)"),
        ]
        for (options, first) in cases {
            let run = try SocloadProcess.run(["fetch", "plan-0001", "--domain", portal.baseURL, "--dry-run",
                                              "--db", directory.path("dry.sqlite")] + options, environment: ["SOCRATA_APP_TOKEN": ""])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout.split(separator: "\n").first.map(String.init), first, run.stdout)
            XCTAssertTrue(run.stdout.contains("\ntable plan_0001\n"), run.stdout)
        }
        // The URL of an export names the export.
        let export = try SocloadProcess.run(["fetch", portal.baseURL + "/api/views/plan-0001/rows.json", "--dry-run",
                                             "--db", directory.path("dry.sqlite")])
        XCTAssertEqual(export.stdout.split(separator: "\n").first.map(String.init),
                       "api rows.json (--api auto with the URL of a rows.json export: that export)", export.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("dry.sqlite")))
        // A portal that serves only the export: the dry run says the load would read it, and why.
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/views/ci7y-pmts/rows.json", .init(body: try Fixtures.bundled("ci7y-pmts")))
        let refused = try SocloadProcess.run(["fetch", "ci7y-pmts", "--domain", server.baseURL, "--dry-run",
                                              "--db", directory.path("dry.sqlite")])
        XCTAssertEqual(refused.status, 0, refused.stderr)
        XCTAssertEqual(refused.stdout.split(separator: "\n").first.map(String.init),
                       "api rows.json (the portal refuses SODA 2.1 for this dataset, so the load would read its rows.json export)")
        // SODA3 without a token or a login is refused before anything is asked.
        let noToken = try SocloadProcess.run(["fetch", "plan-0001", "--domain", portal.baseURL, "--dry-run", "--api", "soda3",
                                              "--db", directory.path("dry.sqlite")])
        XCTAssertEqual(noToken.status, 64, noToken.stderr)
        XCTAssertTrue(noToken.stderr.hasPrefix("Error: SODA3 needs an app token (--app-token, $SOCRATA_APP_TOKEN or the "
                                               + "credentials file)"), noToken.stderr)
    }
}
