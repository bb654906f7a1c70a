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
            ([], "api rows.json (--api auto without SoQL options: the whole export in one request)"),
            (["--where", "name = 'x'"], "api SODA 2.1 (--api auto with SoQL options: only a query API filters)"),
            (["--api", "soda3"], "api SODA3 (--api soda3)"),
        ]
        for (options, first) in cases {
            let run = try SocloadProcess.run(["fetch", "plan-0001", "--domain", portal.baseURL, "--dry-run",
                                              "--db", directory.path("dry.sqlite")] + options)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout.split(separator: "\n").first.map(String.init), first, run.stdout)
            XCTAssertTrue(run.stdout.contains("\ntable plan_0001\n"), run.stdout)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("dry.sqlite")))
    }
}
