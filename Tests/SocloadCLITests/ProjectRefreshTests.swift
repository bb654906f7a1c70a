import Foundation
import SocloadTestSupport
import XCTest

/// `socload refresh` of a project file (`socload.json`) against loopback portals, and `fetch`
/// of several datasets: every dataset in its own transaction, one failure not stopping the
/// others, the exit code the largest of the failures', and a second refresh asking only what
/// changed.
final class ProjectRefreshTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    static func portal(_ id: String, rows: Int) throws -> FakeSocrataPortal {
        try FakeSocrataPortal(datasetID: id, columns: [.init("name", "text"), .init("amount", "number")],
                              rows: (1...rows).map { row($0) }, rowsUpdatedAt: 1_430_000_000)
    }

    static func row(_ index: Int) -> FakeSocrataPortal.Row {
        .init(id: "row-\(index)", createdAt: 1_420_070_400 + index, updatedAt: 1_420_070_400 + index,
              cells: ["name": .text("Nom \(index) — é"), "amount": .number("\(index).25")])
    }

    private func write(_ project: String, to name: String = "socload.json") throws -> String {
        let path = directory.path(name)
        try Data(project.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func rowCounts(_ db: String) throws -> String {
        try SocloadProcess.run(["tables", "--db", db, "--format", "csv"]).stdout
    }

    func testRefreshLoadsEveryDatasetAndThenAsksOnlyWhatChanged() throws {
        let first = try Self.portal("proj-0001", rows: 5)
        let second = try Self.portal("proj-0002", rows: 3)
        defer { first.stop(); second.stop() }
        _ = try write("""
            {"database": "open.sqlite", "defaults": {"retries": 0},
             "datasets": [{"id": "proj-0001", "domain": "\(first.baseURL)", "table": "first"},
                          {"id": "proj-0002", "domain": "\(second.baseURL)", "pk": "_id"},
                          {"id": "gone-0003", "domain": "http://127.0.0.1:9", "name": "unreachable"}]}
            """)
        let folder = URL(fileURLWithPath: directory.path(""))
        let run = try SocloadProcess.run(["refresh"], environment: ["SOCLOAD_RETRY_DELAY": "0"], directory: folder)
        XCTAssertEqual(run.status, 69, run.stderr)
        XCTAssertTrue(run.stderr.contains("  first        first: loaded 5 rows"), run.stderr)
        XCTAssertTrue(run.stderr.contains("  unreachable  failed (exit 69): "), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix("Error: 1 of 3 datasets failed: unreachable\n"), run.stderr)
        let db = directory.path("open.sqlite")
        XCTAssertEqual(try rowCounts(db), "table,rows,in_sql\r\nfirst,5,\"\"\"first\"\"\"\r\nproj_0002,3,proj_0002\r\n")

        first.update({ rows, _ in rows.append(Self.row(6)) }, rowsUpdatedAt: 1_430_000_500)
        let rowRequestsBefore = second.server.requests.filter { $0.path.contains("rows.json") }.count
        let again = try SocloadProcess.run(["refresh", "first", "proj-0002"], directory: folder)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("first: loaded 6 rows (1 added, 0 changed, 0 removed, 5 unchanged)"), again.stderr)
        // The closing table lists what changed; the up-to-date datasets are counted (--verbose lists them).
        XCTAssertFalse(again.stderr.contains("proj_0002: up to date"), again.stderr)
        XCTAssertTrue(again.stderr.hasSuffix("  and 1 more up to date (--verbose lists them)\n"), again.stderr)
        XCTAssertEqual(second.server.requests.filter { $0.path.contains("rows.json") }.count, rowRequestsBefore,
                       "an unchanged dataset costs its metadata request only")
        XCTAssertEqual(try rowCounts(db), "table,rows,in_sql\r\nfirst,6,\"\"\"first\"\"\"\r\nproj_0002,3,proj_0002\r\n")

        let unknown = try SocloadProcess.run(["refresh", "nope"], directory: folder)
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("has no dataset named 'nope' (it has: first, proj-0002, unreachable)"), unknown.stderr)
        let byID = try SocloadProcess.run(["refresh", "proj-0001", "--project", directory.path("socload.json"), "--verbose"])
        XCTAssertEqual(byID.status, 0, byID.stderr)
        XCTAssertTrue(byID.stderr.contains("  first  first: up to date, 6 rows"), "an entry is also called by its id:\n\(byID.stderr)")
        let quiet = try SocloadProcess.run(["refresh", "first", "--quiet", "--project", directory.path("socload.json")])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "")
    }

    func testFetchOfSeveralDatasetsGoesOnPastAFailure() throws {
        let first = try Self.portal("many-0001", rows: 4)
        defer { first.stop() }
        let db = directory.path("many.sqlite")
        let run = try SocloadProcess.run(["fetch", "many-0001", directory.path("missing.json"), "many-0001", "--domain", first.baseURL,
                                          "--db", db, "--verbose"])
        XCTAssertEqual(run.status, 66, run.stderr)
        XCTAssertTrue(run.stderr.contains("many_0001: up to date, 4 rows"), run.stderr)
        XCTAssertTrue(run.stderr.contains("Error: 1 of 3 datasets failed: "), run.stderr)
        XCTAssertEqual(try rowCounts(db), "table,rows,in_sql\r\nmany_0001,4,many_0001\r\n")
        // Into a new file, the last failing at the portal: the file the others made is there, and
        // no message says it was not created.
        let fresh = directory.path("multi.sqlite")
        let several = try SocloadProcess.run(["fetch", "many-0001", "many-0001", "none-0009", "--domain", first.baseURL, "--db", fresh,
                                              "--retries", "0"])
        XCTAssertEqual(several.status, 69, several.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh))
        XCTAssertFalse(several.stderr.contains("was not created"), several.stderr)
        XCTAssertTrue(several.stderr.contains("none_0009 was not changed"), several.stderr)
        let named = try SocloadProcess.run(["fetch", "a-b", "c-d", "--table", "t", "--db", db])
        XCTAssertEqual(named.status, 64)
        XCTAssertTrue(named.stderr.contains("--table names the table of one dataset"), named.stderr)
    }

    /// A file entry is skipped while its size, modification time and bytes are those of its last
    /// load; an edit (even one that keeps the size and the time) loads it again, as `--force` does.
    func testAFileEntryIsSkippedWhileItIsTheSameFile() throws {
        let bundled = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")
        let file = directory.path("local.json")
        try FileManager.default.copyItem(atPath: bundled.path, toPath: file)
        let project = try write(#"{"database": "files.sqlite", "datasets": [{"file": "local.json", "table": "local"}]}"#)
        func refresh(_ extra: [String] = []) throws -> String {
            let run = try SocloadProcess.run(["refresh", "--project", project, "--verbose"] + extra)
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.stderr
        }
        func status() throws -> String {
            try SocloadProcess.run(["status", "--project", project, "--format", "csv"]).stdout
        }
        XCTAssertTrue(try refresh().contains("local: loaded 300 rows"))
        let same = try status()
        XCTAssertTrue(same.contains("local,local,unchanged,unknown,same,300"), same)
        XCTAssertTrue(try refresh().contains("local: up to date, 300 rows"))
        // The same size and time, another byte: loaded again.
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let at = try XCTUnwrap(bytes.firstRange(of: Array("Ana Åström".utf8))).lowerBound
        bytes[at] = UInt8(ascii: "E")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: file)
        let changed = try status()
        XCTAssertTrue(changed.contains("local,local,changed,unknown,same,300"), changed)
        XCTAssertTrue(changed.contains("the file's size, time or bytes are not those of its last load"), changed)
        let edited = try refresh()
        XCTAssertTrue(edited.contains("local: loaded 300 rows (0 added, 1 changed, 0 removed, 299 unchanged)"), edited)
        XCTAssertTrue(try refresh().contains("local: up to date, 300 rows"))
        XCTAssertTrue(try refresh(["--force"]).contains("local: loaded 300 rows"))
        // Without a table, and a name with no dataset id in it (as Socrata names a download),
        // the table is known only from the file's metadata: skipped all the same.
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        try FileManager.default.createDirectory(atPath: directory.path("exports"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: shared.appendingPathComponent("mwda-nf2p.rows.json").path,
                                         toPath: directory.path("exports/rows.json"))
        let unnamed = try write(#"{"database": "files.sqlite", "datasets": [{"file": "exports/rows.json", "name": "hiv"}]}"#,
                                to: "unnamed.json")
        let firstRun = try SocloadProcess.run(["refresh", "--project", unnamed])
        XCTAssertTrue(firstRun.stderr.contains("hiv  mwda_nf2p: loaded 29 rows"), firstRun.stderr)
        let secondRun = try SocloadProcess.run(["refresh", "--project", unnamed, "--verbose"])
        XCTAssertTrue(secondRun.stderr.contains("hiv  mwda_nf2p: up to date, 29 rows"), secondRun.stderr)
    }

    /// A second refresh of the same project waits for the first, or with --no-wait exits 75.
    func testTwoRefreshesOfOneProjectNeverOverlap() throws {
        let portal = try Self.portal("lock-0001", rows: 2)
        defer { portal.stop() }
        let path = try write(#"{"database": "lock.sqlite", "datasets": [{"id": "lock-0001", "domain": ""# + portal.baseURL + #""}]}"#)
        let holder = open(path, O_RDONLY)
        XCTAssertEqual(flock(holder, LOCK_EX), 0)
        let refused = try SocloadProcess.run(["refresh", "--no-wait", "--project", path])
        XCTAssertEqual(refused.status, 75, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("another refresh of \(path) is running"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("lock.sqlite")))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { close(holder) }
        let waited = try SocloadProcess.run(["refresh", "--project", path])
        XCTAssertEqual(waited.status, 0, waited.stderr)
        XCTAssertTrue(waited.stderr.hasPrefix("Waiting for another refresh of \(path) to finish"), waited.stderr)
        XCTAssertEqual(try rowCounts(directory.path("lock.sqlite")), "table,rows,in_sql\r\nlock_0001,2,lock_0001\r\n")
    }

    /// `--json`: one object a dataset on standard output, whatever became of it.
    func testJSONResultsAreOneObjectADataset() throws {
        let portal = try Self.portal("json-0001", rows: 4)
        defer { portal.stop() }
        let path = try write(#"{"database": "j.sqlite", "defaults": {"retries": 0}, "datasets": [{"id": "json-0001", "domain": ""#
                             + portal.baseURL + #"", "pk": "_id"}, {"id": "gone-0002", "domain": "http://127.0.0.1:9"}]}"#)
        // One object a dataset as each ends (datasets load side by side): here in the project's order.
        func objects(_ run: SocloadRun) throws -> [[String: Any]] {
            try run.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
                .sorted { ($0["dataset"] as? String ?? "") > ($1["dataset"] as? String ?? "") }
        }
        let first = try SocloadProcess.run(["refresh", "--json", "--quiet", "--project", path], environment: ["SOCLOAD_RETRY_DELAY": "0"])
        XCTAssertEqual(first.status, 69, first.stderr)
        let reports = try objects(first)
        XCTAssertEqual(reports.count, 2)
        XCTAssertEqual(reports[0]["status"] as? String, "loaded")
        XCTAssertEqual(reports[0]["table"] as? String, "json_0001")
        XCTAssertEqual(reports[0]["rows"] as? Int, 4)
        XCTAssertEqual(reports[1]["status"] as? String, "failed")
        XCTAssertEqual(reports[1]["exit_code"] as? Int, 69)
        XCTAssertNotNil(reports[1]["error"] as? String)

        portal.update({ rows, _ in rows.removeFirst(); rows.append(Self.row(9)) }, rowsUpdatedAt: 1_430_000_700)
        let second = try objects(try SocloadProcess.run(["refresh", "json-0001", "--json", "--quiet", "--project", path]))
        XCTAssertEqual(second.count, 1)
        XCTAssertEqual(second[0]["added"] as? Int, 1)
        XCTAssertEqual(second[0]["removed"] as? Int, 1)
        XCTAssertEqual(second[0]["unchanged"] as? Int, 3)
        let third = try objects(try SocloadProcess.run(["refresh", "json-0001", "--json", "--quiet", "--project", path]))
        XCTAssertEqual(third[0]["status"] as? String, "up_to_date")
        XCTAssertEqual(third[0]["rows"] as? Int, 4)

        let single = try SocloadProcess.run(["fetch", directory.path("missing.json"), "--json", "--db", directory.path("j.sqlite")])
        XCTAssertEqual(single.status, 66)
        XCTAssertEqual(try objects(single).first?["status"] as? String, "failed")
    }

    /// `status` says what a refresh would do from metadata alone: missing, changed rows, a
    /// changed schema, and a dataset whose metadata fails; nothing is loaded.
    func testStatusSaysWhatARefreshWouldDo() throws {
        let loaded = try Self.portal("stat-0001", rows: 3)
        let fresh = try Self.portal("stat-0002", rows: 2)
        defer { loaded.stop(); fresh.stop() }
        let path = try write(#"{"database": "s.sqlite", "defaults": {"retries": 0}, "datasets": [{"id": "stat-0001", "domain": ""#
                             + loaded.baseURL + #""}, {"id": "stat-0002", "domain": ""# + fresh.baseURL + #""}]}"#)
        XCTAssertEqual(try SocloadProcess.run(["refresh", "stat-0001", "--quiet", "--project", path]).status, 0)
        func states() throws -> [[String]] {
            let run = try SocloadProcess.run(["status", "--project", path, "--format", "csv"])
            XCTAssertEqual(run.status, 0, run.stderr)
            // dataset, table, state, schema, rows (the watch, after state, is WatchTests').
            return run.stdout.split(whereSeparator: \.isNewline).dropFirst().map { line in
                let fields = CSVLine.fields(String(line))
                return [0, 1, 2, 4, 5].map { fields[$0] }
            }
        }
        XCTAssertEqual(try states(), [["stat-0001", "stat_0001", "unchanged", "same", "3"], ["stat-0002", "stat_0002", "missing", "new", ""]])
        loaded.update({ rows, columns in
            rows.append(Self.row(4))
            columns.append(.init("extra", "text"))
        }, rowsUpdatedAt: 1_430_000_800)
        let rowRequests = loaded.server.requests.filter { $0.path.contains("rows.json") }.count
        XCTAssertEqual(try states().first, ["stat-0001", "stat_0001", "changed", "changed", "3"])
        XCTAssertEqual(try rowCounts(directory.path("s.sqlite")), "table,rows,in_sql\r\nstat_0001,3,stat_0001\r\n", "nothing loaded")

        let broken = try write(#"{"database": "s.sqlite", "defaults": {"retries": 0}, "datasets": [{"id": "gone-0003", "domain": "http://127.0.0.1:9"}]}"#,
                               to: "broken.json")
        let failed = try SocloadProcess.run(["status", "--project", broken, "--format", "csv"], environment: ["SOCLOAD_RETRY_DELAY": "0"])
        XCTAssertEqual(failed.status, 69, failed.stderr)
        XCTAssertTrue(failed.stdout.contains("gone-0003,,failed,"), failed.stdout)
        XCTAssertEqual(loaded.server.requests.filter { $0.path.contains("rows.json") }.count, rowRequests, "status reads no rows")

        // A dataset the portal does not have is 69 whatever the API; one it does not describe
        // is planned from a page's headers.
        fresh.hidesMetadata = true
        for api in ["rows", "soda2", "soda3"] {
            let missing = try write(#"{"database": "s.sqlite", "defaults": {"retries": 0, "app-token": "t"}, "datasets": [{"id": "gone-0004", "api": ""#
                                    + api + #"", "domain": ""# + fresh.baseURL + #""}, {"id": "stat-0002", "api": "soda2", "domain": ""#
                                    + fresh.baseURL + #""}]}"#, to: "missing.json")
            let run = try SocloadProcess.run(["status", "--project", missing, "--format", "csv"], environment: ["SOCLOAD_RETRY_DELAY": "0"])
            XCTAssertEqual(run.status, 69, "\(api): \(run.stdout) \(run.stderr)")
            XCTAssertTrue(run.stdout.contains("gone-0004,,failed,"), run.stdout)
            XCTAssertTrue(run.stdout.contains("404"), run.stdout)
            XCTAssertTrue(run.stdout.contains("stat-0002,stat_0002,missing,unknown,new,"), run.stdout)
        }
    }

    /// The closing error line names whole datasets, five at most, however many failed.
    func testTheClosingErrorLineListsFiveWholeNamesAndCountsTheRest() throws {
        let names = (1...7).map { "missing-\($0).json" }
        let run = try SocloadProcess.run(["fetch"] + names + ["--db", "none.sqlite", "--quiet"],
                                         directory: URL(fileURLWithPath: directory.path(".")))
        XCTAssertEqual(run.status, 66, run.stderr)
        let last = try XCTUnwrap(run.stderr.split(separator: "\n").last.map(String.init))
        XCTAssertEqual(last, "Error: 7 of 7 datasets failed: " + names.prefix(5).joined(separator: ", ") + " ... and 2 more")
    }
}
