import Synchronization
import Foundation
import SocloadTestSupport
import XCTest

/// A dataset of a batch that only waits on the network lends its job slot (`WaitLending`): out a
/// retry's backoff (`ProjectJobsTests`), on a slow response, but never while it writes (on SQLite
/// it holds the turn the slots' holders wait for).
final class WaitLendingTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portals: [FakeSocrataPortal] = []

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        portals = try ["wait-0001", "wait-0002", "wait-0003"].enumerated().map { index, id in
            try ProjectRefreshTests.portal(id, rows: 40 * (index + 1))
        }
    }

    override func tearDown() {
        for portal in portals { portal.stop() }
    }

    private var folder: URL { URL(fileURLWithPath: directory.path("")) }

    private func writeProject(defaults: String) throws {
        let entries = portals.enumerated().map { index, portal in
            #"{"id": "wait-000\#(index + 1)", "domain": "\#(portal.baseURL)", "name": "d\#(index + 1)"}"#
        }
        let project = #"{"database": "wait.sqlite", "defaults": {\#(defaults)}, "datasets": [\#(entries.joined(separator: ", "))]}"#
        try Data(project.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
    }

    /// `socload ARGUMENTS` in the project's folder, killed after `seconds` (a batch that waits
    /// forever fails the test instead of hanging it).
    private func runWithin(_ seconds: Int, _ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(["--preserve-status", "-s", "KILL", "\(seconds)", SocloadProcess.executable.path] + arguments,
                               directory: folder, through: URL(fileURLWithPath: "/usr/bin/timeout"))
    }

    /// The datasets of `--json` output, in the order they finished.
    private func finishingOrder(_ run: SocloadRun) throws -> [String] {
        try run.stdout.split(separator: "\n").map { line in
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            XCTAssertEqual(object["status"] as? String, "loaded", run.stderr)
            return try XCTUnwrap(object["dataset"] as? String)
        }
    }

    /// A filtered query's pages are read in the writer's turn: a page that retries there keeps
    /// its slot, since the threads that would take it wait for that turn (with the slot lent, the
    /// batch waited forever).
    func testARetryInTheWritersTurnLendsNothingAndTheBatchEnds() throws {
        try writeProject(defaults: #""retries": 3, "api": "soda2", "where": "amount > 0""#)
        for portal in portals {
            let refused = Mutex(0)
            portal.inject { request in
                guard request.route.hasPrefix("/resource/"), refused.withLock({ count in defer { count += 1 }; return count < 2 }) else { return nil }
                return .init(status: 503, headers: [("Content-Type", "application/json"), ("Retry-After", "0.5")],
                             body: Array(#"{"message":"busy"}"#.utf8))
            }
        }
        let run = try runWithin(60, ["refresh", "--json", "--jobs", "2"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(Set(try finishingOrder(run)), ["d1", "d2", "d3"])
    }

    /// A response that comes slowly lends its slot: with two jobs and the first two datasets'
    /// pages trickling in for seconds, the third loads meanwhile.
    func testASlowResponseLendsItsJobSlot() throws {
        try writeProject(defaults: #""api": "soda2""#)
        for portal in portals.prefix(2) {
            let served = Mutex(0)
            portal.inject { request in
                guard request.route.hasPrefix("/resource/"), served.withLock({ count in defer { count += 1 }; return count < 1 }) else { return nil }
                // About 3 s for the page, at a few kilobytes a second.
                let body = portal.soda2PageBody(offset: 0, limit: 50_000)
                return .init(status: 200, headers: [("Content-Type", "application/json")], body: body,
                             delivery: .drip(chunk: max(1, body.count / 30), interval: 0.1))
            }
        }
        let run = try runWithin(60, ["refresh", "--json", "--jobs", "2"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try finishingOrder(run).first, "d3", "the third dataset took a slot lent by a slow one:\n\(run.stdout)")
        let tables = try SocloadProcess.run(["tables", "--db", directory.path("wait.sqlite"), "--format", "csv"])
        XCTAssertEqual(tables.stdout, "table,rows,in_sql\r\nwait_0001,40,wait_0001\r\nwait_0002,80,wait_0002\r\nwait_0003,120,wait_0003\r\n")
    }
}
