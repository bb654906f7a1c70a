import Foundation
import Glibc
import SocloadTestSupport
import XCTest

/// socload on a real Citus cluster: a coordinator and two workers on loopback ports, started by
/// `scripts/citus-cluster.sh` when the citus extension is installed into PostgreSQL 15, skipped
/// (saying why) when it is not — CI has no Citus; the README says how to build it beside the
/// project. Each test works in a schema of its own on the one cluster.
final class CitusClusterTests: XCTestCase {
    nonisolated(unsafe) private static var coordinator: String?
    nonisolated(unsafe) private static var skipReason: String?
    private static let clusterDirectory = NSTemporaryDirectory() + "socload-citus-\(getpid())"
    private static var script: String { Fixtures.packageRoot.appendingPathComponent("scripts/citus-cluster.sh").path }

    override class func setUp() {
        super.setUp()
        guard FileManager.default.fileExists(atPath: "/usr/share/postgresql/15/extension/citus.control") else {
            skipReason = "the citus extension is not installed into PostgreSQL 15 (Citus is not in Debian's packages; "
                + "the README's Citus section says how to build it beside the project)"
            print("CitusClusterTests skipped: " + (skipReason ?? ""))
            return
        }
        let status = runScript(["start", clusterDirectory])
        let url = ((try? String(contentsOfFile: clusterDirectory + "/url", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if status == 0, url.hasPrefix("postgresql://") { coordinator = url } else {
            skipReason = "the cluster did not start (scripts/citus-cluster.sh exited \(status))"
        }
    }

    /// Runs the cluster script, its output to /dev/null, and waits for it. (Not `Process`: the
    /// servers it starts outlive it, and Foundation's wait for the script then never returns.)
    private static func runScript(_ arguments: [String]) -> Int32 {
        let argv = ["/bin/bash", script] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        guard posix_spawn(&pid, "/bin/bash", &actions, nil, &cArguments, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status >> 8) & 0xff
    }

    override class func tearDown() {
        if coordinator != nil { _ = runScript(["stop", clusterDirectory]) }
        super.tearDown()
    }

    var directory: TemporaryDirectory!
    var schema = ""

    override func setUpWithError() throws {
        guard Self.coordinator != nil else { throw XCTSkip(Self.skipReason ?? "no Citus cluster") }
        directory = try TemporaryDirectory()
        schema = "t_" + String(name.filter { $0.isLetter }.suffix(20)).lowercased()
    }

    private func socload(_ arguments: [String], environment: [String: String] = [:]) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", Self.coordinator!, "--schema", schema],
                               environment: ["SOCLOAD_DATASETS": Fixtures.datasetsDirectory.path].merging(environment) { $1 })
    }

    private func query(_ sql: String) throws -> String {
        let run = try socload(["query", sql, "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    /// `table: partmethod colocationid` for the schema's tables Citus knows.
    private func distribution() throws -> [String: (method: String, group: String)] {
        let csv = try query("select c.relname, p.partmethod::text, p.colocationid from pg_dist_partition p join pg_class c "
                            + "on c.oid = p.logicalrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = '\(schema)'")
        var found: [String: (String, String)] = [:]
        for line in csv.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = CSVLine.fields(String(line))
            found[fields[0]] = (fields[1], fields[2])
        }
        return found
    }

    func testLookupsAreReferenceTablesAndExtractWorksOnADistributedTable() throws {
        let fetched = try socload(["fetch", "n5m4-mism", "--distribute-by", "_id", "--extract", "agency+count", "--quiet"])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        var tables = try distribution()
        XCTAssertEqual(tables["n5m4_mism"]?.method, "h")
        XCTAssertEqual(tables["agency"]?.method, "n", "the lookup is a reference table")
        XCTAssertEqual(try query("select sum(n5m4_mism_count)::int as n from agency"), "n\r\n300\r\n")
        XCTAssertEqual(try query("select count(*)::int as n from n5m4_mism t join agency a on a.id = t.agency_id "
                                 + "where a.agency = 'State'"), "n\r\n62\r\n")

        // extract on the distributed table: the new lookup is a reference table too.
        let extracted = try socload(["extract", "n5m4_mism", "status", "--count"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        tables = try distribution()
        XCTAssertEqual(tables["status"]?.method, "n")
        XCTAssertEqual(try query("select sum(n5m4_mism_count)::int as n from status"), "n\r\n300\r\n")

        // The user's writes do not move the counts; verify says so and recount repairs.
        _ = try socload(["query", "delete from n5m4_mism where agency_id = (select id from agency where agency = 'State')", "--write"])
        XCTAssertEqual(try socload(["verify", "n5m4_mism"]).status, 65)
        XCTAssertEqual(try socload(["recount", "n5m4_mism"]).status, 0)
        XCTAssertEqual(try socload(["verify", "n5m4_mism", "--format", "csv"]).status, 0)

        // A refresh keeps the distribution, the colocation group and the lookups.
        let group = try distribution()["n5m4_mism"]?.group
        let refreshed = try socload(["fetch", "n5m4-mism", "--force"])
        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        // The rows compare with what socload loaded last (its fingerprints), not with the user's deletions.
        XCTAssertTrue(refreshed.stderr.contains("0 added, 0 changed, 0 removed, 300 unchanged"), refreshed.stderr)
        XCTAssertEqual(try query("select count(*)::int as n from n5m4_mism"), "n\r\n300\r\n")
        tables = try distribution()
        XCTAssertEqual(tables["n5m4_mism"]?.method, "h")
        XCTAssertEqual(tables["n5m4_mism"]?.group, group, "the new copy goes with the one it replaced")
        XCTAssertEqual(try query("select sum(n5m4_mism_count)::int as n from agency"), "n\r\n300\r\n")
    }

    func testChildAndGlueTablesGoWithTheirParent() throws {
        let document = directory.path("orders.ndjson")
        func write(_ lines: [String]) throws {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: document))
        }
        try write([#"{"id": "o1", "agency": "Parks — é", "items": [{"sku": "a", "n": 2}], "tags": [{"tag_id": 7, "w": 1}]}"#,
                   #"{"id": "o2", "agency": "Water", "items": [{"sku": "c", "n": 5}], "tags": [{"tag_id": 8, "w": 2}]}"#])
        let load = ["load", document, "--table", "orders", "--pk", "id", "--glue", "tags:tags.tag_id"]
        let first = try socload(load + ["--distribute-by", "id", "--extract", "agency+count", "--quiet"])
        XCTAssertEqual(first.status, 0, first.stderr)
        var tables = try distribution()
        XCTAssertEqual(Set(["orders", "orders_items", "orders_tags"].compactMap { tables[$0]?.group }).count, 1,
                       "one colocation group: \(tables)")
        XCTAssertEqual(tables["orders_items"]?.method, "h")
        XCTAssertEqual(tables["agency"]?.method, "n")
        XCTAssertEqual(try query("select count(*)::int as n from orders o join orders_items i on i.orders_id = o.id "
                                 + "join orders_tags g on g.orders_id = o.id join agency a on a.id = o.agency_id"), "n\r\n2\r\n")

        // A refresh with changes: the change log, the history, and still one group.
        try write([#"{"id": "o1", "agency": "Fire", "items": [], "tags": [{"tag_id": 7, "w": 3}]}"#,
                   #"{"id": "o3", "agency": "Water", "items": [{"sku": "d", "n": 1}], "tags": []}"#])
        let second = try socload(load + ["--history"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("1 added, 1 changed, 1 removed, 0 unchanged"), second.stderr)
        tables = try distribution()
        XCTAssertEqual(Set(["orders", "orders_items", "orders_tags"].compactMap { tables[$0]?.group }).count, 1, "\(tables)")
        XCTAssertEqual(try query("select count(*)::int as n from orders_history"), "n\r\n2\r\n")
        XCTAssertEqual(try query("select sum(orders_count)::int as n from agency"), "n\r\n2\r\n")
        XCTAssertEqual(try query("select count(*)::int as n from orders_tags"), "n\r\n1\r\n")
    }

    func testSyncOfADistributedTableKeepsItsLookupCounts() throws {
        let portal = try FakeSocrataPortal(
            datasetID: "citu-0001", columns: [.init("name", "text"), .init("kind", "text")],
            rows: (1...20).map { .init(id: "row-\($0)", createdAt: 1_420_070_400, updatedAt: 1_420_070_400 + $0,
                                       cells: ["name": .text("Nom \($0)"), "kind": .text($0 % 2 == 0 ? "even" : "odd")]) },
            rowsUpdatedAt: 1_430_000_000)
        defer { portal.stop() }
        let fetched = try socload(["fetch", "citu-0001", "--domain", portal.baseURL, "--api", "soda2", "--distribute-by", "_id",
                                   "--extract", "kind+count", "--quiet"])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        portal.update({ rows, _ in
            rows[0].cells["kind"] = .text("even")
            rows[0].updatedAt += 1000
            rows.append(.init(id: "row-21", createdAt: 1_430_000_000, updatedAt: 1_430_000_500, cells: ["name": .text("Nom 21"),
                                                                                                      "kind": .text("odd")]))
        }, rowsUpdatedAt: 1_430_000_900)
        let synced = try socload(["sync", "citu_0001"])
        XCTAssertEqual(synced.status, 0, synced.stderr)
        XCTAssertEqual(try query("select kind, citu_0001_count::int as n from kind order by kind"), "kind,n\r\neven,11\r\nodd,10\r\n")
        XCTAssertEqual(try distribution()["citu_0001"]?.method, "h")
        XCTAssertEqual(try socload(["verify", "citu_0001"]).status, 0)

        // Rows the portal no longer has go with --deletes, the change log saying so.
        portal.update({ rows, _ in rows.removeAll { $0.id == "row-2" || $0.id == "row-3" } }, rowsUpdatedAt: 1_430_001_000)
        let deleted = try socload(["sync", "citu_0001", "--deletes"])
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        XCTAssertTrue(deleted.stderr.contains("2 deleted"), deleted.stderr)
        XCTAssertEqual(try query("select count(*)::int as n from citu_0001"), "n\r\n19\r\n")
        XCTAssertEqual(try query("select kind, citu_0001_count::int as n from kind order by kind"), "kind,n\r\neven,10\r\nodd,9\r\n")
        let log = try socload(["changes", "citu_0001", "--format", "csv"])
        XCTAssertEqual(log.stdout.components(separatedBy: ",removed,").count, 3, log.stdout)
    }
}
