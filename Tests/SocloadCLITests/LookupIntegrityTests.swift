import Foundation
import SocloadTestSupport
import XCTest

/// Lookups stay right whatever writes the database accepts: an existing table serves as a
/// lookup only with a lookup's shape; every conflict clause and TRUNCATE keeps the counts (or
/// `verify` says they drifted and `recount` repairs them); a lookup others use is never
/// dropped; a trigger of the user's survives a refresh whatever its name. SQLite and PostgreSQL.
final class LookupIntegrityTests: XCTestCase {
    var directory: TemporaryDirectory!
    let dataset = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func run(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db])
    }

    @discardableResult
    private func succeed(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> SocloadRun {
        let result = try run(arguments, db: db)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result
    }

    private func csv(_ sql: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try succeed(["query", sql, "--format", "csv"], db: db, file: file, line: line).stdout
            .split(whereSeparator: \.isNewline).dropFirst().map(String.init)
    }

    private func write(_ sql: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try succeed(["query", sql, "--write"], db: db, file: file, line: line)
    }

    private func databases() throws -> [(db: String, isPostgreSQL: Bool, keep: TestPostgreSQL.TestDatabase?)] {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        return [(directory.path("integrity.sqlite"), false, nil), (postgreSQL.url, true, postgreSQL)]
    }

    /// Lookup rows whose kept counts differ from the rows, counted by hand.
    private func wrongCounts(db: String) throws -> [String] {
        try csv("""
            SELECT a.agency FROM agency a
            WHERE a.t_count <> (SELECT count(*) FROM t WHERE t.agency_id = a.id)
               OR a.name_count <> (SELECT count(DISTINCT t.name) FROM t WHERE t.agency_id = a.id)
            """, db: db)
    }

    /// What socload keeps beside a table (the copy a refresh replaced, for its change log) never
    /// fails a foreign-key check: after a refresh and a delete that prunes lookup rows, SQLite's
    /// `foreign_key_check` and `integrity_check` find nothing.
    func testNothingKeptFailsAForeignKeyCheckAfterAPrune() throws {
        let db = directory.path("pruned.sqlite")
        try succeed(["fetch", dataset, "--extract", "agency+count+prune", "--quiet"], db: db)
        // A refresh that changes rows (one nomination moved to a new agency): the change log
        // reads the old rows, and the copy they were in must not outlive them with its references.
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dataset))) as? [String: Any])
        let columns = try XCTUnwrap(((document["meta"] as? [String: Any])?["view"] as? [String: Any])?["columns"] as? [[String: Any]])
        let agency = try XCTUnwrap(columns.firstIndex { $0["fieldName"] as? String == "agency" })
        var rows = try XCTUnwrap(document["data"] as? [[Any]])
        rows[0][agency] = "Zeta Office"
        let path = directory.path("n5m4-mism.json")
        let text = "{\"meta\":" + String(decoding: try JSONSerialization.data(withJSONObject: try XCTUnwrap(document["meta"])), as: UTF8.self)
            + ",\"data\":" + String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self) + "}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let refresh = try succeed(["fetch", path, "--table", "n5m4_mism"], db: db)
        XCTAssertTrue(refresh.stderr.contains("Refreshed n5m4_mism: 0 added, 1 changed, 0 removed, 299 unchanged"), refresh.stderr)
        XCTAssertEqual(try csv("select count(*) from agency where agency = 'Zeta Office'", db: db), ["1"])
        // The user deletes every row of an agency: the prune trigger deletes the agency.
        let gone = try XCTUnwrap(try csv("select agency from agency where agency <> 'Zeta Office' order by agency limit 1", db: db).first)
        try write("delete from n5m4_mism where agency_id = (select agency_id from agency where agency = '\(gone)')", db: db)
        XCTAssertEqual(try csv("select count(*) from agency where agency = '\(gone)'", db: db), ["0"], "pruned")
        XCTAssertEqual(try csv("select count(*) from pragma_foreign_key_check", db: db), ["0"])
        XCTAssertEqual(try csv("pragma integrity_check", db: db), ["ok"])
        // The changes are still there to read.
        let changes = try succeed(["changes", "n5m4_mism", "--format", "csv"], db: db).stdout
        XCTAssertTrue(changes.contains(",changed,") && changes.contains(",agency_id,"), changes)
    }

    func testAnExistingTableServesAsALookupOnlyWithALookupsShape() throws {
        for (db, isPostgreSQL, keep) in try databases() {
            _ = keep
            try succeed(["fetch", dataset, "--table", "t", "--quiet"], db: db)
            let refused: [(String, String)] = isPostgreSQL ? [
                ("id text PRIMARY KEY, agency text UNIQUE", "its id is text, not an integer"),
                ("id bigint PRIMARY KEY, agency text UNIQUE", "its id has no identity or sequence default, so new values would get no id"),
                ("id serial PRIMARY KEY, agency text", "no unique constraint over agency alone"),
                ("id serial PRIMARY KEY, name text UNIQUE", "it has no column agency"),
                ("id serial PRIMARY KEY, agency text UNIQUE, code text NOT NULL", "its column code is NOT NULL without a default, so no value could be added"),
                ("id serial, agency text UNIQUE", "its primary key is not id alone"),
            ] : [
                ("id TEXT PRIMARY KEY, agency TEXT UNIQUE", "its id is not an INTEGER PRIMARY KEY (it is TEXT)"),
                ("id INTEGER, agency TEXT UNIQUE", "its id is not an INTEGER PRIMARY KEY (it is INTEGER, not the key)"),
                ("id INTEGER PRIMARY KEY, agency TEXT", "no unique index or constraint over agency alone"),
                ("id INTEGER PRIMARY KEY, name TEXT UNIQUE", "it has no column agency"),
                ("id INTEGER PRIMARY KEY, agency TEXT UNIQUE, code TEXT NOT NULL", "its column code is NOT NULL without a default, so no value could be added"),
            ]
            let before = try csv("SELECT * FROM t ORDER BY _id", db: db)
            for (definition, reason) in refused {
                try write("CREATE TABLE agency (\(definition))", db: db)
                let extract = try run(["extract", "t", "agency"], db: db)
                XCTAssertEqual(extract.status, 64, "\(definition): \(extract.stderr)")
                XCTAssertTrue(extract.stderr.hasPrefix("Error: agency exists and is not a lookup of agency: \(reason);"),
                              "\(definition): \(extract.stderr)")
                XCTAssertEqual(try csv("SELECT count(*) FROM agency", db: db), ["0"], definition)
                XCTAssertEqual(try csv("SELECT * FROM t ORDER BY _id", db: db), before, definition)
                try write("DROP TABLE agency", db: db)
            }
            // The right shape, with a column of the user's that may stay empty: every row keeps its value.
            try write("CREATE TABLE agency (\(isPostgreSQL ? "id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, agency text UNIQUE, note text" : "id INTEGER PRIMARY KEY, agency TEXT UNIQUE, note TEXT"))", db: db)
            try write("INSERT INTO agency (agency, note) VALUES ('State', 'kept')", db: db)
            try succeed(["extract", "t", "agency", "--count"], db: db)
            XCTAssertEqual(try csv("SELECT count(*) FROM t WHERE agency_id IS NULL", db: db), ["0"])
            XCTAssertEqual(try csv("SELECT id, note, t_count FROM agency WHERE agency = 'State'", db: db), ["1,kept,62"])
        }
    }

    func testEveryWriteTheDatabaseAcceptsKeepsTheCountsOrVerifySaysSoAndRecountRepairs() throws {
        for (db, isPostgreSQL, keep) in try databases() {
            _ = keep
            try succeed(["fetch", dataset, "--table", "t", "--extract", "agency+count+distinct=name", "--quiet"], db: db)
            try succeed(["verify", "t"], db: db)
            let id = try XCTUnwrap(try csv("SELECT _id FROM t ORDER BY _id LIMIT 1", db: db).first)
            let defense = try XCTUnwrap(try csv("SELECT id FROM agency WHERE agency = 'Defense'", db: db).first)
            let writes = isPostgreSQL ? [
                "INSERT INTO t SELECT * FROM t WHERE _id = '\(id)' ON CONFLICT (_id) DO UPDATE SET agency_id = \(defense)",
                "UPDATE t SET name = 'Someone Else' WHERE _id = '\(id)'",
                "DELETE FROM t WHERE _id IN (SELECT _id FROM t ORDER BY _id LIMIT 3)",
                "TRUNCATE t",
            ] : [
                "INSERT OR REPLACE INTO t SELECT * FROM t WHERE _id = '\(id)'",
                "REPLACE INTO t SELECT * FROM t WHERE _id = '\(id)'",
                "UPDATE OR REPLACE t SET _id = (SELECT max(_id) FROM t) WHERE _id = '\(id)'",
                "INSERT INTO t SELECT * FROM t WHERE _id = (SELECT min(_id) FROM t) ON CONFLICT (_id) DO UPDATE SET agency_id = \(defense)",
                "DELETE FROM t WHERE _id IN (SELECT _id FROM t ORDER BY _id LIMIT 3)",
                "DELETE FROM t",
            ]
            for sql in writes {
                try write(sql, db: db)
                XCTAssertEqual(try wrongCounts(db: db), [], "\(sql) in \(db)")
                try succeed(["verify", "t"], db: db)
            }
            // A write the triggers cannot see: verify says the counts drifted; recount repairs them.
            try succeed(["fetch", dataset, "--table", "t", "--quiet"], db: db)
            try write("UPDATE agency SET t_count = t_count + 5 WHERE agency = 'State'", db: db)
            let drifted = try run(["verify", "t"], db: db)
            XCTAssertEqual(drifted.status, 65, drifted.stderr)
            XCTAssertTrue(drifted.stderr.contains("the counts kept for t drifted from its rows (agency.t_count on 1 row): "
                                                  + "socload recount t makes them again"), drifted.stderr)
            XCTAssertTrue(drifted.stdout.contains("t_count,agency,kept_count,\"\",1 lookup row off,NO"), drifted.stdout)
            let recount = try succeed(["recount", "t"], db: db)
            XCTAssertEqual(recount.stderr, "Recounted the lookups of t: 1 count corrected\n")
            // A write command leaves the database file alone, with no -wal beside it.
            if !isPostgreSQL { XCTAssertFalse(FileManager.default.fileExists(atPath: db + "-wal"), "recount left \(db)-wal") }
            XCTAssertEqual(try wrongCounts(db: db), [])
            try succeed(["verify", "t"], db: db)
            XCTAssertEqual(try run(["recount", "nothing"], db: db).status, 66)
        }
    }

    func testALookupOthersUseIsNeverDroppedAndAUsersTriggerSurvivesWhateverItsName() throws {
        for (db, isPostgreSQL, keep) in try databases() {
            _ = keep
            try succeed(["fetch", dataset, "--table", "t", "--extract", "agency+count", "--quiet"], db: db)
            let drop = try run(["drop", "agency"], db: db)
            XCTAssertEqual(drop.status, 64, drop.stderr)
            XCTAssertTrue(drop.stderr.hasPrefix("Error: agency is used by t (a lookup, a child table or a foreign key points at it)"),
                          drop.stderr)
            XCTAssertEqual(try csv("SELECT count(*) FROM agency", db: db), ["6"])
            // Still usable: an insert into t finds its lookup.
            try write("INSERT INTO t (_id, name, agency_id) VALUES ('new-1', 'N', 1)", db: db)

            // A trigger of the user's named like socload's own objects is the user's: kept on refresh.
            if isPostgreSQL {
                try write("CREATE TABLE audit (n int)", db: db)
                try write("CREATE FUNCTION _socload_mine() RETURNS trigger LANGUAGE plpgsql AS "
                          + "$$ BEGIN INSERT INTO audit VALUES (1); RETURN NULL; END; $$", db: db)
                try write("CREATE TRIGGER _socload_mine AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION _socload_mine()", db: db)
            } else {
                try write("CREATE TABLE audit (n INTEGER)", db: db)
                try write("CREATE TRIGGER _socload_mine AFTER INSERT ON t BEGIN INSERT INTO audit VALUES (1); END", db: db)
            }
            let refresh = try succeed(["fetch", dataset, "--table", "t"], db: db)
            XCTAssertFalse(refresh.stderr.contains("Warning"), refresh.stderr)
            try write("INSERT INTO t (_id, name, agency_id) VALUES ('new-2', 'N', 1)", db: db)
            XCTAssertEqual(try csv("SELECT count(*) FROM audit", db: db), ["1"], db)
            // Dropping the table that uses it lets the lookup go too.
            try succeed(["drop", "t"], db: db)
            try succeed(["drop", "agency"], db: db)
        }
    }
}
