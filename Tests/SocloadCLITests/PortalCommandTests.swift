import Foundation
import SocloadTestSupport
import XCTest

final class PortalCommandTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!
    var portal: FakeSocrataPortal!

    static let columns: [FakeSocrataPortal.Column] = [.init("name", "text"), .init("amount", "number")]

    static func row(_ index: Int, updated: Int = 0) -> FakeSocrataPortal.Row {
        .init(id: "row-\(String(format: "%04d", index))", createdAt: 1_420_070_400 + index, updatedAt: 1_420_070_400 + index + updated,
              cells: ["name": .text("Name \(index)"), "amount": .number("\(index).5")])
    }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("portal.sqlite")
        portal = try FakeSocrataPortal(datasetID: "port-0001", columns: Self.columns, rows: (1...12).map { Self.row($0) },
                                       rowsUpdatedAt: 1_430_000_000)
    }

    override func tearDown() {
        portal.stop()
    }

    private func socload(_ arguments: [String], environment: [String: String] = [:]) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db], environment: ["SOCLOAD_RETRY_DELAY": "0.01"].merging(environment) { $1 })
    }

    func testFetchSODA2ThenUpToDateThenSync() throws {
        let fetch = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda2", "--page-size", "5"])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertTrue(fetch.stderr.hasPrefix("Loaded 12 rows into port_0001 (5 columns) from \(portal.baseURL)/resource/port-0001.json through SODA 2.1 in "),
                      fetch.stderr)

        let again = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda2", "--page-size", "5"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.hasPrefix("port_0001 is up to date (12 rows, fetched "), again.stderr)

        portal.update({ rows, _ in
            rows[0].cells["name"] = .text("Changed")
            rows[0].updatedAt += 10_000
            rows.append(Self.row(13, updated: 20_000))
        }, rowsUpdatedAt: 1_430_000_100)
        let sync = try socload(["sync", "port_0001", "--page-size", "5"])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertTrue(sync.stderr.hasPrefix("Synced port_0001: 2 rows received (1 new, 1 already there) since 2015-01-01T00:00:12Z, 13 rows in all, in "),
                      sync.stderr)
        let incremental = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--incremental"])
        XCTAssertEqual(incremental.status, 0, incremental.stderr)
        XCTAssertTrue(incremental.stderr.hasPrefix("Synced port_0001: 0 rows received (0 new, 0 already there)"), incremental.stderr)
        let names = try socload(["query", "select name from port_0001 order by _id limit 1", "--format", "csv"])
        XCTAssertEqual(names.stdout, "name\r\nChanged\r\n")
        // A portal that ignores $where sends every row again: received, none changed, said so
        // by both lines alike.
        portal.update({ rows, _ in rows[1].updatedAt += 30_000 }, rowsUpdatedAt: 1_430_000_200)
        let body = portal.soda2PageBody(offset: 0, limit: 1_000)
        portal.inject { [portal = portal!] request in
            request.route.hasPrefix("/resource/") && portal.position(of: request) == 0 ? .init(body: body)
                : request.route.hasPrefix("/resource/") ? .init(body: Array("[]".utf8)) : nil
        }
        let everything = try socload(["sync", "port_0001", "--page-size", "50"])
        XCTAssertEqual(everything.status, 0, everything.stderr)
        let lines = everything.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("Synced port_0001: 13 rows received (0 new, 13 already there) since ") == true, everything.stderr)
        XCTAssertEqual(lines.dropFirst().first, "Refreshed port_0001: 0 added, 0 changed, 0 removed, 13 unchanged")

        let missing = try socload(["sync", "nothing"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.hasPrefix("Error: no table or dataset 'nothing' in the catalog: fetch it first"), missing.stderr)
    }

    /// A server that ignores the key (or `$offset`, where a selection leaves `:id` out) would be
    /// paged forever: a page that repeats row ids of the page before stops the load (exit 69),
    /// the database untouched.
    func testAServerThatDoesNotPageIsStopped() throws {
        let cases: [(FakeSocrataPortal.OffsetHandling, [String], String)] = [
            (.ignored, [], "page 2 repeats row row-0001 of page 1"),
            (.lagging(by: 2), [], "page 2 repeats row row-0004 of page 1"),
            (.ignored, ["--select", "name, amount"], "page 2 repeats every row of page 1"),
            // Whatever the key, and whether the rows carry :id or not.
            (.ignored, ["--pk", "name"], "page 2 repeats row row-0001 of page 1"),
            (.ignoredWithoutSystemFields, ["--pk", "name"], "page 2 repeats every row of page 1"),
            (.ignoredWithLimit, [], "page 1 has more than the 5 rows it asked for (it ignores $limit?)"),
            (.ignoredWithLimit, ["--pk", "name", "--select", "name"], "page 1 has more than the 5 rows it asked for (it ignores $limit?)"),
        ]
        for (handling, options, message) in cases {
            portal.offsetHandling = handling
            let run = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda2", "--page-size", "5"] + options)
            XCTAssertEqual(run.status, 69, run.stderr)
            let byKey = !message.contains("every row")
            let hint = message.hasSuffix("?)") ? "" : byKey ? " (it ignores the condition on :id?)" : " (it ignores $offset?)"
            XCTAssertEqual(run.stderr, "Error: the portal is not paging: \(message)\(hint); \(db!) was not created\n", "\(options)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: db))
        }
        // Pages of a selection without :id that merely look alike are not a repeat (the server
        // answers a page past the end with no rows).
        portal.offsetHandling = .honoured
        portal.update({ rows, _ in
            for index in rows.indices { rows[index].cells["name"] = .text("Same") }
        }, rowsUpdatedAt: 1_440_000_000)
        let alike = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda2", "--page-size", "5",
                                 "--select", "name"])
        XCTAssertEqual(alike.status, 0, alike.stderr)
        XCTAssertEqual(try SocloadProcess.run(["query", "select count(*) as n from port_0001", "--db", db, "--format", "csv"]).stdout,
                       "n\r\n12\r\n")
    }

    /// `*` and `:*` in `--select` are every user column and every system field; a selection
    /// that leaves the `--pk` out says the table has no key, not that it is `_id` again.
    func testSelectStarSelectsEveryColumn() throws {
        for (select, columns) in [("*", "name,amount"), (":*, *", "_id,_created_at,_updated_at,name,amount"),
                                  ("name, amount", "name,amount")] {
            let run = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--select", select, "--force"])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("Loaded 12 rows into port_0001 (\(columns.split(separator: ",").count) columns)"),
                          "\(select): \(run.stderr)")
            let header = try SocloadProcess.run(["query", "select * from port_0001 limit 0", "--db", db, "--format", "csv"]).stdout
            XCTAssertEqual(header, columns + "\r\n", select)
        }
        XCTAssertEqual(try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda2", "--pk", "_id,name"]).status, 0)
        let narrowed = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--select", "amount"])
        XCTAssertEqual(narrowed.status, 0, narrowed.stderr)
        XCTAssertTrue(narrowed.stderr.contains("Warning: port_0001 has no key now: --pk _id,name:"), narrowed.stderr)
    }

    /// `--domain HOST:PORT` means https; against a plain-http server the TLS error says to write http://.
    func testADomainWithoutSchemeAgainstPlainHTTPSaysToWriteHTTP() throws {
        let host = portal.baseURL.replacingOccurrences(of: "http://", with: "")
        let run = try socload(["fetch", "port-0001", "--domain", host, "--retries", "0"])
        XCTAssertEqual(run.status, 69, run.stderr)
        XCTAssertTrue(run.stderr.contains("wrong version number (for a plain http server write http://HOST:PORT) (https://"),
                      run.stderr)
    }

    func testMaxRowsRefusesALargerDataset() throws {
        let soda = ["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda2", "--page-size", "5"]
        XCTAssertEqual(try socload(soda + ["--max-rows", "12"]).status, 0)
        let before = try SocloadProcess.run(["query", "select * from port_0001", "--db", db]).stdout
        portal.update({ rows, _ in rows.append(PortalCommandTests.row(13)) }, rowsUpdatedAt: 1_440_000_000)
        let tooMany = try socload(soda + ["--max-rows", "12"])
        XCTAssertEqual(tooMany.status, 65, tooMany.stderr)
        XCTAssertEqual(tooMany.stderr, "Error: the dataset has more than 12 rows (--max-rows 12); port_0001 was not changed\n")
        XCTAssertEqual(try SocloadProcess.run(["query", "select * from port_0001", "--db", db]).stdout, before)

        let file = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        let fileTooMany = try socload(["fetch", file, "--table", "t", "--max-rows", "299"])
        XCTAssertEqual(fileTooMany.status, 65)
        XCTAssertEqual(fileTooMany.stderr, "Error: the dataset has more than 299 rows (--max-rows 299); t was not changed\n")
        XCTAssertEqual(try socload(["fetch", file, "--table", "t", "--max-rows", "300"]).status, 0)
        // --limit loads the first N rows of the same dataset.
        XCTAssertEqual(try socload(["fetch", file, "--table", "t", "--limit", "299"]).status, 0)
        XCTAssertEqual(try socload(["fetch", file, "--table", "t", "--max-rows", "\(Int.max)"]).status, 0)
    }

    /// A description the portal did send but that cannot be read is bad data with its reason, not a
    /// usage error about missing metadata.
    /// So is one that breaks RFC 8259's grammar or gives a name twice where it changes the meaning.
    func testAnUnreadableDatasetDescriptionIsBadData() throws {
        let deep = String(repeating: "[", count: 100_000)
        let column = #"{"fieldName":"name","dataTypeName":"text"}"#
        for body in [deep, #"{"id":"port-0001","columns":"none"}"#, #"{"id":"port-0001","columns":["# + column + ",]}",
                     #"{"id":"port-0001","columns":["# + column + "],}", #"{"id":"port-0001","id":"zzzz-0001","columns":[]}"#,
                     #"{"id":"port-0001","columns":[{"fieldName":"name","fieldName":"other","dataTypeName":"text"}]}"#,
                     #"{"id":"port-0001","columns":[{"fieldName":"name","dataTypeName":"text","position":01}]}"#] {
            portal.inject { request in
                request.route == "/api/views/port-0001.json" ? .init(body: Array(body.utf8)) : nil
            }
            let run = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda2"])
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("Error: unreadable meta.view: \(portal.baseURL)/api/views/port-0001.json "
                                               + "is not a dataset description: "), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        }
    }

    func testRetriesAreReportedAndTheLastErrorNamesThePage() throws {
        portal.inject { [portal = portal!] request in
            guard request.route.hasPrefix("/resource/"), portal.position(of: request) == 5 else { return nil }
            return .init(status: 503, body: Array("{\"message\":\"busy\"}".utf8))
        }
        let run = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda2", "--page-size", "5",
                               "--retries", "2"])
        XCTAssertEqual(run.status, 69)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, run.stderr)
        XCTAssertTrue(lines[0].hasPrefix("Retrying: HTTP 503 Service Unavailable from "), lines[0])
        XCTAssertTrue(lines[0].hasSuffix("retry 1 of 2 in 0.0 s"), lines[0])
        XCTAssertTrue(lines[2].hasPrefix("Error: HTTP 503 Service Unavailable from \(portal.baseURL)/resource/port-0001.json?"), lines[2])
        XCTAssertTrue(lines[2].hasSuffix(": busy (page 2); \(db!) was not created"), lines[2])
    }

    func testCredentialsNeverAppearInOutputOrDatabase() throws {
        let token = "tok-SECRET-4242"
        let password = "pw-SECRET-9999"
        portal.requiredAppToken = token
        portal.requiredLogin = "ann:\(password)"
        let environment = ["SOCRATA_APP_TOKEN": token, "SOCRATA_USERNAME": "ann", "SOCRATA_PASSWORD": password]
        var outputs: [String] = []
        for api in ["rows", "soda2", "soda3"] {
            let run = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", api, "--table", "t_\(api)", "--force"],
                                  environment: environment)
            XCTAssertEqual(run.status, 0, run.stderr)
            outputs += [run.stdout, run.stderr]
        }
        outputs.append(try socload(["sync", "t_soda2"], environment: environment).stderr)
        for command in [["info", "t_rows"], ["query", "select * from _socload_datasets"], ["tables"]] {
            let run = try socload(command + ["--format", "json"], environment: environment)
            XCTAssertEqual(run.status, 0, run.stderr)
            outputs += [run.stdout, run.stderr]
        }
        let failing = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda3"],
                                  environment: ["SOCRATA_APP_TOKEN": "wrong-\(token)"])
        XCTAssertEqual(failing.status, 69)
        outputs.append(failing.stderr)
        for output in outputs {
            XCTAssertFalse(output.contains(token) || output.contains(password), output)
        }
        var files = Data()
        for suffix in ["", "-wal"] {
            files += (try? Data(contentsOf: URL(fileURLWithPath: db + suffix))) ?? Data()
        }
        XCTAssertFalse(files.isEmpty)
        XCTAssertNil(files.range(of: Data(token.utf8)))
        XCTAssertNil(files.range(of: Data(password.utf8)))
        let header = portal.server.requests.first { $0.route.hasPrefix("/api/v3") }?.headers["authorization"]
        XCTAssertEqual(header, "Basic " + Data("ann:\(password)".utf8).base64EncodedString())
    }

    func testPasswordIsNotSentOverPlainHTTPToAnotherHost() throws {
        let run = try socload(["fetch", "abcd-1234", "--domain", "http://portal.invalid"],
                              environment: ["SOCRATA_USERNAME": "ann", "SOCRATA_PASSWORD": "pw"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.hasPrefix("Error: refusing to send a password over plain http to http://portal.invalid/"), run.stderr)
    }

    func testUsageErrorsForPortalOptions() throws {
        let badAPI = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda9"])
        XCTAssertEqual(badAPI.status, 64)
        let soqlOnFile = try socload(["fetch", Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path,
                                      "--where", "agency = 'State'"])
        XCTAssertEqual(soqlOnFile.status, 64)
        XCTAssertTrue(soqlOnFile.stderr.hasPrefix("Error: --where, --select and --order need a dataset on a portal"), soqlOnFile.stderr)
        let soda3 = try socload(["fetch", "port-0001", "--domain", portal.baseURL, "--api", "soda3"])
        XCTAssertEqual(soda3.status, 64)
        XCTAssertTrue(soda3.stderr.hasPrefix("Error: SODA3 needs an app token"), soda3.stderr)
    }
}
