import Foundation
import SocloadTestSupport
import XCTest

/// The credentials file keeps the app token out of argv and project files; socload reads it only
/// when it is private to the user (as ssh reads its keys), and with it `--api auto` reads SODA3.
final class CredentialsFileTests: XCTestCase {
    var portal: FakeSocrataPortal!
    var directory: TemporaryDirectory!
    let token = "tok-FILE-7777"

    override func setUpWithError() throws {
        portal = try ProjectRefreshTests.portal("cred-0001", rows: 7)
        portal.requiredAppToken = token
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        portal.stop()
    }

    private func write(_ text: String, mode: Int16) throws -> String {
        let path = directory.path("credentials.json")
        try? FileManager.default.removeItem(atPath: path)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8),
                                                     attributes: [.posixPermissions: NSNumber(value: mode)]))
        return path
    }

    private func fetch(_ environment: [String: String], _ extra: [String] = []) throws -> SocloadRun {
        try SocloadProcess.run(["fetch", "cred-0001", "--domain", portal.baseURL, "--db", directory.path("c.sqlite"), "--force"] + extra,
                               environment: environment)
    }

    func testTheFileIsReadOnlyWhenPrivateAndThenAutoReadsSODA3() throws {
        let path = try write(#"{"app-token": "\#(token)"}"#, mode: 0o644)
        let open = try fetch(["SOCLOAD_CREDENTIALS": path])
        XCTAssertEqual(open.status, 78, open.stderr)
        XCTAssertEqual(open.stderr, "Error: the credentials file \(path) is open to others (mode 644): run chmod 600 \(path) "
                       + "(socload reads credentials only from a file no one else can read)\n")
        XCTAssertFalse(portal.server.requests.contains { $0.headers["x-app-token"] == token }, "nothing was sent with it")

        XCTAssertEqual(chmod(path, 0o600), 0)
        let run = try fetch(["SOCLOAD_CREDENTIALS": path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains(" through SODA3 in "), run.stderr)
        XCTAssertFalse(run.stderr.contains(token))
        XCTAssertTrue(portal.server.requests.contains { $0.route.hasPrefix("/api/v3/") && $0.headers["x-app-token"] == token })

        // Found where it lives by default, under $XDG_CONFIG_HOME.
        let config = directory.path("config")
        try FileManager.default.createDirectory(atPath: config + "/socload", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: path, toPath: config + "/socload/credentials.json")
        let found = try fetch(["XDG_CONFIG_HOME": config])
        XCTAssertEqual(found.status, 0, found.stderr)

        // The variable comes first: a wrong token there is what is sent (and refused).
        let overridden = try fetch(["XDG_CONFIG_HOME": config, "SOCRATA_APP_TOKEN": "other"])
        XCTAssertEqual(overridden.status, 69, overridden.stderr)
        XCTAssertEqual(portal.server.requests.last?.headers["x-app-token"], "other")
    }

    func testAFileThatIsNotWhatItShouldBeIsOneLineNamingIt() throws {
        let cases: [(String, String)] = [
            (#"{"token": "x"}"#, #"has an unknown key "token" (it takes "app-token", "username" and "password")"#),
            (#"{"app-token": 42}"#, #"has a key "app-token" whose value is not a string"#),
            ("app-token=x", #"is not a JSON object like {"app-token": "..."}"#),
        ]
        for (text, problem) in cases {
            let path = try write(text, mode: 0o600)
            let run = try fetch(["SOCLOAD_CREDENTIALS": path])
            XCTAssertEqual(run.status, 78, run.stderr)
            XCTAssertEqual(run.stderr, "Error: the credentials file \(path) \(problem)\n")
        }
        let passwordOnly = try write(#"{"password": "pw"}"#, mode: 0o600)
        let half = try fetch(["SOCLOAD_CREDENTIALS": passwordOnly])
        XCTAssertEqual(half.status, 78, half.stderr)
        XCTAssertEqual(half.stderr, "Error: the credentials file \(passwordOnly) has a \"password\" but no \"username\"\n")
        // A token given otherwise comes first: a file open to others is then not read at all.
        let open = try write(#"{"app-token": "\#(token)"}"#, mode: 0o644)
        let given = try fetch(["SOCLOAD_CREDENTIALS": open, "SOCRATA_APP_TOKEN": token])
        XCTAssertEqual(given.status, 0, given.stderr)
        let missing = try fetch(["SOCLOAD_CREDENTIALS": directory.path("none.json")])
        XCTAssertEqual(missing.status, 78, "a file named by $SOCLOAD_CREDENTIALS must be there")
        XCTAssertTrue(missing.stderr.hasPrefix("Error: the credentials file \(directory.path("none.json")) cannot be read"), missing.stderr)
        // No file where it is looked for by default: no credentials (SODA 2.1, anonymous).
        portal.requiredAppToken = nil
        let none = try fetch(["XDG_CONFIG_HOME": directory.path("nowhere"), "SOCLOAD_CREDENTIALS": ""])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertTrue(none.stderr.contains(" through SODA 2.1 in "), none.stderr)
    }
}
