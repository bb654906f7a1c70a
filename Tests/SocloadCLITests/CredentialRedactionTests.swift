import Foundation
import SocloadCore
import SocloadTestSupport
import XCTest

/// A password in a URL (`http://user:pw@host/...`, `postgresql://user:pw@host/db`) never reaches
/// standard error, standard output or the catalog, whatever the command and however it ends.
final class CredentialRedactionTests: XCTestCase {
    static let password = "s3cr3tPW"
    var directory: TemporaryDirectory!
    var portal: FakeSocrataPortal!
    var db: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("creds.sqlite")
        portal = try FakeSocrataPortal(datasetID: "cred-0001", columns: PortalCommandTests.columns,
                                       rows: (1...3).map { PortalCommandTests.row($0) }, rowsUpdatedAt: 1_430_000_000)
        portal.requiredLogin = "ana:\(Self.password)"
    }

    override func tearDown() {
        portal.stop()
    }

    /// `http://ana:PASSWORD@127.0.0.1:PORT` + path.
    private func credentialed(_ path: String) -> String {
        portal.baseURL.replacingOccurrences(of: "http://", with: "http://ana:\(Self.password)@") + path
    }

    @discardableResult
    private func run(_ arguments: [String], expect status: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> SocloadRun {
        let result = try SocloadProcess.run(arguments, environment: ["SOCLOAD_RETRY_DELAY": "0.01"])
        XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.stderr.contains(Self.password), "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.stdout.contains(Self.password), "\(arguments): \(result.stdout)", file: file, line: line)
        return result
    }

    func testNoCommandPrintsOrStoresAPasswordFromAURL() throws {
        // Success: the progress line, the summary, the catalog, info.
        let page = credentialed("/resource/cred-0001.json?$limit=100")
        let loaded = try run(["load", page, "--table", "t", "--db", db], expect: 0)
        XCTAssertTrue(loaded.stderr.contains("Copying http://ana@127.0.0.1"), loaded.stderr)
        try run(["load", page, "--table", "typed", "--metadata", credentialed("/api/views/cred-0001.json"), "--db", db], expect: 0)
        let rows = credentialed("/api/views/cred-0001/rows.json")
        try run(["fetch", rows, "--db", db], expect: 0)
        for table in ["t", "typed", "cred_0001"] {
            let info = try run(["info", table, "--db", db], expect: 0)
            XCTAssertTrue(info.stdout.contains("127.0.0.1"), info.stdout)
        }
        try run(["query", "select * from _socload_datasets", "--db", db, "--format", "json"], expect: 0)

        // Every kind of failure: HTTP status, a refused connection, a bad description, a dry run.
        try run(["load", credentialed("/resource/none-0000.json"), "--table", "x", "--db", db], expect: 69)
        try run(["fetch", credentialed("/api/views/none-0000/rows.json"), "--db", db], expect: 69)
        try run(["load", page, "--table", "x", "--metadata", credentialed("/api/views/none-0000.json"), "--db", db], expect: 69)
        let closed = "http://ana:\(Self.password)@127.0.0.1:1/api/views/abcd-1234/rows.json"
        try run(["fetch", closed, "--db", db, "--retries", "0"], expect: 69)
        try run(["load", closed, "--table", "x", "--db", db, "--retries", "0"], expect: 69)
        try run(["fetch", rows, "--dry-run"], expect: 0)
        try run(["fetch", "none-0000", "--domain", credentialed(""), "--db", db, "--retries", "0"], expect: 69)
        let catalog = try run(["query", "select * from _socload_datasets", "--db", db, "--format", "json"], expect: 0)
        XCTAssertTrue(catalog.stdout.contains("http://ana@127.0.0.1") || catalog.stdout.contains("http://127.0.0.1"), catalog.stdout)
    }

    func testNoCommandPrintsThePasswordOfAPostgreSQLURL() throws {
        let unreachable = "postgresql://ana:\(Self.password)@127.0.0.1:1/opendata?password=\(Self.password)"
        let file = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        for arguments in [["fetch", file], ["load", file, "--table", "x"], ["query", "select 1"], ["select", "t"], ["tables"],
                          ["schema", "t"], ["info", "t"], ["verify", "t"], ["drop", "t"], ["sync", "t"], ["extract", "t", "a"]] {
            let result = try run(arguments + ["--db", unreachable], expect: 69)
            XCTAssertTrue(result.stderr.contains("postgresql://ana@127.0.0.1:1/opendata"), result.stderr)
        }
    }

    /// A password typed unencoded, as people do (`ana:p@ss/w?rd@host`): it ends at the last `@`
    /// before the host, so libpq connects to the right host and no piece of it (`ss/w?rd`, which
    /// libpq took for a host name before) reaches any output.
    func testAnUnencodedPasswordWithAtSignsNeverReachesTheOutput() throws {
        let server = try TestPostgreSQL.serverURL()
        let port = try XCTUnwrap(URLComponents(string: server)?.port)
        let pieces = ["Wq7@zZ", "x9/k", "Vv3"]
        let password = pieces.joined(separator: "@")
        let file = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        for host in ["127.0.0.1:\(port)", "127.0.0.1:1"] {
            let url = "postgresql://nobody_here:\(password)@\(host)/opendata"
            for arguments in [["fetch", file], ["query", "select 1"], ["tables"]] {
                let result = try SocloadProcess.run(arguments + ["--db", url])
                XCTAssertNotEqual(result.status, 0)
                for piece in pieces + ["zZ", "x9", "Vv3"] {
                    XCTAssertFalse(result.stderr.contains(piece) || result.stdout.contains(piece), "\(piece) in \(result.stderr)")
                }
                XCTAssertTrue(result.stderr.contains("postgresql://nobody_here@\(host)/opendata"), result.stderr)
                // The server was asked (the role is unknown there), not a host made of the password's end.
                if host.hasSuffix(":\(port)") { XCTAssertTrue(result.stderr.contains("role \"nobody_here\" does not exist"), result.stderr) }
            }
        }
        XCTAssertEqual(CredentialRedaction.url("postgresql://ana:p@ss@db:5432/x?sslmode=require"), "postgresql://ana@db:5432/x?sslmode=require")
        XCTAssertEqual(CredentialRedaction.url("https://h:8080/p@q"), "https://h:8080/p@q")
        XCTAssertEqual(CredentialRedaction.url("https://h/p@q?x=a@b"), "https://h/p@q?x=a@b")
    }
}
