import Foundation
import Glibc
import SocloadTestSupport
import XCTest

/// A refresh killed outright (SIGKILL) just after a load's COMMIT, before the lock's journal
/// records the dataset, or inside the load's transaction: `verify --locked` agrees with the
/// database either way (the journal's note that the load began is settled by the database), and
/// the next refresh folds what it settled into the lock.
final class LockFileKillTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portals: [FakeSocrataPortal] = []

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        signal(SIGPIPE, SIG_IGN)
        portals = try ["kill-0001", "kill-0002"].enumerated().map { index, id in
            try ProjectRefreshTests.portal(id, rows: 30 * (index + 1))
        }
    }

    override func tearDown() {
        for portal in portals { portal.stop() }
    }

    private var folder: URL { URL(fileURLWithPath: directory.path("")) }

    private func writeProject(database: String, defaults: String = "") throws {
        let entries = portals.enumerated().map { index, portal in
            #"{"id": "kill-000\#(index + 1)", "domain": "\#(portal.baseURL)", "name": "d\#(index + 1)"}"#
        }
        let project = #"{"database": "\#(database)", "defaults": {"retries": 0\#(defaults)}, "datasets": [\#(entries.joined(separator: ", "))]}"#
        try Data(project.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
    }

    /// Runs `refresh` paused at `step` and kills it there; fails unless it got there.
    private func refreshKilled(at step: String, arguments: [String] = []) throws {
        let run = try SocloadProcess.killed(["refresh", "--quiet"] + arguments, at: step, directory: folder)
        XCTAssertTrue(run.reached, "refresh ended before \(step): \(run.said)")
    }

    private func updatePortals(_ serial: Int) {
        for (index, portal) in portals.enumerated() {
            portal.update({ rows, _ in rows.append(ProjectRefreshTests.row(700 + 10 * serial + index)) },
                          rowsUpdatedAt: 1_430_000_000 + 1_000 * serial)
        }
    }

    private func verifyLocked(_ why: String) throws {
        let verified = try SocloadProcess.run(["verify", "--locked"], directory: folder)
        XCTAssertEqual(verified.status, 0, why + ":\n" + verified.stdout + verified.stderr)
    }

    private func killAfterCommitAndInsideTheTransaction(database: String, arguments: [String] = []) throws {
        try writeProject(database: database)
        let first = try SocloadProcess.run(["refresh", "--quiet"], directory: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        let lock = directory.path("socload.lock")
        let locked = try String(contentsOfFile: lock, encoding: .utf8)

        // Killed after the first load's COMMIT, before its entry's line: the lock file is as it
        // was, the journal says the load began, and the database holds the new copy.
        updatePortals(1)
        try refreshKilled(at: "committed", arguments: arguments)
        XCTAssertEqual(try String(contentsOfFile: lock, encoding: .utf8), locked)
        let journal = try String(contentsOfFile: directory.path("socload.lock-journal"), encoding: .utf8)
        XCTAssertTrue(journal.contains(#""pending":{"#), journal)
        XCTAssertFalse(journal.contains(#""entry":{"#), journal)
        try verifyLocked("after a kill just after a COMMIT")

        // Killed inside the next load's transaction, in a later second: nothing more committed,
        // the lock agrees still (the killed refresh's journal was folded in as this one began).
        Thread.sleep(forTimeInterval: 1.1)
        updatePortals(2)
        try refreshKilled(at: "fingerprints", arguments: arguments)
        XCTAssertNotEqual(try String(contentsOfFile: lock, encoding: .utf8), locked,
                          "the first kill's committed load was settled into the lock")
        try verifyLocked("after a kill inside a load's transaction")

        // The next refresh folds the journal into the lock, which agrees with what it loaded.
        let next = try SocloadProcess.run(["refresh", "--quiet"], directory: folder)
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("socload.lock-journal")))
        try verifyLocked("after the next refresh")
        let rowCounts = try SocloadProcess.run(["verify", "--locked", "--format", "csv"], directory: folder).stdout
        XCTAssertTrue(rowCounts.contains("d1,kill_0001,row_count,32,32,yes"), rowCounts)
        XCTAssertTrue(rowCounts.contains("d2,kill_0002,row_count,62,62,yes"), rowCounts)
    }

    func testSQLite() throws {
        try killAfterCommitAndInsideTheTransaction(database: "kill.sqlite")
    }

    func testSQLiteWithJobs() throws {
        try killAfterCommitAndInsideTheTransaction(database: "kill.sqlite", arguments: ["--jobs", "2"])
    }

    func testPostgreSQL() throws {
        let database = try TestPostgreSQL.makeDatabase()
        try killAfterCommitAndInsideTheTransaction(database: database.url, arguments: ["--jobs", "2"])
    }
}
