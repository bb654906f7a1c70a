import Foundation
import SocloadTestSupport
import XCTest

/// `socload load --mode append|upsert`: records into a table socload loaded before, on both
/// databases: the rows of their keys updated (the columns they have), new ones added, lookups
/// counted, child rows replaced for the upserted parents, the change log and the refresh log
/// right; records that do not fit refused by column, new columns added by evolve; a user's table
/// refused, a missing one made.
final class LoadModeTests: DocumentTestCase {
    /// 1,000 records keyed by id, with an agency (extracted into a counted lookup) and tags
    /// (a child table): one upsert of two records updates one row and adds one.
    func testUpsertUpdatesTheRowsOfItsKeysAndKeepsLookupsChildTablesAndCounts() throws {
        var big = ""
        for id in 1...1000 {
            let tags = id % 2 == 1 ? "[{\"t\": \"x\"}, {\"t\": \"y\"}]" : "[]"
            big += "{\"id\": \(id), \"name\": \"n\(id)\", \"amount\": \(Double(id) * 1.5), \"agency\": \"A\(id % 3)\", \"tags\": \(tags)}\n"
        }
        let bigPath = try write(big, to: "big.ndjson")
        // One record per line: an NDJSON file of one record is still records.
        let up = try write("{\"id\": 5, \"name\": \"five\", \"amount\": 2, \"agency\": \"A9\", \"tags\": [{\"t\": \"z\"}]}\n"
                           + "{\"id\": 2000, \"name\": \"Zoë\", \"amount\": 3.25, \"agency\": \"A1\", \"tags\": []}\n", to: "up.ndjson")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", bigPath, "--pk", "id", "--extract", "agency+count", "--quiet"], db: db)
            let run = try succeed(["load", up, "--table", "big", "--mode", "upsert"], db: db)
            XCTAssertTrue(run.stderr.contains("Upserted 2 records into big (1 new, 1 updated) from "), run.stderr)
            XCTAssertTrue(run.stderr.contains("Refreshed big: 1 added, 1 changed, 0 removed, 0 unchanged"), run.stderr)
            XCTAssertEqual(try csv("SELECT count(*) FROM big", db: db).last, "1001", db)
            XCTAssertEqual(try csv("SELECT b.id, b.name, b.amount, a.agency FROM big AS b JOIN agency AS a ON a.id = b.agency_id "
                                   + "WHERE b.id IN (4, 5, 2000) ORDER BY b.id", db: db),
                           ["id,name,amount,agency", "4,n4,6.0,A1", "5,five,2.0,A9", "2000,Zoë,3.25,A1"], db)
            // The lookup's counts follow: id 5 left A2 for the new A9, id 2000 joined A1.
            XCTAssertEqual(try csv("SELECT agency, big_count FROM agency ORDER BY agency", db: db),
                           ["agency,big_count", "A0,333", "A1,335", "A2,332", "A9,1"], db)
            // The upserted parent's elements are its record's, the others' are untouched.
            XCTAssertEqual(try csv("SELECT big_id, position, t FROM big_tags WHERE big_id IN (3, 5) ORDER BY 1, 2", db: db),
                           ["big_id,position,t", "3,1,x", "3,2,y", "5,1,z"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM big_tags", db: db).last, "999", db)
            XCTAssertTrue(try succeed(["info", "big", "--refreshes"], db: db).stdout.contains(",upsert,"), db)
            // The change log has the upsert's two rows.
            let changes = try succeed(["changes", "big", "--format", "csv"], db: db).stdout
            XCTAssertTrue(changes.contains("added") && changes.contains("changed"), changes)
        }
    }

    /// An upsert of rows mostly as they were (the nightly refresh of a document) counts, logs and
    /// keeps fingerprints for only the rows that changed, and still writes every row: a row
    /// edited by hand gets the record's values back. A second upsert of the same records finds
    /// nothing changed, so the kept fingerprints are exactly the table's.
    func testAnUpsertOfRowsMostlyAsTheyWereCountsOnlyWhatChangedAndWritesEveryRow() throws {
        func records(_ ids: ClosedRange<Int>, changed: Set<Int> = []) -> String {
            ids.map { "{\"id\": \($0), \"name\": \"\(changed.contains($0) ? "changed \($0)" : "n\($0)")\", \"amount\": \($0).5}\n" }.joined()
        }
        let base = try write(records(1...200), to: "base.ndjson")
        let nightly = try write(records(1...203, changed: Set(10...14)), to: "nightly.ndjson")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", base, "--table", "n", "--pk", "id", "--quiet"], db: db)
            try succeed(["query", "UPDATE n SET name = 'edited by hand' WHERE id = 7", "--write"], db: db)
            let run = try succeed(["load", nightly, "--table", "n", "--mode", "upsert"], db: db)
            XCTAssertTrue(run.stderr.contains("Upserted 203 records into n (3 new, 200 updated) from "), run.stderr)
            XCTAssertTrue(run.stderr.contains("Refreshed n: 3 added, 5 changed, 0 removed, 195 unchanged"), run.stderr)
            XCTAssertEqual(try csv("SELECT name FROM n WHERE id IN (7, 12, 203) ORDER BY id", db: db),
                           ["name", "n7", "changed 12", "n203"], db)
            XCTAssertEqual(try csv("SELECT kind, count(*) AS rows FROM _socload_row_changes GROUP BY kind ORDER BY kind", db: db),
                           ["kind,rows", "added,3", "changed,5"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM _socload_row_changes WHERE old_values LIKE '%\"n12\"%'", db: db).last, "1", db)
            XCTAssertEqual(try csv("SELECT count(*), count(DISTINCT k1) FROM _socload_fingerprints_n", db: db).last, "203,203", db)
            let again = try succeed(["load", nightly, "--table", "n", "--mode", "upsert"], db: db)
            XCTAssertTrue(again.stderr.contains("Refreshed n: 0 added, 0 changed, 0 removed, 203 unchanged"), again.stderr)
            let back = try succeed(["load", base, "--table", "n", "--mode", "upsert"], db: db)
            XCTAssertTrue(back.stderr.contains("Upserted 200 records into n (0 new, 200 updated) from "), back.stderr)
            XCTAssertTrue(back.stderr.contains("Refreshed n: 0 added, 5 changed, 0 removed, 195 unchanged"), back.stderr)
        }
    }

    /// An upserted parent's child rows are its record's elements, whole: a field an element lacks
    /// is NULL in its child row, not the value an earlier element at that place had.
    func testAnUpsertedParentsChildRowsAreItsElementsWhole() throws {
        let first = try write(#"{"id": 1, "m": [{"k": "a", "tags": [1, 2], "n": 5}, {"k": "b", "n": 6}]}"# + "\n", to: "p1.ndjson")
        let second = try write(#"{"id": 1, "m": [{"k": "z"}]}"# + "\n", to: "p2.ndjson")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", first, "--pk", "id", "--table", "p", "--quiet"], db: db)
            try succeed(["load", second, "--table", "p", "--mode", "upsert", "--quiet"], db: db)
            XCTAssertEqual(try csv("SELECT p_id, position, k, tags, n FROM p_m ORDER BY 1, 2", db: db),
                           ["p_id,position,k,tags,n", "1,1,z,,"], db)
        }
    }

    /// Append adds rows (to a table without a key, every record), refuses a key already in the
    /// table and leaves it as it was; a table that does not exist yet is made.
    func testAppendAddsRowsAndRefusesKeysAlreadyInTheTable() throws {
        let first = try write("[{\"id\": 1, \"v\": \"a\"}, {\"id\": 2, \"v\": \"b\"}]", to: "first.json")
        let more = try write("[{\"id\": 3, \"v\": \"c\"}, {\"id\": 2, \"v\": \"B\"}]", to: "more.json")
        for (db, keep) in try databases() {
            _ = keep
            // Made by the first append, added to by the second: no key, so every record is a row.
            try succeed(["load", first, "--table", "log", "--mode", "append"], db: db)
            let appended = try succeed(["load", more, "--table", "log", "--mode", "append"], db: db)
            XCTAssertTrue(appended.stderr.contains("Appended 2 records into log from "), appended.stderr)
            XCTAssertEqual(try csv("SELECT id, v FROM log ORDER BY id, v", db: db), ["id,v", "1,a", "2,B", "2,b", "3,c"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM log", db: db).last, "4", db)
            let upsert = try socload(["load", more, "--table", "log", "--mode", "upsert"], db: db)
            XCTAssertEqual(upsert.status, 64, upsert.stderr)
            XCTAssertTrue(upsert.stderr.contains("log has no key to upsert by: --mode append adds rows"), upsert.stderr)

            try succeed(["load", first, "--table", "keyed", "--pk", "id", "--quiet"], db: db)
            let refused = try socload(["load", more, "--table", "keyed", "--mode", "append"], db: db)
            XCTAssertEqual(refused.status, 65, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("--mode append: 1 of records 1-2 has a key (id) already in keyed: "
                                                  + "--mode upsert updates those rows; keyed was not changed"), refused.stderr)
            XCTAssertEqual(try csv("SELECT id, v FROM keyed ORDER BY id", db: db), ["id,v", "1,a", "2,b"], db)
            let upserted = try succeed(["load", more, "--table", "keyed", "--mode", "upsert", "--json"], db: db)
            XCTAssertTrue(upserted.stderr.contains("(1 new, 1 updated)"), upserted.stderr)
            for pair in ["\"status\":\"upserted\"", "\"records\":2", "\"inserted\":1", "\"updated\":1", "\"rows\":3"] {
                XCTAssertTrue(upserted.stdout.contains(pair), upserted.stdout)
            }
            XCTAssertEqual(try csv("SELECT id, v FROM keyed ORDER BY id", db: db), ["id,v", "1,a", "2,B", "3,c"], db)
        }
    }

    /// A column whose values the table's type cannot hold is refused by name under fail and
    /// evolve alike; values a wider type holds go in as that type; a new column is refused
    /// unless evolve adds it; a column the records lack keeps its values in an upsert.
    func testRecordsThatDoNotFitAreRefusedByColumnAndEvolveAddsNewColumns() throws {
        let base = try write("[{\"id\": 1, \"zip\": \"02134\", \"amount\": 1.5, \"n\": 7, \"note\": \"kept\"}]", to: "base.json")
        let retyped = try write("[{\"id\": 1, \"n\": \"seven\"}]", to: "retyped.json")
        let widened = try write("id,zip,amount,n\n2,10001,3,\n", to: "widened.csv")
        let added = try write("[{\"id\": 1, \"zip\": \"02139\", \"extra\": true}]", to: "added.json")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", base, "--table", "t", "--pk", "id", "--quiet"], db: db)
            for policy in ["fail", "evolve"] {
                let refused = try socload(["load", retyped, "--table", "t", "--mode", "upsert", "--on-schema-change", policy], db: db)
                XCTAssertEqual(refused.status, 65, refused.stderr)
                XCTAssertTrue(refused.stderr.contains("the records do not fit t: column n: t holds integer, the records have text"),
                              refused.stderr)
            }
            // A CSV's 10001 into the text zip, 3 into the double amount, an empty n (NULL) into the integer n.
            try succeed(["load", widened, "--table", "t", "--mode", "upsert"], db: db)
            XCTAssertEqual(try csv("SELECT id, zip, amount, n, note FROM t ORDER BY id", db: db),
                           ["id,zip,amount,n,note", "1,02134,1.5,7,kept", "2,10001,3.0,,"], db)
            XCTAssertEqual(try types("t", db: db), ["id=integer", "zip=text", "amount=double", "n=integer", "note=text"], db)

            let noNew = try socload(["load", added, "--table", "t", "--mode", "upsert"], db: db)
            XCTAssertEqual(noNew.status, 65, noNew.stderr)
            XCTAssertTrue(noNew.stderr.contains("column extra (boolean): t does not have it; --on-schema-change evolve adds"),
                          noNew.stderr)
            let evolved = try succeed(["load", added, "--table", "t", "--mode", "upsert", "--on-schema-change", "evolve"], db: db)
            XCTAssertTrue(evolved.stderr.contains("t: column extra added (boolean)"), evolved.stderr)
            // The columns the records lack keep their values.
            XCTAssertEqual(try csv("SELECT id, zip, amount, n, note, extra FROM t ORDER BY id", db: db),
                           ["id,zip,amount,n,note,extra", "1,02139,1.5,7,kept,1", "2,10001,3.0,,,"], db)
            XCTAssertEqual(try types("t", db: db).last, "extra=boolean", db)
            // The records must carry the key, and --pk may not change it.
            let keyless = try socload(["load", "-", "--table", "t", "--mode", "upsert"], db: db, stdin: Data("[{\"zip\": \"1\"}]".utf8))
            XCTAssertEqual(keyless.status, 65, keyless.stderr)
            XCTAssertTrue(keyless.stderr.contains("the records do not have id, the key of t"), keyless.stderr)
            let rekeyed = try socload(["load", added, "--table", "t", "--mode", "upsert", "--pk", "zip"], db: db)
            XCTAssertEqual(rekeyed.status, 65, rekeyed.stderr)
            XCTAssertTrue(rekeyed.stderr.contains("key: t is keyed by id, --pk asks for zip"), rekeyed.stderr)
            XCTAssertEqual(try csv("SELECT count(*) FROM t", db: db).last, "2", db)
        }
    }

    /// A table that keeps history gets a version for each upserted row that changed; an
    /// upsert of some columns only is refused there (a version is a whole row).
    /// A nightly append or upsert with nothing new (an empty array, a CSV of a header alone) adds
    /// nothing and succeeds; into a table that does not exist it cannot make one.
    func testAnAppendOfNoRecordAddsNothing() throws {
        let first = try write("[{\"id\": 1, \"v\": \"a\"}]", to: "first.json")
        let empty = try write("[]", to: "empty.json")
        let header = try write("id,v\n", to: "header.csv")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", first, "--table", "t", "--pk", "id"], db: db)
            for (file, mode) in [(empty, "append"), (header, "append"), (empty, "upsert"), (header, "upsert")] {
                let run = try succeed(["load", file, "--table", "t", "--mode", mode, "--pk", "id"], db: db)
                XCTAssertTrue(run.stderr.contains("0 records into t"), run.stderr)
            }
            XCTAssertEqual(try csv("SELECT id, v FROM t", db: db), ["id,v", "1,a"], db)
            let none = try socload(["load", empty, "--table", "fresh", "--mode", "append"], db: db)
            XCTAssertEqual(none.status, 65, none.stderr)
            XCTAssertTrue(none.stderr.contains("has no record with a field"), none.stderr)
        }
    }

    func testUpsertIntoATableWithHistoryRecordsTheNewVersions() throws {
        let base = try write("[{\"id\": 1, \"v\": \"a\"}, {\"id\": 2, \"v\": \"b\"}]", to: "base.json")
        let change = try write("[{\"id\": 1, \"v\": \"a\"}, {\"id\": 2, \"v\": \"B\"}]", to: "change.json")
        let partial = try write("[{\"id\": 2}]", to: "partial.json")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", base, "--table", "h", "--pk", "id", "--history", "--quiet"], db: db)
            let run = try succeed(["load", change, "--table", "h", "--mode", "upsert"], db: db)
            XCTAssertTrue(run.stderr.contains("0 added, 1 changed, 0 removed, 1 unchanged"), run.stderr)
            XCTAssertEqual(try csv("SELECT id, v, _valid_to IS NULL AS current FROM h_history ORDER BY id, current", db: db),
                           ["id,v,current", "1,a,1", "2,b,0", "2,B,1"], db)
            let refused = try socload(["load", partial, "--table", "h", "--mode", "upsert"], db: db)
            XCTAssertEqual(refused.status, 64, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("h keeps the history of its rows, whose versions are whole rows: the records lack v"),
                          refused.stderr)
        }
    }

    /// A table socload did not make is never appended to, and --on-schema-change warn (which
    /// takes a new shape) is not for an append.
    func testAUsersTableIsRefused() throws {
        let records = try write("[{\"id\": 1}]", to: "r.json")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", records, "--table", "seed", "--quiet"], db: db)
            try succeed(["query", "CREATE TABLE mine (id integer)", "--write"], db: db)
            let refused = try socload(["load", records, "--table", "mine", "--mode", "append"], db: db)
            XCTAssertEqual(refused.status, 64, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("mine, but it exists and socload did not load it (a table of yours?)"), refused.stderr)
            XCTAssertEqual(try csv("SELECT count(*) FROM mine", db: db).last, "0", db)
        }
        let usage = try socload(["load", records, "--mode", "append", "--on-schema-change", "warn"], db: directory.path("u.sqlite"))
        XCTAssertEqual(usage.status, 64, usage.stderr)
        XCTAssertTrue(usage.stderr.contains("--mode append keeps the table's shape"), usage.stderr)
    }

    /// A glue table keeps the links of the rows an upsert or append did not write: only the
    /// written rows' links are withdrawn and made again, without --glue given again.
    func testGlueTablesKeepTheOtherRowsLinks() throws {
        let committees = try write("""
            [{"id": 1, "name": "Budget", "members": [{"leg_id": "a", "role": "chair"}, {"leg_id": "b", "role": "member"}]},
             {"id": 2, "name": "Rules", "members": [{"leg_id": "b", "role": "chair"}]}]
            """, to: "committees.json")
        let upsert = try write("{\"id\": 1, \"name\": \"Budget\", \"members\": [{\"leg_id\": \"c\", \"role\": \"chair\"}]}\n",
                               to: "upsert.ndjson")
        let append = try write("{\"id\": 3, \"name\": \"Ethics\", \"members\": [{\"leg_id\": \"a\", \"role\": \"member\"}]}\n",
                               to: "append.ndjson")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", committees, "--pk", "id", "--glue", "members:legislators.leg_id", "--quiet"], db: db)
            let sql = "SELECT committees_id, legislators_leg_id, role FROM committees_legislators ORDER BY 1, 2"
            try succeed(["load", upsert, "--table", "committees", "--mode", "upsert", "--quiet"], db: db)
            XCTAssertEqual(try csv(sql, db: db), ["committees_id,legislators_leg_id,role", "1,c,chair", "2,b,chair"], db)
            try succeed(["load", append, "--table", "committees", "--mode", "append", "--quiet"], db: db)
            XCTAssertEqual(try csv(sql, db: db), ["committees_id,legislators_leg_id,role", "1,c,chair", "2,b,chair", "3,a,member"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM committees", db: db).last, "3", db)
        }
    }
}
