import Foundation
import SocloadDatabase
import SocloadTestSupport
import XCTest

/// `refresh --locked` and `verify --locked`: the versions `socload.lock` records loaded again,
/// from the portal while it serves them, else from the download cache (`"cache": DIR`), or a
/// failure naming each difference with nothing changed; and the database checked against the
/// lock without the network.
final class ProjectLockedTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private var folder: URL { URL(fileURLWithPath: directory.path("")) }

    private func socload(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments, environment: ["SOCLOAD_RETRY_DELAY": "0"], directory: folder)
    }

    private func writeProject(_ entries: [String], cache: Bool = true) throws {
        let project = #"{"database": "locked.sqlite", "# + (cache ? #""cache": "versions", "# : "")
            + #""defaults": {"retries": 0}, "datasets": [\#(entries.joined(separator: ", "))]}"#
        try Data(project.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
    }

    private func removeDatabase() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory.path("locked.sqlite" + suffix)) }
    }

    func testTheLockedVersionComesFromThePortalElseTheCacheElseNothingChanges() throws {
        let portal = try ProjectRefreshTests.portal("lock-0001", rows: 30)
        let steady = try ProjectRefreshTests.portal("lock-0002", rows: 10)
        defer { portal.stop(); steady.stop() }
        try writeProject([#"{"id": "lock-0001", "domain": "\#(portal.baseURL)", "name": "moving"}"#,
                          #"{"id": "lock-0002", "domain": "\#(steady.baseURL)", "name": "steady"}"#])
        XCTAssertEqual(try socload(["refresh", "--quiet"]).status, 0)
        let copies = try FileManager.default.subpathsOfDirectory(atPath: directory.path("versions")).filter { $0.hasSuffix(".gz") }
        // Read through SODA 2.1 (no app token), the versions are kept as their pages, each in a bag.
        XCTAssertEqual(copies.sorted(), ["lock-0001/20150425T221320Z.bag/data/pages/000001.json.gz",
                                         "lock-0002/20150425T221320Z.bag/data/pages/000001.json.gz"])
        let verified = try socload(["verify", "--locked", "--format", "csv"])
        XCTAssertEqual(verified.status, 0, verified.stderr)
        XCTAssertEqual(verified.stdout.components(separatedBy: "\r\n").filter { $0.hasSuffix(",yes") }.count, 8, verified.stdout)

        // The portal moves on: the database still holds the locked version, so nothing is asked.
        portal.update({ rows, _ in rows.removeFirst(5) }, rowsUpdatedAt: 1_430_009_000)
        let requestsBefore = portal.server.requests.count
        let held = try socload(["refresh", "--locked", "--verbose"])
        XCTAssertEqual(held.status, 0, held.stderr)
        XCTAssertTrue(held.stderr.contains("moving  lock_0001: at the locked version, 30 rows"), held.stderr)
        XCTAssertEqual(portal.server.requests.count, requestsBefore)

        // A new database (a CI build): the moved dataset from the cache, the other from its portal.
        removeDatabase()
        let rebuilt = try socload(["refresh", "--locked"])
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertFalse(portal.server.requests.dropFirst(requestsBefore).contains {
            $0.route.hasSuffix("/rows.json") || $0.route.hasPrefix("/resource/") || $0.route.hasPrefix("/api/v3/")
        }, "the locked version came from the cache's pages")
        XCTAssertEqual(try socload(["verify", "--locked"]).status, 0, "the same rows as locked")
        let lockBefore = try String(contentsOfFile: directory.path("socload.lock"), encoding: .utf8)
        // The summary says the rows came from the cache.
        XCTAssertTrue(rebuilt.stderr.contains("through the download cache's pages"), rebuilt.stderr)

        // A kept copy that lost rows since is refused by its bag's checksums, not loaded short:
        // exit 65, nothing made.
        removeDatabase()
        let page = directory.path("versions/lock-0001/20150425T221320Z.bag/data/pages/000001.json.gz")
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "printf '[]' | gzip > '\(page)'"]
        try gzip.run()
        gzip.waitUntilExit()
        let short = try socload(["refresh", "--locked"])
        XCTAssertEqual(short.status, 65, short.stderr)
        XCTAssertTrue(short.stderr.contains("20150425T221320Z.bag is not as it was kept: data/pages/000001.json.gz does not match "
                                            + "its checksum"), short.stderr)
        XCTAssertEqual(try socload(["verify", "--locked"]).status == 0, false)

        // No copy kept and the portal moved on: exit 65 naming it, and nothing is made.
        removeDatabase()
        try FileManager.default.removeItem(atPath: directory.path("versions"))
        let refused = try socload(["refresh", "--locked"])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("1 of 2 datasets cannot be loaded at their locked version, so nothing was changed: "
                                              + "moving: the source serves rowsUpdatedAt 2015-04-26T00:43:20Z, the lock "
                                              + "2015-04-25T22:13:20Z, and "), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("keeps no copy of it"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("locked.sqlite")))
        XCTAssertEqual(try String(contentsOfFile: directory.path("socload.lock"), encoding: .utf8), lockBefore)

        // The schema a load would make now is not the locked one (the project asks for another key).
        try writeProject([#"{"id": "lock-0002", "domain": "\#(steady.baseURL)", "name": "steady", "pk": "name"}"#])
        let schema = try socload(["refresh", "--locked"])
        XCTAssertEqual(schema.status, 65, schema.stderr)
        XCTAssertTrue(schema.stderr.contains("steady: the schema changed: a load now makes columns or a key of schema hash "), schema.stderr)
    }

    /// A dataset whose source states no rowsUpdatedAt is held by its rows' content hash: the
    /// database's copy with the locked hash is at the locked version; one without it fails alone,
    /// naming the hash, and the other datasets still come to theirs.
    func testADatasetWithoutAVersionStampIsLockedByItsContent() throws {
        let steady = try ProjectRefreshTests.portal("lock-0003", rows: 10)
        defer { steady.stop() }
        let stampless = """
            {"meta":{"view":{"id":"nost-0001","name":"No stamp","columns":[
              {"id":1,"fieldName":"name","dataTypeName":"text"},{"id":2,"fieldName":"n","dataTypeName":"number"}]}},
             "data":[["a","1"],["b","2"],["c","3"]]}
            """
        try Data(stampless.utf8).write(to: URL(fileURLWithPath: directory.path("nost-0001.rows.json")))
        try writeProject([#"{"file": "nost-0001.rows.json", "name": "stampless"}"#,
                          #"{"id": "lock-0003", "domain": "\#(steady.baseURL)", "name": "steady"}"#], cache: false)
        XCTAssertEqual(try socload(["refresh", "--quiet"]).status, 0)
        let held = try socload(["refresh", "--locked", "--verbose"])
        XCTAssertEqual(held.status, 0, held.stderr)
        XCTAssertTrue(held.stderr.contains("stampless  nost_0001: at the locked version, 3 rows"), held.stderr)

        // The database's copy no longer has the locked rows: that dataset fails alone.
        XCTAssertEqual(try socload(["query", "update nost_0001 set n = 9 where name = 'a'", "--write"]).status, 0)
        removeDatabaseOf("lock_0003")
        let refused = try socload(["refresh", "--locked"])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("stampless  failed (exit 65): its source states no rowsUpdatedAt, so the lock holds it "
                                              + "by its content hash "), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("steady     lock_0003: loaded 10 rows"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Error: 1 of 2 datasets failed: stampless"), refused.stderr)
    }

    /// Drops one table, so that a locked refresh must load it again.
    private func removeDatabaseOf(_ table: String) {
        _ = try? socload(["drop", table])
    }

    func testVerifyLockedNamesWhatDiffers() throws {
        let portal = try ProjectRefreshTests.portal("lock-0003", rows: 12)
        defer { portal.stop() }
        try writeProject([#"{"id": "lock-0003", "domain": "\#(portal.baseURL)", "name": "edited"}"#], cache: false)
        XCTAssertEqual(try socload(["refresh", "--quiet"]).status, 0)
        let queue = try DatabaseQueue(path: directory.path("locked.sqlite"))
        try queue.inDatabase { db in try db.execute(sql: "UPDATE lock_0003 SET name = 'edited by hand' WHERE _id = 'row-3'") }
        let changed = try socload(["verify", "--locked"])
        XCTAssertEqual(changed.status, 65)
        XCTAssertTrue(changed.stderr.contains("the database differs from "), changed.stderr)
        XCTAssertTrue(changed.stderr.contains("edited: content_hash is "), changed.stderr)
        XCTAssertFalse(changed.stderr.contains("row_count"), changed.stderr)
        let usage = try socload(["verify"])
        XCTAssertEqual(usage.status, 64)
        XCTAssertTrue(usage.stderr.contains("verify needs a table or dataset id (or --locked)"), usage.stderr)
    }

    /// The real exports through the cache: kept compressed at their stated version, loaded from
    /// it after the portal moved on, the same rows as locked.
    func testRealExportsComeBackFromTheCache() throws {
        let exports = RowChangeCommandTests.exports.filter { $0.lastPathComponent.hasSuffix(".rows.json") }
        guard !exports.isEmpty else { throw XCTSkip("../shared/datasets is not beside the project") }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var entries: [String] = []
        var bodies: [String: [UInt8]] = [:]
        for export in exports {
            let id = String(export.lastPathComponent.dropLast(".rows.json".count))
            bodies[id] = Array(try Data(contentsOf: export))
            server.route("/api/views/\(id)/rows.json", .init(body: bodies[id]!))
            entries.append(#"{"id": "\#(id)", "domain": "\#(server.baseURL)"}"#)
        }
        try writeProject(entries)
        let first = try socload(["refresh", "--quiet"])
        XCTAssertEqual(first.status, 0, first.stderr)
        // Every export moves on (its rowsUpdatedAt one later); the one that states none is held by
        // its content hash, which a new database does not have: it alone fails, the others load.
        for (id, body) in bodies {
            let text = String(decoding: body, as: UTF8.self)
            guard let range = text.range(of: #""rowsUpdatedAt" : \d+"#, options: .regularExpression),
                  let number = Int(text[range].split(separator: " ").last ?? "") else { continue }
            server.route("/api/views/\(id)/rows.json", .init(body: Array(text.replacingCharacters(in: range, with: "\"rowsUpdatedAt\" : \(number + 1)").utf8)))
        }
        removeDatabase()
        let stamped = bodies.keys.filter { String(decoding: bodies[$0]!, as: UTF8.self).contains("\"rowsUpdatedAt\"") }.sorted()
        let unstamped = bodies.keys.filter { !stamped.contains($0) }.sorted()
        if let none = unstamped.first {
            let partial = try socload(["refresh", "--locked"])
            XCTAssertEqual(partial.status, 65, partial.stderr)
            XCTAssertTrue(partial.stderr.contains("Error: \(none): its source states no rowsUpdatedAt, so the lock holds it by its "
                                                  + "content hash"), partial.stderr)
            XCTAssertTrue(partial.stderr.contains("Error: \(unstamped.count) of \(bodies.count) datasets failed: "), partial.stderr)
            XCTAssertEqual(try socload(["verify", "--locked"] + stamped).status, 0, "the others came to their locked versions")
        }
        let rebuilt = try socload(["refresh", "--locked", "--quiet"] + stamped)
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        let verified = try socload(["verify", "--locked"] + stamped)
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
    }
}
