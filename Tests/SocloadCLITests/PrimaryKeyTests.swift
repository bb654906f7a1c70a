import Foundation
import SocloadTestSupport
import XCTest

/// `fetch --pk`: a table keyed by its own column or compound instead of `_id`, in SQLite and in
/// PostgreSQL alike: sync upserts by it, a refresh keeps it, duplicates and empty keys are refused
/// naming the key and the rows.
final class PrimaryKeyTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portal: FakeSocrataPortal!

    static let columns: [FakeSocrataPortal.Column] = [.init("region", "text"), .init("code", "text"), .init("amount", "number")]

    static func row(_ index: Int, region: String, code: String, amount: String, updated: Int = 0) -> FakeSocrataPortal.Row {
        .init(id: "row-\(String(format: "%04d", index))", createdAt: 1_420_070_400 + index, updatedAt: 1_420_070_400 + index + updated,
              cells: ["region": .text(region), "code": .text(code), "amount": .number(amount)])
    }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        // The same code in two regions: the key is the pair.
        let rows = (1...10).map { Self.row($0, region: $0 % 2 == 0 ? "North" : "South", code: "C\($0 / 2)", amount: "\($0).5") }
        portal = try FakeSocrataPortal(datasetID: "keys-0001", columns: Self.columns, rows: rows, rowsUpdatedAt: 1_430_000_000)
    }

    override func tearDown() {
        portal.stop()
    }

    private func socload(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db], environment: ["SOCLOAD_RETRY_DELAY": "0.01"])
    }

    /// The databases each test runs against: a SQLite file and a PostgreSQL database.
    private func databases() throws -> [(String, TestPostgreSQL.TestDatabase?)] {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        return [(directory.path("keys.sqlite"), nil), (postgreSQL.url, postgreSQL)]
    }

    func testACompoundKeyIsKeptOnRefreshAndSyncUpsertsByIt() throws {
        for (db, keep) in try databases() {
            _ = keep
            let fetch = try socload(["fetch", "keys-0001", "--domain", portal.baseURL, "--pk", "region,code", "--quiet"], db: db)
            XCTAssertEqual(fetch.status, 0, fetch.stderr)
            let schema = try socload(["schema", "keys_0001", "--format", "csv"], db: db)
            XCTAssertTrue(schema.stdout.contains("\r\nregion,"), schema.stdout)
            let keyPositions = schema.stdout.split(whereSeparator: \.isNewline).dropFirst().map { line -> String in
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                return "\(fields[0])=\(fields[3])"
            }
            XCTAssertEqual(keyPositions.filter { !$0.hasSuffix("=0") }, ["region=1", "code=2"], db)
            // A refresh without --pk keeps the key.
            XCTAssertEqual(try socload(["fetch", "keys-0001", "--domain", portal.baseURL, "--force", "--quiet"], db: db).status, 0)
            XCTAssertEqual(try socload(["info", "keys_0001", "--format", "csv"], db: db).stdout
                .split(whereSeparator: \.isNewline).first { $0.hasPrefix("key,") }, "key,\"region,code\"")

            portal.update({ rows, _ in
                rows[1].cells["amount"] = .number("99")     // North C1 changes
                rows[1].updatedAt += 10_000
                rows.append(Self.row(11, region: "North", code: "C1b", amount: "7", updated: 20_000))
            }, rowsUpdatedAt: 1_430_000_100)
            let sync = try socload(["sync", "keys_0001"], db: db)
            XCTAssertEqual(sync.status, 0, sync.stderr)
            XCTAssertTrue(sync.stderr.hasPrefix("Synced keys_0001: 2 rows received (1 new, 1 already there)"), sync.stderr)
            let amounts = try socload(["select", "keys_0001", "--eq", "code=C1", "--columns", "region,amount", "--order", "region",
                                       "--format", "csv"], db: db)
            XCTAssertEqual(amounts.stdout, "region,amount\r\nNorth,99\r\nSouth,3.5\r\n", db)
            portal.update({ rows, _ in rows.removeLast() }, rowsUpdatedAt: 1_430_000_000)
        }
    }

    func testDuplicateEmptyAndUnknownKeysAreRefusedNamingThem() throws {
        for (db, keep) in try databases() {
            _ = keep
            XCTAssertEqual(try socload(["fetch", "keys-0001", "--domain", portal.baseURL, "--quiet"], db: db).status, 0)
            let before = try socload(["query", "select * from keys_0001 order by _id", "--format", "csv"], db: db).stdout
            let duplicate = try socload(["fetch", "keys-0001", "--domain", portal.baseURL, "--pk", "code", "--force"], db: db)
            XCTAssertEqual(duplicate.status, 65, duplicate.stderr)
            XCTAssertTrue(duplicate.stderr.contains("Error: duplicate key code = \"C1\" in keys_0001: rows 2 and 3; keys_0001 was not changed"),
                          duplicate.stderr)
            let unknown = try socload(["fetch", "keys-0001", "--domain", portal.baseURL, "--pk", "region,nope"], db: db)
            XCTAssertEqual(unknown.status, 64, unknown.stderr)
            XCTAssertTrue(unknown.stderr.contains("--pk region,nope: keys_0001 has no column 'nope'"), unknown.stderr)
            portal.update({ rows, _ in rows[4].cells["region"] = nil }, rowsUpdatedAt: 1_430_000_200)
            let empty = try socload(["fetch", "keys-0001", "--domain", portal.baseURL, "--pk", "region,code", "--force"], db: db)
            XCTAssertEqual(empty.status, 65, empty.stderr)
            XCTAssertTrue(empty.stderr.contains("Error: row 5: the key region of keys_0001 is empty (NULL); keys_0001 was not changed"),
                          empty.stderr)
            XCTAssertEqual(try socload(["query", "select * from keys_0001 order by _id", "--format", "csv"], db: db).stdout, before)
            portal.update({ rows, _ in rows[4].cells["region"] = .text("South") }, rowsUpdatedAt: 1_430_000_000)
        }
    }
}
