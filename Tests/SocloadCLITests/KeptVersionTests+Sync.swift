import Foundation
import SocloadTestSupport
import XCTest

/// A sync adds its pages to the version it brings up to date: the version it started from is
/// linked into the new bag (not stored again), the sync's pages (and, with `--deletes`, the keys
/// the portal listed) beside it, and `refresh --locked` restores the synced version from them.
extension KeptVersionTests {
    func testASyncKeepsItsPagesWithTheVersionItStartedFromAndLockedRestoresIt() throws {
        try Data((#"{"database": "v.sqlite", "cache": "cache", "keep-versions": 5, "defaults": {"retries": 0, "api": "rows"}, "#
                  + #""datasets": [{"id": "bags-0001", "incremental": true, "domain": ""# + portal.baseURL + #""}]}"#).utf8)
            .write(to: URL(fileURLWithPath: directory.path("socload.json")))
        XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0, "the first load, whole: a rows.json export")
        // Row 1 changed, row 10 added: the project's refresh syncs.
        portal.update({ rows, _ in
            rows[0].cells["name"] = .text("Changé")
            rows[0].updatedAt += 50_000
            var added = ProjectRefreshTests.row(10)
            added.updatedAt += 60_000
            rows.append(added)
            rows[3].updatedAt += 55_000 // sent again as it was
        }, rowsUpdatedAt: 1_430_003_600)
        let synced = try run(["refresh", "--json"])
        XCTAssertEqual(synced.status, 0, synced.stderr)
        XCTAssertTrue(synced.stderr.contains("synced (1 added, 1 changed, 0 removed, 1 unchanged)"), synced.stderr)
        XCTAssertTrue(synced.stdout.contains(#""added":1,"changed":1,"#) && synced.stdout.contains(#""unchanged":1"#),
                      "--json counts as the line does: \(synced.stdout)")
        let page = try run(["report", "--format", "json"]).stdout
        XCTAssertTrue(page.contains(portal.baseURL + "/d/bags-0001") && !page.contains("https://127.0.0.1"), "a sync keeps the page's scheme: \(page)")
        // Row 3 gone, row 2 changed: a sync with --deletes, which keeps the keys the portal listed too.
        portal.update({ rows, _ in
            rows.removeAll { $0.id == "row-3" }
            rows[1].cells["amount"] = .number("-0.5")
            rows[1].updatedAt += 70_000
        }, rowsUpdatedAt: 1_430_007_200)
        // In the project's folder, sync keeps versions in the project's cache.
        let deleting = try run(["sync", "bags_0001", "--deletes", "--page-size", "2"])
        XCTAssertEqual(deleting.status, 0, deleting.stderr)
        XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0, "nothing new: the lock takes the synced version")

        let kept = try bags()
        XCTAssertEqual(kept.map { ($0 as NSString).lastPathComponent },
                       ["20150425T221320Z.bag", "20150425T231320Z.bag", "20150426T001320Z.bag"])
        func path(_ bag: String, _ file: String) -> String { (bag as NSString).appendingPathComponent(file) }
        func inode(_ file: String) throws -> UInt64 {
            try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? UInt64)
        }
        XCTAssertEqual(try inode(path(kept[0], "data/rows.json.gz")), try inode(path(kept[2], "data/rows.json.gz")),
                       "the base linked, not stored again")
        XCTAssertEqual(try inode(path(kept[1], "data/syncs/1/000001.json.gz")), try inode(path(kept[2], "data/syncs/1/000001.json.gz")))
        for file in ["data/syncs/2/000001.json.gz", "data/syncs/2/pages.json", "data/syncs/2/view.json", "data/syncs/2/sync.json",
                     "data/syncs/2/keys/000001.json.gz", "data/syncs/2/keys/000002.json.gz", "data/description.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path(kept[2], file)), file)
        }
        let keyPages = try FileManager.default.contentsOfDirectory(atPath: path(kept[2], "data/syncs/2/keys")).filter { $0.hasSuffix(".json.gz") }
        XCTAssertEqual(keyPages.count, 3, "4 keys in pages of 2, and the empty page that ends them")
        let record = try String(contentsOfFile: path(kept[2], "data/syncs/2/sync.json"), encoding: .utf8)
        XCTAssertTrue(record.contains(#""from":"2015-04-25T23:13:20Z""#) && record.contains(#""rowsUpdatedAt":"2015-04-26T00:13:20Z""#),
                      record)
        let info = try String(contentsOfFile: path(kept[2], "bag-info.txt"), encoding: .utf8)
        XCTAssertTrue(info.contains("Socrata-Synced-From: 2015-04-25T22:13:20Z\n"), info)
        XCTAssertTrue(info.contains("those at 2015-04-25T22:13:20Z, then the 2 syncs"), "the payload's own version: the first sync's base")
        for bag in kept { XCTAssertEqual(try validated(bag), "valid", bag) }

        // The portal moves on; a new database is made from the lock: the synced version, as it was.
        let table = ["query", "select * from bags_0001 order by _id", "--db", "v.sqlite", "--format", "csv"]
        let before = try run(table).stdout
        // While the portal still serves the version, --locked downloads it again: the bag kept
        // with the syncs' pages stays as it was.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory.path("v.sqlite" + suffix)) }
        XCTAssertEqual(try run(["refresh", "--locked", "--quiet"]).status, 0)
        XCTAssertEqual(try run(table).stdout, before)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path(kept[2], "data/syncs/2/sync.json")))
        XCTAssertTrue(before.contains("Changé") && before.contains("-0.5") && before.contains("row-10") && !before.contains("row-3,"), before)
        portal.update({ rows, _ in rows.removeAll() }, rowsUpdatedAt: 1_440_000_000)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory.path("v.sqlite" + suffix)) }
        let restored = try run(["refresh", "--locked"])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try run(table).stdout, before)
        XCTAssertTrue(try run(["tables", "--db", "v.sqlite", "--format", "csv"]).stdout.contains("bags_0001,4,"))
        // A cache that keeps no copy of the version the sync starts from: the sync is done, and says so.
        let unkept = try run(["sync", "bags_0001", "--cache", "other-cache", "--db", "v.sqlite"])
        XCTAssertEqual(unkept.status, 0, unkept.stderr)
        XCTAssertTrue(unkept.stderr.contains("Warning: the download cache keeps no copy of bags-0001 at rowsUpdatedAt 2015-04-26T00:13:20Z, "
                                             + "the version this sync started from, so the version it brought the table to "
                                             + "(2015-08-19T16:00:00Z) is not kept"), unkept.stderr)

        // A sync's page edited since: refused by the checksums, nothing made.
        try Data("[]".utf8).write(to: URL(fileURLWithPath: path(kept[2], "data/syncs/2/view.json")))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory.path("v.sqlite" + suffix)) }
        let refused = try run(["refresh", "--locked"])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("data/syncs/2/view.json does not match its checksum"), refused.stderr)
    }
}
