import Foundation
import SocloadTestSupport
import XCTest

/// `socload load`: plain JSON arrays, NDJSON and saved SODA responses into typed tables, in SQLite
/// and PostgreSQL alike; inference over every value, the layouts refused and accepted, bad
/// records named by line or number, hostile keys quoted.
final class DocumentLoadTests: DocumentTestCase {
    func testEveryValueTypesItsColumn() throws {
        let path = try write("""
            [
              {"zip": "09799", "count": 1, "ratio": 1, "big": 1, "flag": true, "day": "2014-06-15",
               "at": "2014-06-15T10:30:00Z", "wall": "2014-06-15T10:30:00", "mixed": 1, "tags": ["a"], "place": {"city": "Oslo"},
               "nothing": null, "name": "Zoë"},
              {"zip": "10001", "count": -42, "ratio": 2.5, "big": 123456789012345678901234567890, "flag": false,
               "day": "2014-06-16", "at": "2014-06-15T12:30:00+02:00", "wall": "2014-06-16", "mixed": "one",
               "tags": [], "place": null, "nothing": null},
              {"later": "only here", "count": null}
            ]
            """, to: "values.json")
        for (db, keep) in try databases() {
            _ = keep
            let run = try succeed(["load", path], db: db)
            XCTAssertTrue(run.stderr.hasPrefix("Loaded 3 rows into values (14 columns) from \(path)"), run.stderr)
            XCTAssertEqual(try types("values", db: db), [
                "zip=text", "count=integer", "ratio=double", "big=decimal", "flag=boolean", "day=date", "at=timestamp",
                "wall=floating_timestamp", "mixed=text", "tags=json", "place=json", "nothing=text", "name=text", "later=text",
            ], db)
            XCTAssertEqual(try csv("SELECT zip, count, mixed, name, day, big FROM \"values\" WHERE count = 1", db: db),
                           ["zip,count,mixed,name,day,big", "09799,1,1,Zoë,2014-06-15,1"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM \"values\" WHERE count IS NULL AND later = 'only here'", db: db).last, "1", db)
            XCTAssertEqual(try csv("SELECT zip, mixed FROM \"values\" WHERE count IS NOT NULL ORDER BY count", db: db),
                           ["zip,mixed", "10001,one", "09799,1"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM \"values\" WHERE at = (SELECT min(at) FROM \"values\")", db: db).last, "2", db)
        }
    }

    func testTheLayoutsAndWhatIsRefused() throws {
        let db = directory.path("layouts.sqlite")
        let lines = try write("{\"a\": 1}\n\n{\"a\": 2, \"b\": \"x\"}\r\n{\"a\": 3}", to: "lines.ndjson")
        try succeed(["load", lines], db: db)
        XCTAssertEqual(try csv("SELECT a, b FROM lines ORDER BY a", db: db), ["a,b", "1,", "2,x", "3,"])
        let one = try write("{\"a\": 1}\n", to: "one.json")
        let refused = try socload(["load", one], db: db)
        XCTAssertEqual(refused.status, 65)
        XCTAssertTrue(refused.stderr.contains("the document is one object (keys \"a\"), not records"), refused.stderr)
        try succeed(["load", one, "--lines"], db: db)
        XCTAssertEqual(try csv("SELECT a FROM one", db: db), ["a", "1"])
        let rowsJSON = try socload(["load", Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path], db: db)
        XCTAssertEqual(rowsJSON.status, 65)
        XCTAssertTrue(rowsJSON.stderr.contains("a rows.json export, which socload fetch loads"), rowsJSON.stderr)
        let envelope = try write(#"{"count": 2, "results": [{"a": 1}, {"a": 2}], "next": {"page": [1, 2]}}"#, to: "envelope.json")
        try succeed(["load", envelope, "--root", "results"], db: db)
        XCTAssertEqual(try csv("SELECT a FROM envelope ORDER BY a", db: db), ["a", "1", "2"])
        for (arguments, message) in [
            (["--root", "nope"], "--root nope: the top-level object has no member \"nope\""),
            (["--root", "count"], "--root count: the member \"count\" is not an array"),
        ] {
            let run = try socload(["load", envelope] + arguments, db: db)
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertTrue(run.stderr.contains(message), run.stderr)
        }
        let empty = try socload(["load", try write("  \n", to: "empty.json")], db: db)
        XCTAssertEqual(empty.status, 65)
        XCTAssertTrue(empty.stderr.contains("the document is empty"), empty.stderr)
        let scalars = try socload(["load", try write("[{\"a\": 1}, 2]", to: "scalars.json")], db: db)
        XCTAssertEqual(scalars.status, 65)
        XCTAssertTrue(scalars.stderr.contains("record 2 is a number, not an object"), scalars.stderr)
        let stdin = try socload(["load", "-"], db: db, stdin: Data("[{\"a\": 1}]".utf8))
        XCTAssertEqual(stdin.status, 64)
        XCTAssertTrue(stdin.stderr.contains("standard input has no name to call the table by: pass --table NAME"), stdin.stderr)
        let piped = try succeed(["load", "-", "--table", "piped"], db: db, stdin: Data("{\"a\": 5}\n{\"a\": 6}\n".utf8))
        XCTAssertTrue(piped.stderr.hasPrefix("Copying standard input to a temporary file first"), piped.stderr)
        XCTAssertEqual(try csv("SELECT sum(a) FROM piped", db: db), ["sum(a)", "11"])
    }

    func testABadLineOrADeepRecordIsNamedAndChangesNothing() throws {
        for (db, keep) in try databases() {
            _ = keep
            let good = try write("{\"a\": 1}\n{\"a\": 2}\n", to: "data.ndjson")
            try succeed(["load", good], db: db)
            let bad = try write("{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3,,}\n{\"a\": 4}\n", to: "data.ndjson")
            let run = try socload(["load", bad], db: db)
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertTrue(run.stderr.contains("Error: \(bad): line 3: malformed JSON: unexpected ',' at byte 9; data was not changed"),
                          run.stderr)
            let deep = String(repeating: "{\"x\": ", count: 40) + "1" + String(repeating: "}", count: 40)
            let tooDeep = try socload(["load", try write("[{\"a\": 1}, \(deep)]", to: "data.ndjson")], db: db)
            XCTAssertEqual(tooDeep.status, 65, tooDeep.stderr)
            XCTAssertTrue(tooDeep.stderr.contains("record 2 is nested more than 32 levels deep"), tooDeep.stderr)
            let truncated = try socload(["load", try write("{\"a\": 1}\n{\"a\": 2\n", to: "data.ndjson")], db: db)
            XCTAssertEqual(truncated.status, 65, truncated.stderr)
            XCTAssertTrue(truncated.stderr.contains("line 2: the object does not end"), truncated.stderr)
            XCTAssertEqual(try csv("SELECT a FROM data ORDER BY a", db: db), ["a", "1", "2"], db)
        }
    }

    func testASavedSODAPageWithItsMetadataEqualsTheSameRowsFetchedThroughSODA() throws {
        let portal = try LookupTests.nominationsPortal()
        defer { portal.stop() }
        let page = directory.path("nominations-page.json")
        try Data(portal.soda2PageBody(offset: 0, limit: 1_000)).write(to: URL(fileURLWithPath: page))
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["fetch", "nomi-0001", "--domain", portal.baseURL, "--api", "soda2", "--quiet"], db: db)
            try succeed(["load", page, "--metadata", "\(portal.baseURL)/api/views/nomi-0001.json", "--table", "saved"], db: db)
            let fetched = try csv("SELECT * FROM nomi_0001 ORDER BY _id", db: db)
            XCTAssertEqual(fetched.count, 301)
            XCTAssertEqual(try csv("SELECT * FROM saved ORDER BY _id", db: db), fetched, db)
            XCTAssertEqual(try types("saved", db: db), try types("nomi_0001", db: db), db)
            // Keyed by :id as _id: a repeated id is a duplicate key.
            let schema = try succeed(["schema", "saved", "--format", "csv"], db: db).stdout
            XCTAssertTrue(schema.contains("\r\n_id,") && schema.split(whereSeparator: \.isNewline)[1].contains(",1,text"), schema)
            // Straight from the portal's URL, without metadata: inferred (SODA gives numbers as strings).
            let url = "\(portal.baseURL)/resource/nomi-0001.json?$select=:*,%20*&$limit=1000&$order=:id"
            let run = try succeed(["load", url, "--table", "inferred"], db: db)
            XCTAssertTrue(run.stderr.contains("Copying \(url) to a temporary file first"), run.stderr)
            XCTAssertEqual(try csv("SELECT _id, name, agency FROM inferred ORDER BY _id", db: db),
                           try csv("SELECT _id, name, agency FROM nomi_0001 ORDER BY _id", db: db), db)
        }
    }

    func testHostileKeysAndNamesAreQuoted() throws {
        let keys = ["a\"b", "'); DROP TABLE x; --", "", "Ünïcödé key", String(repeating: "long", count: 30), "id", "ID"]
        let object = { (value: Int) -> String in
            "{" + keys.enumerated().map { "\"\($0.element.replacingOccurrences(of: "\"", with: "\\\""))\": \(value + $0.offset)" }
                .joined(separator: ", ") + "}"
        }
        let path = try write("[\(object(1)), \(object(100))]", to: "hostile.json")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", path, "--table", "t\"; DROP TABLE y; --", "--pk", "id"], db: db)
            let columns = try succeed(["query", "SELECT * FROM \"t\"\"; DROP TABLE y; --\" ORDER BY id", "--format", "csv"], db: db)
            let lines = columns.stdout.split(whereSeparator: \.isNewline)
            guard lines.count == 3 else { return XCTFail(columns.stdout + columns.stderr) }
            XCTAssertTrue(lines[0].hasPrefix("\"a\"\"b\",'); DROP TABLE x; --,column_3,Ünïcödé key,long"), String(lines[0]))
            XCTAssertTrue(lines[0].hasSuffix(",id,ID_2"), String(lines[0]))
            XCTAssertTrue(lines[1].hasPrefix("1,2,3,4,5,6,7"), String(lines[1]))
        }
    }

    static let committees = """
        [{"id": "C1", "name": "Budget", "members": [{"leg_id": "L1", "role": "chair", "name": "Ana Åström"},
                                                    {"leg_id": "L2", "role": "member", "name": "Bo"}]},
         {"id": "C2", "name": "Roads", "members": []},
         {"id": "C3", "name": "Parks", "members": [{"leg_id": "L1", "role": "member", "name": "Ana Åström",
                                                    "terms": [{"from": 2019}]}]},
         {"id": "C4", "name": "Ports"}]
        """

    func testArraysOfObjectsBecomeAChildTableKeyedByTheParent() throws {
        for (db, keep) in try databases() {
            _ = keep
            let path = try write(Self.committees, to: "committees.json")
            // Without a key for the parent, the arrays stay JSON text, and the summary says why.
            let keyless = try succeed(["load", path], db: db)
            XCTAssertTrue(keyless.stderr.contains("Warning: members holds arrays of objects, kept as JSON text: child tables need "
                                                  + "the key of committees (--pk, or :id in the records)"), keyless.stderr)
            XCTAssertEqual(try types("committees", db: db), ["id=text", "name=text", "members=json"], db)

            let run = try succeed(["load", path, "--pk", "id"], db: db)
            XCTAssertTrue(run.stderr.contains("Loaded 4 rows into committees (2 columns)") && run.stderr.contains("and 3 rows into "
                                                                                                                + "committees_members"),
                          run.stderr)
            XCTAssertEqual(try csv("SELECT committees_id, position, leg_id, role, name FROM committees_members "
                                   + "ORDER BY committees_id, position", db: db),
                           ["committees_id,position,leg_id,role,name", "C1,1,L1,chair,Ana Åström", "C1,2,L2,member,Bo",
                            "C3,1,L1,member,Ana Åström"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM committees_members WHERE terms IS NOT NULL", db: db).last, "1", db)
            XCTAssertEqual(try types("committees_members", db: db),
                           ["committees_id=text", "position=integer", "leg_id=text", "role=text", "name=text", "terms=json"], db)
            let keyColumns = try succeed(["schema", "committees_members", "--format", "csv"], db: db).stdout
                .split(whereSeparator: \.isNewline).filter { $0.contains(",1,") || $0.contains(",2,") }.map { String($0.prefix { $0 != "," }) }
            XCTAssertEqual(keyColumns, ["committees_id", "position"], db)
            // The parent's key is a foreign key: a member of no committee is refused where the
            // database enforces it (PostgreSQL).
            if db.hasPrefix("postgres") {
                let orphan = try socload(["query", "--write", "INSERT INTO committees_members (committees_id, position) VALUES ('C9', 1)"],
                                         db: db)
                XCTAssertNotEqual(orphan.status, 0, db)
            }
            // Keyed by the members' own id: a refresh that drops a membership drops its row.
            let fewer = try write(Self.committees.replacingOccurrences(of: #"{"leg_id": "L2", "role": "member", "name": "Bo"}"#,
                                                                       with: #"{"leg_id": "L3", "role": "clerk"}"#), to: "committees.json")
            try succeed(["load", fewer, "--pk", "id", "--child-key", "members:leg_id"], db: db)
            XCTAssertEqual(try csv("SELECT committees_id, leg_id, role FROM committees_members ORDER BY committees_id, leg_id", db: db),
                           ["committees_id,leg_id,role", "C1,L1,chair", "C1,L3,clerk", "C3,L1,member"], db)
            // Two elements of one parent with the same id are a duplicate key, and change nothing.
            let twice = try write(Self.committees.replacingOccurrences(of: "\"L2\"", with: "\"L1\""), to: "committees.json")
            let duplicate = try socload(["load", twice, "--pk", "id", "--child-key", "members:leg_id"], db: db)
            XCTAssertEqual(duplicate.status, 65, duplicate.stderr)
            XCTAssertTrue(duplicate.stderr.contains("duplicate key (committees_id, leg_id) = (\"C1\", \"L1\") in committees_members"),
                          duplicate.stderr)
            XCTAssertEqual(try csv("SELECT count(*) FROM committees_members", db: db).last, "3", db)
            let unknown = try socload(["load", fewer, "--pk", "id", "--child-key", "members:nope"], db: db)
            XCTAssertEqual(unknown.status, 64, unknown.stderr)
            XCTAssertTrue(unknown.stderr.contains("--child-key members:nope: the objects under members have no field 'nope'"),
                          unknown.stderr)
        }
    }

    func testFlattenMakesColumnsOfNestedObjects() throws {
        let path = try write(#"""
            [{"id": 1, "address": {"city": "Oslo", "geo": {"lat": 59.9, "lon": 10.7}}, "address_city": "taken"},
             {"id": 2, "address": null},
             {"id": 3, "address": {"city": "Bergen", "zip": "05003"}}]
            """#, to: "places.json")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", path, "--flatten"], db: db)
            XCTAssertEqual(try types("places", db: db), ["id=integer", "address_city_2=text", "address_geo_lat=double",
                                                        "address_geo_lon=double", "address_city=text", "address_zip=text"], db)
            XCTAssertEqual(try csv("SELECT id, address_city, address_city_2, address_zip FROM places ORDER BY id", db: db),
                           ["id,address_city,address_city_2,address_zip", "1,taken,Oslo,", "2,,,", "3,,Bergen,05003"], db)
        }
    }

    func testChildTablesGoWithTheirFieldAndWithTheirParent() throws {
        for (db, keep) in try databases() {
            _ = keep
            let path = try write(Self.committees, to: "committees.json")
            try succeed(["load", path, "--pk", "id"], db: db)
            XCTAssertEqual(try csv("SELECT count(*) FROM committees_members", db: db).last, "3", db)
            // The field is gone from the document: its child table goes too.
            try succeed(["load", try write(#"[{"id": "C1", "name": "Budget"}]"#, to: "committees.json"), "--pk", "id"], db: db)
            let gone = try socload(["query", "SELECT count(*) FROM committees_members"], db: db)
            XCTAssertNotEqual(gone.status, 0, db)
            // And socload drop takes the child tables with the parent.
            try succeed(["load", path, "--pk", "id"], db: db)
            try succeed(["drop", "committees"], db: db)
            let dropped = try socload(["query", "SELECT count(*) FROM committees_members"], db: db)
            XCTAssertNotEqual(dropped.status, 0, db)
        }
    }
}
