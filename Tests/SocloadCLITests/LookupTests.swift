import Foundation
import SocloadTestSupport
import XCTest

/// Lookup tables (`fetch --extract`, `socload extract`, `select --in RELATION.COLUMN`) on the
/// bundled nominations export served by a fake portal, in SQLite and in PostgreSQL alike: counts
/// right after the load, a sync, and the user's own writes; ids stable across refreshes; filters
/// through a lookup equal to the join written by hand; hostile names quoted everywhere.
final class LookupTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portal: FakeSocrataPortal!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        portal = try Self.nominationsPortal()
    }

    override func tearDown() {
        portal.stop()
    }

    /// The bundled export of n5m4-mism (300 real-shaped nominations: agency, name, position...)
    /// served as dataset `nomi-0001`.
    static func nominationsPortal(datasetID: String = "nomi-0001") throws -> FakeSocrataPortal {
        let document = try JSONSerialization.jsonObject(with: Data(try Fixtures.bundled("n5m4-mism"))) as! [String: Any]
        let view = (document["meta"] as! [String: Any])["view"] as! [String: Any]
        let metadata = (view["columns"] as! [[String: Any]]).map { ($0["fieldName"] as! String, $0["dataTypeName"] as! String) }
        let userColumns = metadata.enumerated().filter { $0.element.1 != "meta_data" }
        let rows = (document["data"] as! [[Any]]).map { values -> FakeSocrataPortal.Row in
            var cells: [String: FakeSocrataPortal.Cell] = [:]
            for (index, (field, type)) in userColumns {
                let value = values[index]
                switch (type, value) {
                case (_, is NSNull): continue
                case ("url", let parts as [Any]): cells[field] = .url(parts[0] as? String ?? "", description: parts[1] as? String)
                case ("calendar_date", let text as String): cells[field] = .calendarDate(text)
                case ("number", let text as String): cells[field] = .number(text)
                case ("checkbox", let flag as Bool): cells[field] = .checkbox(flag)
                case (_, let text as String): cells[field] = .text(text)
                default: continue
                }
            }
            let seconds = values[3] as! Int
            return .init(id: "row-\(values[0])", createdAt: seconds, updatedAt: seconds, cells: cells)
        }
        return try FakeSocrataPortal(datasetID: datasetID, columns: userColumns.map { .init($0.element.0, $0.element.1) },
                                     rows: rows, rowsUpdatedAt: 1_430_000_000)
    }

    /// The portal as it was before a test changed its rows.
    func resetPortal() throws {
        portal.stop()
        portal = try Self.nominationsPortal()
    }

    func socload(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db], environment: ["SOCLOAD_RETRY_DELAY": "0.01"])
    }

    /// Runs a command that must succeed; its standard output.
    @discardableResult
    func succeed(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try socload(arguments, db: db)
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)", file: file, line: line)
        return run.stdout
    }

    func csv(_ sql: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try succeed(["query", sql, "--format", "csv"], db: db, file: file, line: line)
            .split(whereSeparator: \.isNewline).dropFirst().map(String.init)
    }

    /// The databases each test runs against: a SQLite file and a PostgreSQL database.
    func databases() throws -> [(String, TestPostgreSQL.TestDatabase?)] {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        return [(directory.path("lookups.sqlite"), nil), (postgreSQL.url, postgreSQL)]
    }

    /// Every lookup row's counts against the same counts made from the rows now.
    func assertCountsMatchTheRows(db: String, _ moment: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let wrong = try csv("""
            SELECT a.agency, a.nomi_0001_count, a.name_count,
                   (SELECT count(*) FROM nomi_0001 t WHERE t.agency_id = a.id),
                   (SELECT count(DISTINCT t.name) FROM nomi_0001 t WHERE t.agency_id = a.id)
            FROM agency a
            WHERE a.nomi_0001_count <> (SELECT count(*) FROM nomi_0001 t WHERE t.agency_id = a.id)
               OR a.name_count <> (SELECT count(DISTINCT t.name) FROM nomi_0001 t WHERE t.agency_id = a.id)
            """, db: db, file: file, line: line)
        XCTAssertEqual(wrong, [], "\(moment) in \(db)", file: file, line: line)
    }

    func testCountsAreRightAfterTheLoadASyncAndTheUsersOwnWrites() throws {
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--extract", "agency+count+distinct=name", "--quiet"], db: db)
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--table", "plain", "--quiet"], db: db)
            // Right after the load, against a GROUP BY over a plain copy of the same rows.
            let expected = try csv("SELECT agency, count(*), count(DISTINCT name) FROM plain GROUP BY agency ORDER BY agency", db: db)
            XCTAssertEqual(expected.count, 6, db)
            XCTAssertEqual(try csv("SELECT agency, nomi_0001_count, name_count FROM agency ORDER BY agency", db: db), expected, db)
            let columns = try csv("SELECT * FROM nomi_0001 LIMIT 0", db: db)
            XCTAssertEqual(columns, [])
            let header = try succeed(["query", "SELECT * FROM nomi_0001 LIMIT 1", "--format", "csv"], db: db)
                .split(whereSeparator: \.isNewline)[0]
            XCTAssertTrue(header.contains(",agency_id,") && !header.contains(",agency,"), String(header))

            // A sync: 3 updates (one moves a row to another agency, one changes a nominee's name,
            // one changes another column) and 2 inserts (one under a new agency).
            portal.update({ rows, _ in
                rows[0].cells["agency"] = .text("Defense"); rows[0].updatedAt = 1_430_000_010
                rows[1].cells["name"] = .text("Zoë Nouvelle"); rows[1].updatedAt = 1_430_000_011
                rows[2].cells["status"] = .text("Withdrawn"); rows[2].updatedAt = 1_430_000_012
                rows.append(.init(id: "row-901", createdAt: 1_430_000_000, updatedAt: 1_430_000_000,
                                  cells: ["name": .text("Ada Neue"), "agency": .text("Veterans Affairs")]))
                rows.append(.init(id: "row-902", createdAt: 1_430_000_001, updatedAt: 1_430_000_001,
                                  cells: ["name": .text("Ada Neue"), "agency": .text("State")]))
            }, rowsUpdatedAt: 1_430_000_100)
            let sync = try socload(["sync", "nomi_0001"], db: db)
            XCTAssertEqual(sync.status, 0, sync.stderr)
            XCTAssertTrue(sync.stderr.hasPrefix("Synced nomi_0001: 5 rows received (2 new, 3 already there)"), sync.stderr)
            try assertCountsMatchTheRows(db: db, "after the sync")
            XCTAssertEqual(try csv("SELECT nomi_0001_count, name_count FROM agency WHERE agency = 'Veterans Affairs'", db: db), ["1,1"])
            XCTAssertEqual(try csv("SELECT count(*) FROM nomi_0001 WHERE agency_id IS NULL", db: db), ["0"])

            // The user's own writes, kept counted by socload's triggers.
            try succeed(["query", "--write", "DELETE FROM nomi_0001 WHERE _id IN ('row-5', 'row-6', 'row-7')"], db: db)
            try assertCountsMatchTheRows(db: db, "after DELETE")
            try succeed(["query", "--write", "INSERT INTO nomi_0001 (_id, name, agency_id) "
                         + "SELECT 'mine-1', 'Ana Åström', id FROM agency WHERE agency = 'Commerce'"], db: db)
            try assertCountsMatchTheRows(db: db, "after INSERT")
            try succeed(["query", "--write", "UPDATE nomi_0001 SET agency_id = (SELECT id FROM agency WHERE agency = 'Justice') "
                         + "WHERE _id IN ('row-10', 'row-11', 'row-12', 'mine-1')"], db: db)
            try assertCountsMatchTheRows(db: db, "after an UPDATE that moves rows between agencies")
            try succeed(["query", "--write", "UPDATE nomi_0001 SET name = 'Same Person' WHERE _id IN ('row-20', 'row-21')"], db: db)
            try assertCountsMatchTheRows(db: db, "after an UPDATE of the counted column")
            try succeed(["query", "--write", "UPDATE nomi_0001 SET agency_id = NULL WHERE _id = 'row-30'"], db: db)
            try assertCountsMatchTheRows(db: db, "after an UPDATE to NULL")
            // Lookup rows without references stay (ids are stable) without +prune.
            try succeed(["query", "--write", "DELETE FROM nomi_0001 WHERE _id = 'row-901'"], db: db)
            XCTAssertEqual(try csv("SELECT nomi_0001_count, name_count FROM agency WHERE agency = 'Veterans Affairs'", db: db), ["0,0"])
            try resetPortal()
        }
    }

    func testPruneDeletesLookupRowsNothingReferences() throws {
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--quiet"], db: db)
            try succeed(["extract", "nomi_0001", "status", "--count", "--prune", "--quiet"], db: db)
            let pending = try csv("SELECT id FROM status WHERE status = 'Pending'", db: db)
            XCTAssertEqual(pending.count, 1, db)
            try succeed(["query", "--write", "DELETE FROM nomi_0001 WHERE status_id = \(pending[0])"], db: db)
            XCTAssertEqual(try csv("SELECT count(*) FROM status WHERE status = 'Pending'", db: db), ["0"], db)
            // Moving the last rows of a value away prunes it too.
            let withdrawn = try csv("SELECT id FROM status WHERE status = 'Withdrawn'", db: db)
            try succeed(["query", "--write", "UPDATE nomi_0001 SET status_id = NULL WHERE status_id = \(withdrawn[0])"], db: db)
            XCTAssertEqual(try csv("SELECT count(*) FROM status WHERE status = 'Withdrawn'", db: db), ["0"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM status s WHERE nomi_0001_count <> "
                                   + "(SELECT count(*) FROM nomi_0001 t WHERE t.status_id = s.id)", db: db), ["0"], db)
        }
    }

    func testARefreshKeepsTheIdsAndNeverBringsTheTextColumnBack() throws {
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--extract", "agency", "--quiet"], db: db)
            let before = try csv("SELECT id, agency FROM agency ORDER BY id", db: db)
            // A new value that sorts first, and a value no row has any more.
            portal.update({ rows, _ in
                rows[0].cells["agency"] = .text("Aardvark Office")
                rows.removeAll { $0.cells["agency"] == .text("Treasury") }
            }, rowsUpdatedAt: 1_430_000_200)
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--quiet"], db: db)
            let after = try csv("SELECT id, agency FROM agency ORDER BY id", db: db)
            XCTAssertEqual(Array(after.prefix(before.count)), before, "values that stayed keep their ids in \(db)")
            XCTAssertEqual(after.count, before.count + 1)
            XCTAssertTrue(after.last?.hasSuffix(",Aardvark Office") ?? false, "\(after)")
            let header = try succeed(["query", "SELECT * FROM nomi_0001 LIMIT 1", "--format", "csv"], db: db)
            XCTAssertFalse(header.split(whereSeparator: \.isNewline)[0].split(separator: ",").contains("agency"), header)
            // Every row points at the lookup row of its own value.
            let joined = try csv("SELECT count(*) FROM nomi_0001 t JOIN agency a ON a.id = t.agency_id", db: db)
            XCTAssertEqual(joined, ["\(portal.rows.filter { $0.cells["agency"] != nil }.count)"])
            // socload extract is recorded too: a refresh applies it again.
            try succeed(["extract", "nomi_0001", "position", "--quiet"], db: db)
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--force", "--quiet"], db: db)
            let columns = try succeed(["schema", "nomi_0001", "--format", "csv"], db: db)
            XCTAssertTrue(columns.contains("\r\nposition_id,") && columns.contains("\r\nagency_id,"), columns)
            XCTAssertFalse(columns.contains("\r\nposition,"), columns)
            let info = try succeed(["info", "nomi_0001", "--columns", "--format", "csv"], db: db)
            XCTAssertTrue(info.contains("\r\nagency,text,agency,\(portal.rows.count),"), info)
            try resetPortal()
        }
    }

    func testSelectThroughALookupEqualsTheJoinWrittenInSQL() throws {
        let values = directory.path("agencies.txt")
        try "State\nDefense\nNo Such Agency\n".write(toFile: values, atomically: true, encoding: .utf8)
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--extract", "agency", "--quiet"], db: db)
            let through = try succeed(["select", "nomi_0001", "--in", "agency.agency=@\(values)", "--order", "_id",
                                       "--format", "csv"], db: db)
            let join = try succeed(["query", "SELECT t.* FROM nomi_0001 t JOIN agency a ON a.id = t.agency_id "
                                    + "WHERE a.agency IN ('State', 'Defense', 'No Such Agency') ORDER BY t._id", "--format", "csv"], db: db)
            XCTAssertEqual(through, join, db)
            XCTAssertGreaterThan(through.split(whereSeparator: \.isNewline).count, 50)
            let equal = try succeed(["select", "nomi_0001", "--eq", "agency.agency=State", "--format", "csv"], db: db)
            let contains = try succeed(["select", "nomi_0001", "--contains", "agency.agency=STAT", "--format", "csv"], db: db)
            XCTAssertEqual(equal, contains)
            XCTAssertEqual(equal.split(whereSeparator: \.isNewline).count - 1,
                           Int(try csv("SELECT count(*) FROM nomi_0001 t JOIN agency a ON a.id = t.agency_id WHERE a.agency = 'State'",
                                       db: db)[0]))
            let unknown = try socload(["select", "nomi_0001", "--eq", "agency.nope=1"], db: db)
            XCTAssertEqual(unknown.status, 64)
            XCTAssertTrue(unknown.stderr.contains("no column 'nope' in agency"), unknown.stderr)
        }
    }

    func testACompoundValueWithNullsIsOneValueMatchedByIs() throws {
        for (db, keep) in try databases() {
            _ = keep
            portal.update({ rows, _ in
                for index in 0..<6 { rows[index].cells["position"] = .text("Same Post") }
                rows[0].cells["status"] = nil
                rows[1].cells["status"] = nil
                rows[2].cells["position"] = nil
                rows[2].cells["status"] = nil
            }, rowsUpdatedAt: 1_430_000_300)
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--extract", "position,status:post+count", "--quiet"], db: db)
            // (Same Post, NULL) is one lookup row for both rows; (NULL, NULL) is no value at all.
            XCTAssertEqual(try csv("SELECT nomi_0001_count FROM post WHERE position = 'Same Post' AND status IS NULL", db: db), ["2"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM post WHERE position IS NULL AND status IS NULL", db: db), ["0"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM nomi_0001 WHERE post_id IS NULL", db: db), ["1"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM (SELECT position, status FROM post GROUP BY position, status "
                                   + "HAVING count(*) > 1) d", db: db), ["0"], db)
            let ids = try csv("SELECT id, position, status FROM post ORDER BY id", db: db)
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--force", "--quiet"], db: db)
            XCTAssertEqual(try csv("SELECT id, position, status FROM post ORDER BY id", db: db), ids, db)
            // The lookup refuses a second row for a value it has, NULLs included.
            let duplicate = try socload(["query", "--write", "INSERT INTO post (position, status) VALUES ('Same Post', NULL)"], db: db)
            XCTAssertNotEqual(duplicate.status, 0, db)
            try resetPortal()
        }
    }
}
