import Foundation
import SocloadTestSupport
import XCTest

/// Lookups given bad specs, hostile names or a duplicate key: refused or quoted, nothing changed.
extension LookupTests {
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
            XCTAssertTrue(fieldLine?.contains(",9,,,,,") ?? false, info)
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
