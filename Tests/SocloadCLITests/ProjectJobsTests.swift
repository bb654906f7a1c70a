import Synchronization
import Foundation
import Glibc
import SocloadTestSupport
import XCTest

/// `refresh --jobs N` (and `fetch A B C`): datasets worked on side by side. On SQLite one writes
/// at a time while the others download ahead into temporary files, so a slow download holds
/// nobody up; on PostgreSQL they load at once, each on its own connection; an interrupt keeps
/// what was committed and the previous copy of what was not.
final class ProjectJobsTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portals: [FakeSocrataPortal] = []

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        portals = try ["jobs-0001", "jobs-0002", "jobs-0003"].enumerated().map { index, id in
            try ProjectRefreshTests.portal(id, rows: 40 * (index + 1))
        }
    }

    override func tearDown() {
        for portal in portals { portal.stop() }
    }

    private var folder: URL { URL(fileURLWithPath: directory.path("")) }

    private func writeProject(database: String = "jobs.sqlite", defaults: String = "", retries: Int = 0, api: String = "rows") throws {
        let entries = portals.enumerated().map { index, portal in
            #"{"id": "jobs-000\#(index + 1)", "domain": "\#(portal.baseURL)", "name": "d\#(index + 1)"}"#
        }
        // rows.json: what a refresh downloads ahead of its turn (a query API's pages are read in it).
        let project = #"{"database": "\#(database)", "defaults": {"retries": \#(retries), "api": "\#(api)"\#(defaults)}, "datasets": [\#(entries.joined(separator: ", "))]}"#
        try Data(project.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
    }

    /// The datasets of `--json` output, in the order they finished.
    private func finishingOrder(_ run: SocloadRun) throws -> [String] {
        try run.stdout.split(separator: "\n").map { line in
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            XCTAssertEqual(object["status"] as? String, "loaded", run.stderr)
            return try XCTUnwrap(object["dataset"] as? String)
        }
    }

    private func rows(_ db: String) throws -> String {
        try SocloadProcess.run(["tables", "--db", db, "--format", "csv"]).stdout
    }

    func testASlowDownloadDoesNotHoldTheOthersUpOnSQLite() throws {
        try writeProject()
        // About 2 s for the first dataset's rows.json; the others come at once.
        portals[0].rowsDelivery = .drip(chunk: 512, interval: 0.15)
        let run = try SocloadProcess.run(["refresh", "--json", "--quiet"], directory: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let order = try finishingOrder(run)
        XCTAssertEqual(Set(order), ["d1", "d2", "d3"])
        XCTAssertEqual(order.last, "d1", "the slow download was waited for alone:\n\(run.stdout)")
        let db = directory.path("jobs.sqlite")
        XCTAssertEqual(try rows(db), "table,rows,in_sql\r\njobs_0001,40,jobs_0001\r\njobs_0002,80,jobs_0002\r\njobs_0003,120,jobs_0003\r\n")
        let first = try SocloadProcess.run(["query", "select name, amount from jobs_0001 where _id = 'row-40'", "--db", db, "--format", "csv"])
        XCTAssertEqual(first.stdout, "name,amount\r\nNom 40 — é,40.25\r\n", "read from the spooled download whole")

        // One at a time: in the project's order, slow or not.
        portals[0].update({ rows, _ in rows.append(ProjectRefreshTests.row(41)) }, rowsUpdatedAt: 1_430_000_900)
        let serial = try SocloadProcess.run(["refresh", "--json", "--quiet", "--force", "--jobs", "1"], directory: folder)
        XCTAssertEqual(serial.status, 0, serial.stderr)
        XCTAssertEqual(try finishingOrder(serial), ["d1", "d2", "d3"])
        let bad = try SocloadProcess.run(["refresh", "--jobs", "0"], directory: folder)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("--jobs needs a number above 0"), bad.stderr)
    }

    /// A query API's pages are downloaded ahead too: a dataset whose page waits out its retries
    /// holds no turn, and nothing is left in the temporary folder.
    func testAPageRetryingHoldsNobodysTurnOnSQLite() throws {
        try writeProject(retries: 3, api: "soda2")
        let spoolDirectory = directory.path("spool")
        try FileManager.default.createDirectory(atPath: spoolDirectory, withIntermediateDirectories: true)
        // The first dataset's first page answers 503 twice, asking for 1.5 s each time.
        let refused = Mutex(0)
        portals[0].inject { request in
            guard request.route.hasPrefix("/resource/"), refused.withLock({ count in defer { count += 1 }; return count < 2 }) else { return nil }
            return .init(status: 503, headers: [("Content-Type", "application/json"), ("Retry-After", "1.5")],
                         body: Array(#"{"message":"busy"}"#.utf8))
        }
        let run = try SocloadProcess.run(["refresh", "--json"], environment: ["TMPDIR": spoolDirectory], directory: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let order = try finishingOrder(run)
        XCTAssertEqual(order.last, "d1", "the others loaded while the first waited out its retries:\n\(run.stdout)\n\(run.stderr)")
        XCTAssertTrue(run.stderr.contains("Retrying: HTTP 503"), run.stderr)
        XCTAssertEqual(try rows(directory.path("jobs.sqlite")),
                       "table,rows,in_sql\r\njobs_0001,40,jobs_0001\r\njobs_0002,80,jobs_0002\r\njobs_0003,120,jobs_0003\r\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spoolDirectory), [], "no spooled page is left")
        let json = try XCTUnwrap(run.stdout.split(separator: "\n").first.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        XCTAssertEqual(json?["api"] as? String, "SODA 2.1", "the spooled pages are the API's")
    }

    /// A page that fails for good while downloaded ahead fails its dataset as the load would:
    /// the page, the hint about anonymous throttling, the table left as it was.
    func testAPageDownloadedAheadThatFailsForGoodSaysSoAsALoadWould() throws {
        try writeProject(retries: 0, api: "soda2")
        portals[0].inject { request in
            request.route.hasPrefix("/resource/") ? .init(status: 429, body: Array(#"{"message":"slow down"}"#.utf8)) : nil
        }
        let run = try SocloadProcess.run(["refresh"], directory: folder)
        XCTAssertEqual(run.status, 69, run.stderr)
        XCTAssertTrue(run.stderr.contains("(page 1)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("anonymous requests are throttled"), run.stderr)
        XCTAssertTrue(run.stderr.contains("jobs_0001 was not changed"), run.stderr)
        XCTAssertTrue(try rows(directory.path("jobs.sqlite")).contains("jobs_0002,80,"), "the others loaded")
    }

    /// A dataset waiting out a backoff lends its job slot: with two jobs and the first two
    /// datasets retrying, the third loads meanwhile.
    func testADatasetWaitingOutItsRetriesLendsItsJobSlot() throws {
        try writeProject(retries: 3, api: "soda2")
        for portal in portals.prefix(2) {
            let refused = Mutex(0)
            portal.inject { request in
                guard request.route.hasPrefix("/resource/"), refused.withLock({ count in defer { count += 1 }; return count < 2 }) else { return nil }
                return .init(status: 503, headers: [("Content-Type", "application/json"), ("Retry-After", "1.5")],
                             body: Array(#"{"message":"busy"}"#.utf8))
            }
        }
        let run = try SocloadProcess.run(["refresh", "--json", "--jobs", "2"], directory: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try finishingOrder(run).first, "d3", "the third dataset took a slot lent by a waiting one:\n\(run.stdout)")
        XCTAssertEqual(try rows(directory.path("jobs.sqlite")),
                       "table,rows,in_sql\r\njobs_0001,40,jobs_0001\r\njobs_0002,80,jobs_0002\r\njobs_0003,120,jobs_0003\r\n")
    }

    func testDownloadsAheadAreConditionalAndLeaveNoFileBehind() throws {
        try writeProject(retries: 1)
        let spoolDirectory = directory.path("spool")
        try FileManager.default.createDirectory(atPath: spoolDirectory, withIntermediateDirectories: true)
        let environment = ["TMPDIR": spoolDirectory]
        let first = try SocloadProcess.run(["refresh"], environment: environment, directory: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        let rowsRequests = { (portal: FakeSocrataPortal) in portal.server.requests.filter { $0.route.hasSuffix("/rows.json") } }
        XCTAssertEqual(portals.map { rowsRequests($0).count }, [1, 1, 1])

        portals[1].update({ rows, _ in rows.removeLast() }, rowsUpdatedAt: 1_430_001_000)
        // The first description read ahead of its turn fails once: the retry is said, as a load's are.
        let failedOnce = Mutex(false)
        portals[2].inject { request in
            guard request.route == "/api/views/jobs-0003.json",
                  failedOnce.withLock({ failed in defer { failed = true }; return !failed }) else { return nil }
            return .init(status: 503, body: Array(#"{"message":"busy"}"#.utf8))
        }
        let second = try SocloadProcess.run(["refresh", "--verbose"], environment: environment.merging(["SOCLOAD_RETRY_DELAY": "0"]) { $1 },
                                            directory: folder)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("Retrying: HTTP 503 Service Unavailable from \(portals[2].baseURL)/api/views/jobs-0003.json"),
                      second.stderr)
        XCTAssertTrue(second.stderr.contains("jobs_0002: loaded 79 rows (0 added, 0 changed, 1 removed, 79 unchanged)"), second.stderr)
        XCTAssertTrue(second.stderr.contains("jobs_0001: up to date, 40 rows"), second.stderr)
        XCTAssertEqual(portals.map { rowsRequests($0).count }, [1, 2, 1], "unchanged datasets cost their metadata request only")
        let conditional = try XCTUnwrap(rowsRequests(portals[1]).last)
        XCTAssertNotNil(conditional.headers["if-none-match"], "the download ahead asks as the load would")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spoolDirectory), [], "no spool file is left")
        XCTAssertTrue(try rows(directory.path("jobs.sqlite")).contains("jobs_0002,79,"))
    }

    func testAnInterruptKeepsWhatWasCommittedAndThePreviousCopyOfTheRest() throws {
        try writeProject()
        let db = directory.path("jobs.sqlite")
        XCTAssertEqual(try SocloadProcess.run(["refresh", "--quiet"], directory: folder).status, 0)
        for (index, portal) in portals.enumerated() {
            portal.update({ rows, _ in rows.append(ProjectRefreshTests.row(500 + index)) }, rowsUpdatedAt: 1_430_002_000)
        }
        // The first dataset's new version never finishes arriving.
        let body = 4096
        portals[0].rowsDelivery = .partialThenStall(bytes: body, seconds: 30)
        let process = Process()
        process.executableURL = SocloadProcess.executable
        process.arguments = ["refresh", "--quiet"]
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Wait until the two others are committed, then stop the refresh.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let now = try rows(db)
            if now.contains("jobs_0002,81,") && now.contains("jobs_0003,121,") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 143, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        XCTAssertEqual(try rows(db), "table,rows,in_sql\r\njobs_0001,40,jobs_0001\r\njobs_0002,81,jobs_0002\r\njobs_0003,121,jobs_0003\r\n")
        // The lock file records what was committed: it agrees with the database.
        let verified = try SocloadProcess.run(["verify", "--locked"], directory: folder)
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)

        // Killed outright, the lock file was written as each dataset committed.
        for (index, portal) in portals.enumerated() where index > 0 {
            portal.update({ rows, _ in rows.append(ProjectRefreshTests.row(600 + index)) }, rowsUpdatedAt: 1_430_003_000)
        }
        let killed = Process()
        killed.executableURL = SocloadProcess.executable
        killed.arguments = ["refresh", "--quiet"]
        killed.currentDirectoryURL = folder
        killed.standardError = Pipe()
        try killed.run()
        let killDeadline = Date().addingTimeInterval(20)
        while Date() < killDeadline {
            let now = try rows(db)
            if now.contains("jobs_0002,82,") && now.contains("jobs_0003,122,") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        // The lock is rewritten just after each commit: give it that moment.
        Thread.sleep(forTimeInterval: 0.5)
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        XCTAssertEqual(try rows(db), "table,rows,in_sql\r\njobs_0001,40,jobs_0001\r\njobs_0002,82,jobs_0002\r\njobs_0003,122,jobs_0003\r\n")
        let afterKill = try SocloadProcess.run(["verify", "--locked"], directory: folder)
        XCTAssertEqual(afterKill.status, 0, afterKill.stdout + afterKill.stderr)
    }

    /// The closing table of an interrupted refresh counts the datasets it never started.
    func testAnInterruptCountsTheDatasetsNotStarted() throws {
        try writeProject()
        portals[0].rowsDelivery = .partialThenStall(bytes: 4096, seconds: 30)
        let process = Process()
        process.executableURL = SocloadProcess.executable
        process.arguments = ["refresh", "--jobs", "1"]
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 130, stderr)
        XCTAssertTrue(stderr.contains("  and 2 not started (they keep their previous copy)\n"), stderr)
    }

    func testPostgreSQLLoadsSideBySideIntoANewSchema() throws {
        let database = try TestPostgreSQL.makeDatabase()
        try writeProject(database: database.url, defaults: #", "schema": "jobs_side""#)
        let first = try SocloadProcess.run(["refresh", "--jobs", "3"], directory: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        for portal in portals {
            portal.update({ rows, _ in rows.removeFirst() }, rowsUpdatedAt: 1_430_003_000)
        }
        let second = try SocloadProcess.run(["refresh", "--jobs", "3"], directory: folder)
        XCTAssertEqual(second.status, 0, second.stderr)
        for (index, count) in [39, 79, 119].enumerated() {
            XCTAssertTrue(second.stderr.contains("jobs_000\(index + 1): loaded \(count) rows (0 added, 0 changed, 1 removed"), second.stderr)
        }
        let changes = try SocloadProcess.run(["changes", "jobs_0003", "--db", database.url, "--schema", "jobs_side", "--format", "csv"])
        XCTAssertEqual(changes.status, 0, changes.stderr)
        XCTAssertTrue(changes.stdout.contains("removed"), changes.stdout)
    }
}
