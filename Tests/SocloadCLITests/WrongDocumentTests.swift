import Foundation
import SocloadTestSupport
import SocloadToolKit
import XCTest

/// A file that is not what the command reads gets one line saying what it is and what reads
/// it, exit 65, nothing changed: a SODA page given to `fetch`; a saved HTTP response, an HTML
/// page (a file or a URL answering 200) or doubled byte order marks given to `load`.
final class WrongDocumentTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("wrong.sqlite")
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = directory.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testASODAPageGivenToFetchPointsToLoad() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        let page = shared.appendingPathComponent("koop-schools-page.json").path
        let run = try SocloadProcess.run(["fetch", page, "--db", db])
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(run.stderr, "Error: the document is a JSON array (a SODA page or records), not a rows.json export: "
                       + "socload load FILE --metadata VIEWS.json loads it, typed by the dataset's description "
                       + "(VIEWS.json: https://DOMAIN/api/views/ID.json); \(db!) was not created\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
        // A saved HTTP response given to fetch says what it is, as load does.
        let response = shared.appendingPathComponent("soda-ruby-404.response").path
        let saved = try SocloadProcess.run(["fetch", response, "--db", db])
        XCTAssertEqual(saved.status, 65)
        XCTAssertTrue(saved.stderr.hasPrefix("Error: \(response): is a saved HTTP response (HTTP/1.1 404 Not Found"), saved.stderr)
    }

    /// A document that is not there is said in one line, exit 66, before any word of copying it.
    func testAMissingDocumentIsOneLine() throws {
        let missing = directory.path("nothere.json")
        let run = try SocloadProcess.run(["load", missing, "--db", db])
        XCTAssertEqual(run.status, 66, run.stderr)
        XCTAssertEqual(run.stderr, "Error: no such file: \(missing); \(db!) was not created\n")
        // Plain text is read as CSV of a header alone: said with the file's name once.
        let text = try write(Array("hello there\n".utf8), "junk.json")
        let junk = try SocloadProcess.run(["load", text, "--db", db])
        XCTAssertEqual(junk.status, 65, junk.stderr)
        XCTAssertTrue(junk.stderr.hasPrefix("Error: \(text) has no record with a field"), junk.stderr)
    }

    /// A rows.json export given as `--metadata` is said to be one, with what loads it.
    func testARowsJSONExportGivenAsMetadataIsSaidToBeOne() throws {
        let export = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        let records = try write(Array(#"[{"name": "A"}]"#.utf8), "records.json")
        let run = try SocloadProcess.run(["load", records, "--metadata", export, "--db", db])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(export) is a rows.json export, not a dataset description: socload fetch loads it whole"),
                      run.stderr)
    }

    func testFilesThatAreNoDocumentSayWhatTheyAre() throws {
        // A table to keep: each refusal leaves it as it was.
        let keep = try SocloadProcess.run(["load", try write(Array(#"[{"a": 1}]"#.utf8), "t.json"), "--db", db, "-q"])
        XCTAssertEqual(keep.status, 0, keep.stderr)
        var cases: [(path: String, says: String)] = []
        if let shared = Fixtures.sharedDatasets {
            cases.append((shared.appendingPathComponent("soda-ruby-404.response").path,
                          "is a saved HTTP response (HTTP/1.1 404 Not Found, then its headers), not a document"))
            cases.append((shared.appendingPathComponent("soda-ruby-500_error.response").path,
                          "is a saved HTTP response (HTTP/1.1 500 Server Error, then its headers), not a document"))
        }
        // A body without a comma, which read as CSV would load as one column.
        cases.append((try write(Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello\r\nworld\r\n".utf8), "raw.http"),
                      "is a saved HTTP response (HTTP/1.1 200 OK, then its headers), not a document"))
        cases.append((try write(Array("<!DOCTYPE html>\n<html><head><title>Sign in\n | Portal</title></head></html>".utf8), "page.json"),
                      "is an HTML page (\"Sign in | Portal\"), not JSON or CSV"))
        cases.append((try write([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(#"[{"id": 1}]"#.utf8), "marks.json"),
                      "is text that starts with 2 UTF-8 byte order marks"))
        for (path, says) in cases {
            let run = try SocloadProcess.run(["load", path, "--table", "t", "--pk", "id", "--db", db])
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("Error: \(path): \(says)"), run.stderr)
            XCTAssertTrue(run.stderr.hasSuffix("; t was not changed\n"), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        }
        // A URL that answers 200 with a sign-in page.
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/data.json", .init(headers: [("Content-Type", "text/html")], body: Array("<html><title>Log in</title></html>".utf8)))
        let url = server.baseURL + "/data.json"
        let run = try SocloadProcess.run(["load", url, "--table", "t", "--pk", "id", "--db", db, "--quiet"])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("Error: \(url): is an HTML page (\"Log in\")"), run.stderr)
        let rows = try SocloadProcess.run(["query", "select a from t", "--db", db, "--format", "csv"])
        XCTAssertEqual(rows.stdout, "a\r\n1\r\n")
    }

    /// A file read as CSV only because it does not start with `[` or `{` says so when it fails.
    func testAFileTakenForCSVByItsFirstByteSaysSo() throws {
        let notes = try write(Array("hello world\nthis, is a line, with commas\nx\n".utf8), "notes.txt")
        let run = try SocloadProcess.run(["load", notes, "--db", db])
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(run.stderr, "Error: \(notes): line 2: 3 fields where the header has 1 (read as CSV: it does not start with "
                       + "[ or {; --csv, --tsv or a .json name say what it is); \(db!) was not created\n")
        // Named as CSV, the file says what it is: no note.
        let named = try write(Array("a\n1,2\n".utf8), "named.csv")
        let csv = try SocloadProcess.run(["load", named, "--db", db])
        XCTAssertEqual(csv.status, 65)
        XCTAssertFalse(csv.stderr.contains("read as CSV"), csv.stderr)
    }

    func testADatasetIDAnywhereInTheFileNameNamesTheTable() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        let page = shared.appendingPathComponent("data.cityofchicago.org__zidz-sdfj__resource-v2.json").path
        let run = try SocloadProcess.run(["load", page, "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("Loaded 10 rows into zidz_sdfj (2 columns)"), run.stderr)
        // Not a 4x4 when it runs on into other letters or digits.
        let other = try write(Array(#"[{"a": 1}]"#.utf8), "xabcd-1234.json")
        XCTAssertTrue(try SocloadProcess.run(["load", other, "--db", db]).stderr.hasPrefix("Loaded 1 row into xabcd-1234 "))
    }
}
