import Foundation
import SocloadTestSupport
import XCTest

/// Every version kept as evidence (issue 47): with a cache, each version a refresh downloads is a
/// BagIt bag (checked by the `bagit` validator from PyPI), pruned past `"keep-versions"`, an
/// unchanged payload linked rather than stored twice, exported by `socload archive`, and refused
/// by `refresh --locked` and `archive` once damaged or edited.
final class KeptVersionTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portal: FakeSocrataPortal!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        portal = try FakeSocrataPortal(datasetID: "bags-0001", columns: [.init("name", "text"), .init("amount", "number")],
                                       rows: (1...4).map(ProjectRefreshTests.row), rowsUpdatedAt: 1_430_000_000)
    }

    override func tearDown() { portal.stop() }

    func run(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments, environment: ["SOCLOAD_RETRY_DELAY": "0"], directory: URL(fileURLWithPath: directory.path("")))
    }

    private func project(api: String, keep: Int = 2) throws {
        let text = #"{"database": "v.sqlite", "cache": "cache", "keep-versions": "# + String(keep)
            + #", "defaults": {"retries": 0, "api": ""# + api + #""}, "datasets": [{"id": "bags-0001", "domain": ""# + portal.baseURL + #""}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
    }

    func bags() throws -> [String] {
        let folder = directory.path("cache/bags-0001")
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".bag") }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
    }

    /// The bagit validator's verdict on `bag`: "valid", or its error.
    func validated(_ bag: String) throws -> String {
        let python = try PythonEnvironment.python(named: "bagit-venv", installing: ["bagit"])
        let check = try ChildProcess.run(python, ["-c", """
            import bagit, sys
            try:
                bagit.Bag(sys.argv[1]).validate()
                print("valid")
            except bagit.BagError as error:
                print("invalid:", error)
            """, bag])
        XCTAssertEqual(check.status, 0, check.stderr)
        return check.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAnExportIsABagPrunedPastKeepVersionsAndRefusedOnceEdited() throws {
        try project(api: "rows")
        for step in 0..<3 {
            if step > 0 { portal.update({ rows, _ in rows.append(ProjectRefreshTests.row(10 + step)) }, rowsUpdatedAt: 1_430_000_000 + step * 3_600) }
            let refresh = try run(["refresh", "--quiet"])
            XCTAssertEqual(refresh.status, 0, refresh.stderr)
            if step == 0 {
                // The first version, locked.
                XCTAssertEqual(try bags().count, 1)
            }
        }
        let kept = try bags()
        XCTAssertEqual(kept.map { ($0 as NSString).lastPathComponent }, ["20150425T231320Z.bag", "20150426T001320Z.bag"],
                       "the last two versions (of 22:13:20, 23:13:20 and 00:13:20)")
        let newest = try XCTUnwrap(kept.last)
        for file in ["bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt", "data/rows.json.gz",
                     "data/description.json", "data/headers.txt"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: (newest as NSString).appendingPathComponent(file)), file)
        }
        let headers = try String(contentsOfFile: (newest as NSString).appendingPathComponent("data/headers.txt"), encoding: .utf8)
        XCTAssertTrue(headers.hasPrefix("HTTP 200\n"), headers)
        XCTAssertTrue(headers.lowercased().contains("etag: \"v3\""), headers)
        let info = try String(contentsOfFile: (newest as NSString).appendingPathComponent("bag-info.txt"), encoding: .utf8)
        XCTAssertTrue(info.contains("External-Identifier: bags-0001\n"), info)
        XCTAssertTrue(info.contains("Socrata-Rows-Updated-At: 2015-04-26T00:13:20Z\n"), info)
        XCTAssertEqual(try validated(newest), "valid")

        // socload archive copies every kept bag; each validates where it lands.
        let archived = try run(["archive", "--to", "evidence"])
        XCTAssertEqual(archived.status, 0, archived.stderr)
        XCTAssertTrue(archived.stderr.contains("Copied 2 bags to evidence"), archived.stderr)
        XCTAssertTrue(try run(["archive", "--to", "evidence"]).stderr.contains("Copied 0 bags to evidence (2 already there, whole)"))
        for bag in kept {
            XCTAssertEqual(try validated(directory.path("evidence/bags-0001/" + (bag as NSString).lastPathComponent)), "valid")
        }

        // The lock holds the newest version; the portal moves on; a new database (a CI build) is
        // made from the lock; one byte of the kept copy changed: refresh --locked refuses it,
        // naming the file, and makes nothing.
        portal.update({ rows, _ in rows.append(ProjectRefreshTests.row(40)) }, rowsUpdatedAt: 1_440_000_000)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory.path("v.sqlite" + suffix)) }
        let payload = (newest as NSString).appendingPathComponent("data/rows.json.gz")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: payload)))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: payload))
        let refused = try run(["refresh", "--locked"])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("is not as it was kept: data/rows.json.gz does not match its checksum"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("v.sqlite")), "nothing made")
        XCTAssertTrue(try validated(newest).hasPrefix("invalid"), "the validator agrees")
        let damaged = try run(["archive", "--to", "evidence2"])
        XCTAssertEqual(damaged.status, 65, damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains("Copied 1 bag to evidence2"), damaged.stderr)
    }

    func testPagesAreABagAndAnUnchangedPayloadIsLinkedNotStoredTwice() throws {
        try project(api: "soda2", keep: 3)
        XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0)
        // Re-published with the same rows: the pages are the same bytes.
        portal.update({ _, _ in }, rowsUpdatedAt: 1_430_003_600)
        XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0)
        let kept = try bags()
        XCTAssertEqual(kept.count, 2)
        func inode(_ bag: String) throws -> UInt64 {
            let attributes = try FileManager.default.attributesOfItem(atPath: (bag as NSString).appendingPathComponent("data/pages/000001.json.gz"))
            return try XCTUnwrap(attributes[.systemFileNumber] as? UInt64)
        }
        XCTAssertEqual(try inode(kept[0]), try inode(kept[1]), "one file, linked from both bags")
        let pageHeaders = try String(contentsOfFile: (kept[1] as NSString).appendingPathComponent("data/pages/000001.headers.txt"),
                                     encoding: .utf8)
        XCTAssertTrue(pageHeaders.hasPrefix("HTTP 200\n") && pageHeaders.lowercased().contains("x-soda2-fields: "), pageHeaders)
        for bag in kept { XCTAssertEqual(try validated(bag), "valid") }
        // --locked loads a kept pages version after the portal moved on, into a new database.
        portal.update({ rows, _ in rows.removeFirst() }, rowsUpdatedAt: 1_440_000_000)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory.path("v.sqlite" + suffix)) }
        let locked = try run(["refresh", "--locked"])
        XCTAssertEqual(locked.status, 0, locked.stderr)
        XCTAssertTrue(try run(["tables", "--db", "v.sqlite", "--format", "csv"]).stdout.contains("bags_0001,4,"))
        // The portal takes the dataset down: the cache's copy is what it was kept for.
        portal.inject { _ in .init(status: 404, body: Array(#"{"message": "No such dataset"}"#.utf8)) }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory.path("v.sqlite" + suffix)) }
        let fromBag = try run(["refresh", "--locked"])
        XCTAssertEqual(fromBag.status, 0, fromBag.stderr)
        XCTAssertTrue(try run(["tables", "--db", "v.sqlite", "--format", "csv"]).stdout.contains("bags_0001,4,"))
        // archive without a project file: the cache named, every dataset in it.
        try FileManager.default.removeItem(atPath: directory.path("socload.json"))
        let archived = try run(["archive", "--cache", "cache", "--to", "out"])
        XCTAssertEqual(archived.status, 0, archived.stderr)
        XCTAssertTrue(archived.stderr.contains("Copied 2 bags to out"), archived.stderr)
    }

    func testACacheThatCannotBeAFolderIsSaidSo() throws {
        try project(api: "rows")
        try Data("a file".utf8).write(to: URL(fileURLWithPath: directory.path("cache")))
        let refused = try run(["refresh"])
        XCTAssertEqual(refused.status, 74, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("cache: a file, not a folder for the cache"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("NSCocoaErrorDomain"), refused.stderr)
    }

    func testKeepVersionsNeedsACache() throws {
        try Data(#"{"database": "v.sqlite", "keep-versions": 2, "datasets": [{"id": "bags-0001"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.path("socload.json")))
        let refused = try run(["refresh"])
        XCTAssertEqual(refused.status, 78, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\"keep-versions\" says how many versions the cache keeps"), refused.stderr)
        XCTAssertEqual(try run(["fetch", "bags-0001", "--keep-versions", "2"]).status, 64)
    }
}
