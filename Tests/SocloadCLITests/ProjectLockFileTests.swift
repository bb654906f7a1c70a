import Foundation
import SocloadTestSupport
import XCTest

/// `socload.lock`: what each dataset of a refresh loaded, with a hash of its rows that does not
/// depend on their order, kept for a dataset that failed and dropped for one that left the project.
final class ProjectLockFileTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private struct Lock: Decodable {
        struct Entry: Decodable {
            let table: String
            let source_url: String
            let rows_updated_at: String?
            let schema_hash: String
            let row_count: Int
            let content_hash: String
        }
        let version: Int
        let datasets: [String: Entry]
    }

    private func lock(in folder: String) throws -> Lock {
        try JSONDecoder().decode(Lock.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/socload.lock")))
    }

    private func project(_ folder: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/socload.json"))
    }

    private func document(_ rows: [String], in folder: String) throws {
        let text = HostileInputTests.document(columns: [("name", "text"), ("amount", "number")], rows: rows)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/rows.json"))
    }

    func testTheContentHashIsTheRowsWhateverTheirOrder() throws {
        let rows = (1...50).map { #"["Nom \#($0) — é","\#($0).5"]"# }
        var hashes: [String] = []
        for (index, order) in [rows, rows.reversed(), rows.shuffled()].enumerated() {
            let folder = directory.path("p\(index)")
            try project(folder, #"{"database": "db.sqlite", "datasets": [{"file": "rows.json", "name": "things", "table": "t"}]}"#)
            try document(order, in: folder)
            let run = try SocloadProcess.run(["refresh", "--quiet", "--project", folder + "/socload.json"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let entry = try XCTUnwrap(try lock(in: folder).datasets["things"])
            XCTAssertEqual(entry.table, "t")
            XCTAssertEqual(entry.row_count, 50)
            XCTAssertEqual(entry.content_hash.count, 32)
            XCTAssertEqual(entry.schema_hash.count, 16)
            hashes.append(entry.content_hash)
        }
        XCTAssertEqual(Set(hashes).count, 1, "the same rows in another order hash the same: \(hashes)")

        // One cell changed: another hash; the schema hash stays.
        let folder = directory.path("p0")
        let before = try XCTUnwrap(try lock(in: folder).datasets["things"])
        try document(rows.map { $0.replacingOccurrences(of: "Nom 7 ", with: "Nom 7bis ") }, in: folder)
        XCTAssertEqual(try SocloadProcess.run(["refresh", "--quiet", "--force", "--project", folder + "/socload.json"]).status, 0)
        let after = try XCTUnwrap(try lock(in: folder).datasets["things"])
        XCTAssertNotEqual(after.content_hash, before.content_hash)
        XCTAssertEqual(after.schema_hash, before.schema_hash)
    }

    func testAFailedDatasetKeepsItsEntryAndARemovedOneGoes() throws {
        let portal = try ProjectRefreshTests.portal("lokf-0001", rows: 3)
        defer { portal.stop() }
        let folder = directory.path("proj")
        try project(folder, """
            {"database": "db.sqlite", "datasets": [{"id": "lokf-0001", "domain": "\(portal.baseURL)", "app-token": "t0ken"},
                                                   {"file": "rows.json", "name": "local"}]}
            """)
        try document([#"["a","1"]"#], in: folder)
        XCTAssertEqual(try SocloadProcess.run(["refresh", "--quiet", "--project", folder + "/socload.json"]).status, 0)
        let first = try lock(in: folder)
        XCTAssertEqual(first.version, 1)
        XCTAssertEqual(Set(first.datasets.keys), ["lokf-0001", "local"])
        let remote = try XCTUnwrap(first.datasets["lokf-0001"])
        XCTAssertTrue(remote.source_url.hasPrefix(portal.baseURL), remote.source_url)
        XCTAssertFalse(try String(contentsOfFile: folder + "/socload.lock", encoding: .utf8).contains("t0ken"))
        XCTAssertEqual(remote.rows_updated_at, "2015-04-25T22:13:20Z")

        // The local file breaks: its entry stays as it was; the portal's dataset moves on.
        try Data("not json".utf8).write(to: URL(fileURLWithPath: folder + "/rows.json"))
        portal.update({ rows, _ in rows.append(ProjectRefreshTests.row(4)) }, rowsUpdatedAt: 1_430_000_900)
        let second = try SocloadProcess.run(["refresh", "--quiet", "--project", folder + "/socload.json"])
        XCTAssertEqual(second.status, 65, second.stderr)
        let after = try lock(in: folder)
        XCTAssertEqual(after.datasets["local"]?.content_hash, first.datasets["local"]?.content_hash)
        XCTAssertEqual(after.datasets["lokf-0001"]?.row_count, 4)
        XCTAssertNotEqual(after.datasets["lokf-0001"]?.content_hash, remote.content_hash)

        // The entry leaves the project: its record goes at the next refresh.
        try project(folder, #"{"database": "db.sqlite", "datasets": [{"id": "lokf-0001", "domain": ""# + portal.baseURL + #""}]}"#)
        XCTAssertEqual(try SocloadProcess.run(["refresh", "--quiet", "--project", folder + "/socload.json"]).status, 0)
        XCTAssertEqual(Set(try lock(in: folder).datasets.keys), ["lokf-0001"])
    }

    /// Every real export beside the project (and the bundled one) in one project: the refresh
    /// loads them all, and a refresh into a new database records the same lock, fetch times aside.
    func testTheRealExportsLockTheSameTwice() throws {
        let folder = directory.path("real")
        let entries = RowChangeCommandTests.exports.map { #"{"file": ""# + $0.path + #"", "name": ""# + $0.lastPathComponent + #""}"# }
        try project(folder, #"{"database": "real.sqlite", "datasets": ["# + entries.joined(separator: ", ") + "]}")
        var locks: [String] = []
        for _ in 0..<2 {
            try? FileManager.default.removeItem(atPath: folder + "/real.sqlite")
            let run = try SocloadProcess.run(["refresh", "--quiet", "--project", folder + "/socload.json"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let text = try String(contentsOfFile: folder + "/socload.lock", encoding: .utf8)
            locks.append(text.split(separator: "\n").filter { !$0.contains("\"fetched_at\"") }.joined(separator: "\n"))
        }
        XCTAssertEqual(try lock(in: folder).datasets.count, RowChangeCommandTests.exports.count)
        XCTAssertEqual(locks[0], locks[1])
    }

    /// Two projects in one folder keep two locks, each named after its project file.
    func testTheLockIsNamedAfterTheProjectFile() throws {
        let folder = directory.path("two")
        try project(folder, #"{"database": "a.sqlite", "datasets": [{"file": "rows.json"}]}"#)
        try document([#"["a","1"]"#], in: folder)
        try Data(#"{"database": "b.sqlite", "datasets": [{"file": "rows.json"}]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/city.json"))
        XCTAssertEqual(try SocloadProcess.run(["refresh", "-q", "--project", folder + "/socload.json"]).status, 0)
        XCTAssertEqual(try SocloadProcess.run(["refresh", "-q", "--project", folder + "/city.json"]).status, 0)
        for name in ["socload.lock", "city.lock", "a.sqlite", "b.sqlite"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/" + name), name)
        }
    }
}
