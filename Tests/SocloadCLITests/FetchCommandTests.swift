import Foundation
import SocloadDatabase
import SocloadTestSupport
import XCTest

final class FetchCommandTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("fetch.sqlite")
    }

    private func fetch(_ arguments: [String], environment: [String: String] = [:]) throws -> SocloadRun {
        try SocloadProcess.run(["fetch"] + arguments + ["--db", db], environment: environment)
    }

    func testBundledCopyIsUsedAndSaidSo() throws {
        let datasets = Fixtures.datasetsDirectory.path
        let run = try fetch(["n5m4-mism", "--datasets", datasets])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, run.stderr)
        XCTAssertEqual(lines[0], "Using the bundled copy \(datasets)/n5m4-mism.json (pass --domain HOST to fetch it from a portal)")
        XCTAssertTrue(lines[1].hasPrefix("Loaded 300 rows into n5m4_mism (13 columns) from \(datasets)/n5m4-mism.json in "), lines[1])
        XCTAssertTrue(lines[1].hasSuffix(" s"), lines[1])
        XCTAssertEqual(run.stdout, "")
        let count = try SocloadProcess.run(["query", "select count(*) as n from n5m4_mism where agency = ?", "--param", "State",
                                            "--db", db, "--format", "csv"])
        XCTAssertTrue(count.stdout.hasPrefix("n\r\n"), count.stdout)
        let viaEnvironment = try fetch(["ci7y-pmts", "--quiet"], environment: ["SOCLOAD_DATASETS": datasets])
        XCTAssertEqual(viaEnvironment.status, 0, viaEnvironment.stderr)
        let tables = try SocloadProcess.run(["tables", "--db", db, "--format", "csv"])
        XCTAssertEqual(tables.stdout, "table,rows,in_sql\r\nci7y_pmts,120,ci7y_pmts\r\nn5m4_mism,300,n5m4_mism\r\n")
    }

    func testFromALoopbackPortalWithDomainTableAndLimit() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/views/ci7y-pmts/rows.json", .init(body: try Fixtures.bundled("ci7y-pmts"), delivery: .chunked(chunkSize: 4096)))
        let run = try fetch(["ci7y-pmts", "--domain", server.baseURL, "--table", "permits", "--limit", "25",
                             "--app-token", "tok-123"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("Loaded 25 rows into permits (26 columns) from \(server.baseURL)/api/views/ci7y-pmts/rows.json?accessType=DOWNLOAD through rows.json in "), run.stderr)
        XCTAssertFalse(run.stderr.contains("tok-123"))
        // With a token, auto asks SODA3 first; this server knows only the export, so the load
        // falls back to it and says why.
        XCTAssertEqual(server.requests.map(\.route), ["/api/views/ci7y-pmts.json", "/api/v3/views/ci7y-pmts/query.json",
                                                      "/api/views/ci7y-pmts/rows.json"])
        XCTAssertTrue(run.stderr.contains("Warning: the portal refuses SODA3 for this dataset (HTTP 404 Not Found from "
                                          + "\(server.baseURL)/api/v3/views/ci7y-pmts/query.json: not_found: no route), so its rows "
                                          + "were read from the rows.json export (deprecated by Socrata since 2026-10-01)"), run.stderr)
        XCTAssertEqual(server.requests.last?.path, "/api/views/ci7y-pmts/rows.json?accessType=DOWNLOAD")
        XCTAssertTrue(server.requests.allSatisfy { $0.headers["x-app-token"] == "tok-123" })

        let info = try SocloadProcess.run(["info", "ci7y-pmts", "--db", db, "--format", "csv"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("table,permits\r\n"), info.stdout)
        XCTAssertTrue(info.stdout.contains("dataset_id,ci7y-pmts\r\ndomain,127.0.0.1:\(server.port)\r\n"), info.stdout)
        XCTAssertTrue(info.stdout.contains("rows,25\r\n"), info.stdout)
        XCTAssertFalse(info.stdout.contains("tok-123"))

        let viaURL = try fetch([server.baseURL + "/Permits/Building-Permits/ci7y-pmts", "--quiet"])
        XCTAssertEqual(viaURL.status, 0, viaURL.stderr)
        // --quiet: only the warnings (the fallback to the export, cells stored as NULL), no summary.
        XCTAssertEqual(viaURL.stderr.split(separator: "\n").count, 2, viaURL.stderr)
        XCTAssertTrue(viaURL.stderr.hasPrefix(#"density: 15 cells were not numbers, stored as NULL; first at row 1: "Infinity""# + "\n"))
        XCTAssertTrue(viaURL.stderr.contains("\nWarning: the portal refuses SODA 2.1 for this dataset (HTTP 404"), viaURL.stderr)
        XCTAssertEqual(try SocloadProcess.run(["query", "select count(*) as n from ci7y_pmts", "--db", db, "--format", "csv"]).stdout,
                       "n\r\n120\r\n")
    }

    func testErrorsAreOneLineWithTheirExitCodes() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/views/gone-0404/rows.json",
                     .init(status: 404, body: Array(#"{"code":"dataset.missing","error":true,"message":"Cannot find view"}"#.utf8)))
        server.route("/api/views/html-0200/rows.json", .init(headers: [("Content-Type", "text/html")], body: Array("<html></html>".utf8)))

        let missing = try fetch(["gone-0404", "--domain", server.baseURL])
        XCTAssertEqual(missing.status, 69)
        XCTAssertEqual(missing.stderr, "Error: HTTP 404 Not Found from \(server.baseURL)/api/views/gone-0404/rows.json?accessType=DOWNLOAD: dataset.missing: Cannot find view; \(db!) was not created\n")

        let html = try fetch(["html-0200", "--domain", server.baseURL])
        XCTAssertEqual(html.status, 65)
        XCTAssertEqual(html.stderr, "Error: received an HTML page where a JSON dataset was expected; \(db!) was not created\n")

        let noDomain = try fetch(["abcd-1234", "--datasets", directory.path("none")])
        XCTAssertEqual(noDomain.status, 66)
        XCTAssertEqual(noDomain.stderr, "Error: no portal for dataset 'abcd-1234' and no bundled copy: pass --domain HOST (or set SOCLOAD_DOMAIN)\n")

        let noID = try fetch(["https://data.example.org/browse?q=x"])
        XCTAssertEqual(noID.status, 64)
        XCTAssertTrue(noID.stderr.hasPrefix("Error: no dataset id (like abcd-1234) in the URL 'https://data.example.org/browse?q=x'\n  See 'socload fetch --help'"), noID.stderr)

        let badLimit = try fetch(["abcd-1234", "--limit", "lots"])
        XCTAssertEqual(badLimit.status, 64)

        let notAFile = try fetch(["./nowhere.json"])
        XCTAssertEqual(notAFile.status, 66)
        XCTAssertEqual(notAFile.stderr, "Error: './nowhere.json' is not a file, a URL or a dataset id (like abcd-1234)\n")

        let refused = try fetch(["abcd-1234", "--domain", "http://127.0.0.1:1"])
        XCTAssertEqual(refused.status, 69)
        XCTAssertTrue(refused.stderr.hasPrefix("Error: Failed to connect to 127.0.0.1 port 1"), refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1)

        // Among several datasets, a file's failure names the file once.
        let page = directory.path("page.html")
        try Data("<html><head><title>Sign in</title></head></html>".utf8).write(to: URL(fileURLWithPath: page))
        let several = try fetch([page, "./nowhere.json"])
        XCTAssertTrue(several.stderr.contains("Error: \(page): is an HTML page"), several.stderr)
        XCTAssertFalse(several.stderr.contains("\(page): \(page)"), several.stderr)
    }

    func testAFailedFirstFetchLeavesNoEmptyDatabase() throws {
        let broken = directory.path("broken.json")
        try Data("{\"meta\":".utf8).write(to: URL(fileURLWithPath: broken))
        let run = try fetch([broken])
        XCTAssertEqual(run.status, 65)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "the database this fetch created was removed")
    }

    func testBadDataInAFileKeepsThePreviousTable() throws {
        let good = try fetch([Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path, "--table", "t"])
        XCTAssertEqual(good.status, 0, good.stderr)
        let before = try SocloadProcess.run(["query", "select * from t", "--db", db, "--format", "csv"]).stdout
        let broken = directory.path("broken.json")
        let bytes = try Fixtures.bundled("n5m4-mism")
        try Data(bytes.prefix(bytes.count - 100)).write(to: URL(fileURLWithPath: broken))
        let run = try fetch([broken, "--table", "t"])
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(run.stderr, "Error: the document ends early, at byte \(bytes.count - 100) (truncated download?); t was not changed\n")
        XCTAssertEqual(try SocloadProcess.run(["query", "select * from t", "--db", db, "--format", "csv"]).stdout, before)
    }

    func testInterruptRollsBackAndExits130() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/views/slow-0001/rows.json", .init(body: try Fixtures.bundled("n5m4-mism"), delivery: .stall(seconds: 20)))
        for (signal, status, name) in [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")] {
            let process = Process()
            process.executableURL = SocloadProcess.executable
            process.arguments = ["fetch", "slow-0001", "--domain", server.baseURL, "--db", db]
            let stderr = Pipe()
            process.standardError = stderr
            try process.run()
            Thread.sleep(forTimeInterval: 0.7)
            kill(process.processIdentifier, signal)
            let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, status, output)
            XCTAssertEqual(output, "Error: interrupted by \(name); \(db!) was not created\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "nothing was loaded, so no database is left behind")
    }

    /// While a load is half-way through its transaction, another process still reads the previous
    /// table; after the interrupted load it is still there, unchanged.
    func testReadersSeeThePreviousTableDuringALoad() throws {
        let first = try fetch([Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path, "--table", "t"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = try Fixtures.bundled("ci7y-pmts")
        server.route("/api/views/ci7y-pmts/rows.json", .init(body: body, delivery: .partialThenStall(bytes: body.count / 2, seconds: 20)))
        let process = Process()
        process.executableURL = SocloadProcess.executable
        process.arguments = ["fetch", "ci7y-pmts", "--domain", server.baseURL, "--table", "t", "--db", db]
        process.standardError = Pipe()
        try process.run()
        Thread.sleep(forTimeInterval: 1.0)
        let during = try SocloadProcess.run(["query", "select count(*) as n, count(name) as names from t", "--db", db, "--format", "csv"])
        XCTAssertEqual(during.status, 0, during.stderr)
        XCTAssertEqual(during.stdout, "n,names\r\n300,300\r\n")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let after = try SocloadProcess.run(["query", "select count(*) as n from t", "--db", db, "--format", "csv"])
        XCTAssertEqual(after.stdout, "n\r\n300\r\n")
    }

    func testBundledDatasetsEqualTheGeneratorOutput() throws {
        let generator = SocloadProcess.executable.deletingLastPathComponent().appendingPathComponent("socload-datasets")
        let process = Process()
        process.executableURL = generator
        process.arguments = [directory.path("generated")]
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        for id in Fixtures.bundledIDs {
            let generated = try Data(contentsOf: URL(fileURLWithPath: directory.path("generated/\(id).json")))
            XCTAssertEqual(Array(generated), try Fixtures.bundled(id), "\(id).json differs from the generator's output: run make datasets")
        }
    }
}

/// `--quiet`: nothing on standard error for a success, but warnings still.
final class QuietTests: XCTestCase {
    func testQuietPrintsOnlyWarnings() throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("quiet.sqlite")
        let bundled = try SocloadProcess.run(["fetch", "n5m4-mism", "--datasets", Fixtures.datasetsDirectory.path, "--db", db, "--quiet"])
        XCTAssertEqual(bundled.status, 0)
        XCTAssertEqual(bundled.stderr, "", "no 'Using the bundled copy' or 'Loaded' line")
        let document = HostileInputTests.document(columns: [("n", "number")], rows: [#"["1"]"#, #"["N/A"]"#])
        let path = directory.path("odd.json")
        try Data(document.utf8).write(to: URL(fileURLWithPath: path))
        let warned = try SocloadProcess.run(["fetch", path, "--table", "odd", "--db", db, "-q"])
        XCTAssertEqual(warned.status, 0)
        XCTAssertEqual(warned.stderr, "n: 1 cell was not a number, stored as NULL; first at row 2: \"N/A\"\n")
    }
}
