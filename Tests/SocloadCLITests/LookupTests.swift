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
    private func resetPortal() throws {
        portal.stop()
        portal = try Self.nominationsPortal()
    }

    private func socload(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db], environment: ["SOCLOAD_RETRY_DELAY": "0.01"])
    }

    /// Runs a command that must succeed; its standard output.
    @discardableResult
    private func succeed(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try socload(arguments, db: db)
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)", file: file, line: line)
        return run.stdout
    }

    private func csv(_ sql: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try succeed(["query", sql, "--format", "csv"], db: db, file: file, line: line)
            .split(whereSeparator: \.isNewline).dropFirst().map(String.init)
    }

    /// The databases each test runs against: a SQLite file and a PostgreSQL database.
    private func databases() throws -> [(String, TestPostgreSQL.TestDatabase?)] {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        return [(directory.path("lookups.sqlite"), nil), (postgreSQL.url, postgreSQL)]
    }

    /// Every lookup row's counts against the same counts made from the rows now.
    private func assertCountsMatchTheRows(db: String, _ moment: String, file: StaticString = #filePath, line: UInt = #line) throws {
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
            XCTAssertTrue(sync.stderr.hasPrefix("Synced nomi_0001: 5 changed rows (2 new, 3 updated)"), sync.stderr)
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

    func testBadSpecsAreUsageErrorsThatChangeNothing() throws {
        let db = directory.path("bad.sqlite")
        try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--quiet"], db: db)
        let before = try csv("SELECT * FROM nomi_0001 ORDER BY _id", db: db)
        for (arguments, message) in [
            (["--extract", "nope"], "--extract nope: nomi_0001 has no column 'nope'"),
            (["--extract", "_id"], "--extract _id: _id is part of nomi_0001's key"),
            (["--extract", "agency+bogus"], "+bogus is not count, distinct=OTHER or prune"),
            (["--extract", "\"agency"], "a column name is missing or a quote is not closed"),
            (["--extract", "agency+distinct=agency"], "agency is one of the extracted columns"),
            (["--extract", "agency:plain_thing", "--extract", "name:plain_thing"], "plain_thing is already the lookup of agency"),
            (["--extract", "agency", "--index", "agency"], "--index agency: agency was extracted into agency; index agency_id instead"),
        ] {
            let run = try socload(["fetch", "nomi-0001", "--domain", portal.baseURL, "--force"] + arguments, db: db)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let loaded = try socload(["extract", "nomi_0001", "agency", "--into", "nomi_0001"], db: db)
        XCTAssertEqual(loaded.status, 64, loaded.stderr)
        XCTAssertTrue(loaded.stderr.contains("the lookup cannot be nomi_0001 itself"), loaded.stderr)
        try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--table", "other", "--quiet"], db: db)
        let taken = try socload(["extract", "nomi_0001", "agency", "--into", "other"], db: db)
        XCTAssertEqual(taken.status, 64, taken.stderr)
        XCTAssertTrue(taken.stderr.contains("would be the loaded table other"), taken.stderr)
        // A lookup that prunes is its table's alone.
        try succeed(["extract", "other", "status", "--into", "shared_status", "--prune", "--quiet"], db: db)
        let shared = try socload(["extract", "nomi_0001", "status", "--into", "shared_status"], db: db)
        XCTAssertEqual(shared.status, 64, shared.stderr)
        XCTAssertTrue(shared.stderr.contains("the lookup shared_status of nomi_0001 is also other's, and +prune needs a lookup of its own"),
                      shared.stderr)
        XCTAssertEqual(try csv("SELECT * FROM nomi_0001 ORDER BY _id", db: db), before)
        // Without pruning, two tables share a lookup: one row per value, whichever table brought it.
        try succeed(["extract", "nomi_0001", "agency", "--into", "agencies", "--count", "--quiet"], db: db)
        try succeed(["extract", "other", "agency", "--into", "agencies", "--count", "--quiet"], db: db)
        XCTAssertEqual(try csv("SELECT count(*) FROM agencies", db: db), try csv("SELECT count(DISTINCT agencies_id) FROM other", db: db))
        XCTAssertEqual(try csv("SELECT count(*) FROM agencies WHERE nomi_0001_count <> other_count", db: db), ["0"])
    }

    func testHostileTableColumnAndLookupNamesAreQuotedInEveryStatement() throws {
        let field = "ag\"ency, x.y:z+w=v'); DROP TABLE t; --"
        let lookup = "lk\"; .x 'é"
        let table = "t\"; DROP TABLE plain; --"
        let rows = (1...9).map { index in
            FakeSocrataPortal.Row(id: "row-\(index)", createdAt: 1_420_070_400 + index, updatedAt: 1_420_070_400 + index,
                                  cells: [field: .text(["Ümlaut", "O'Brien", "\"quoted\""][index % 3]), "name": .text("n\(index % 4)")])
        }
        portal.stop()
        portal = try FakeSocrataPortal(datasetID: "host-0001", columns: [.init(field, "text"), .init("name", "text")], rows: rows,
                                       rowsUpdatedAt: 1_430_000_000)
        func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        let spec = quoted(field) + ":" + quoted(lookup) + "+count+distinct=name+prune"
        let values = directory.path("values.txt")
        try "O'Brien\n\"quoted\"\n".write(toFile: values, atomically: true, encoding: .utf8)
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["fetch", "host-0001", "--domain", portal.baseURL, "--table", table, "--extract", spec, "--quiet"], db: db)
            let counts = "SELECT \(quoted(field)), \(quoted(table + "_count")), name_count FROM \(quoted(lookup)) ORDER BY 1"
            XCTAssertEqual(try csv(counts, db: db), ["\"\"\"quoted\"\"\",3,3", "O'Brien,3,3", "Ümlaut,3,3"], db)
            let foreignKey = quoted(lookup + "_id")
            try succeed(["query", "--write", "DELETE FROM \(quoted(table)) WHERE _id = 'row-1'"], db: db)
            try succeed(["query", "--write", "UPDATE \(quoted(table)) SET \(foreignKey) = "
                         + "(SELECT id FROM \(quoted(lookup)) WHERE \(quoted(field)) = 'Ümlaut') WHERE _id IN ('row-2', 'row-5', 'row-8')"], db: db)
            // Every row of "quoted" moved away: pruned.
            XCTAssertEqual(try csv(counts, db: db), ["O'Brien,2,2", "Ümlaut,6,4"], db)
            let selected = try succeed(["select", table, "--in", quoted(lookup) + "." + quoted(field) + "=@" + values,
                                        "--columns", "_id", "--order", "_id", "--format", "csv"], db: db)
            XCTAssertEqual(selected, "_id\r\nrow-4\r\nrow-7\r\n", db)
            try succeed(["fetch", "host-0001", "--domain", portal.baseURL, "--table", table, "--force", "--quiet"], db: db)
            XCTAssertEqual(try csv(counts, db: db), ["\"\"\"quoted\"\"\",3,3", "O'Brien,3,3", "Ümlaut,3,3"], db)
            let info = try succeed(["info", table, "--columns", "--format", "csv"], db: db)
            // The extracted column is counted through its foreign key: all 9 rows have a value.
            let fieldLine = info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("\"ag\"\"ency") }
            XCTAssertTrue(fieldLine?.hasSuffix(",9,,,,,") ?? false, info)
        }
    }

    func testADuplicateKeyWithLookupsNamesTheSameRowsAndChangesNothing() throws {
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--extract", "agency+count", "--quiet"], db: db)
            let before = try csv("SELECT * FROM nomi_0001 ORDER BY _id", db: db)
            let lookup = try csv("SELECT * FROM agency ORDER BY id", db: db)
            let plain = try socload(["fetch", "nomi-0001", "--domain", portal.baseURL, "--table", "other", "--pk", "agency"], db: db)
            let extracted = try socload(["fetch", "nomi-0001", "--domain", portal.baseURL, "--force", "--pk", "name",
                                         "--extract", "status"], db: db)
            let plainName = try socload(["fetch", "nomi-0001", "--domain", portal.baseURL, "--table", "other", "--pk", "name"], db: db)
            XCTAssertEqual(plain.status, 65, plain.stderr)
            XCTAssertEqual(extracted.status, 65, extracted.stderr)
            // The same rows named with and without lookups.
            let message = plainName.stderr.replacingOccurrences(of: "in other", with: "in nomi_0001")
                .replacingOccurrences(of: "other was not changed", with: "nomi_0001 was not changed")
            XCTAssertTrue(extracted.stderr.contains("duplicate key name = "), extracted.stderr)
            XCTAssertEqual(extracted.stderr, message, db)
            XCTAssertEqual(try csv("SELECT * FROM nomi_0001 ORDER BY _id", db: db), before, db)
            XCTAssertEqual(try csv("SELECT * FROM agency ORDER BY id", db: db), lookup, db)
            XCTAssertEqual(try csv("SELECT count(*) FROM \(db.hasPrefix("postgres") ? "pg_tables WHERE tablename" : "sqlite_schema WHERE name") = 'status'",
                                   db: db), ["0"], "the lookup of the failed load is rolled back too")
        }
    }
}
