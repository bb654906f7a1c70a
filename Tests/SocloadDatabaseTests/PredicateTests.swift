import Foundation
import SocloadDatabase
import XCTest

final class PredicateTests: XCTestCase {
    private typealias P = RowFilter

    func testSQLAndBindingsForCombinations() {
        let cases: [(P, String?, [DatabaseValue])] = [
            (.equals("a", 1), #""a" = ?"#, [1]),
            (.notEquals("a", "x"), #""a" <> ?"#, ["x"]),
            (.lessThan("n", 5), #""n" < ?"#, [5]),
            (.greaterThanOrEqual("n", 2.5), #""n" >= ?"#, [2.5]),
            (.lessThanOrEqual("d", "2015-10-29"), #""d" < ?"#, ["2015-10-30"]),
            (.lessThanOrEqual("d", "2015-12-31"), #""d" < ?"#, ["2016-01-01"]),
            // A timestamp bound includes its whole second, so the stored "...12:00:00Z" and "...12:00:00.5" match.
            (.lessThanOrEqual("d", "2015-10-29T12:00:00"), #""d" < ?"#, ["2015-10-29T12:00:01"]),
            (.in("c", ["x", "y", "z"]), #""c" IN (?, ?, ?)"#, ["x", "y", "z"]),
            (.in("c", []), nil, []),
            (.between("n", 1, 9), #""n" BETWEEN ? AND ?"#, [1, 9]),
            (.between("d", "2015-10-01", "2015-10-29"), #""d" >= ? AND "d" < ?"#, ["2015-10-01", "2015-10-30"]),
            (.isNull("n"), #""n" IS NULL"#, []),
            (.related("a_id", to: "a\"b", where: .in("a", ["x", "y"])), #""a_id" IN (SELECT "id" FROM "a""b" WHERE "a" IN (?, ?))"#, ["x", "y"]),
            (.related("a_id", to: "a", where: .in("a", [])), nil, []),
            (.contains("t", "50%_off"), #"instr("t", ?) > 0"#, ["50%_off"]),
            (.contains("t", "Café", caseInsensitive: true, diacriticInsensitive: true), #"instr(fold("t", 3), ?) > 0"#, ["cafe"]),
            (.contains("t", "Café", caseInsensitive: true), #"instr(fold("t", 1), ?) > 0"#, ["café"]),
            (.beginsWith("t", "ab"), #"instr("t", ?) = 1"#, ["ab"]),
            (.endsWith("t", "Zürich", diacriticInsensitive: true), #"substr(fold("t", 2), -?) = ?"#, [6, "Zurich"]),
            (.endsWith("t", ""), #""t" IS NOT NULL"#, []),
            (.like("t", "a\\%%"), #""t" LIKE ? ESCAPE '\'"#, ["a\\%%"]),
            (.equals("a", 1) && .in("b", [2, 3]), #""a" = ? AND "b" IN (?, ?)"#, [1, 2, 3]),
            (.equals("a", 1) || .equals("b", 2) || .isNull("c"), #""a" = ? OR "b" = ? OR "c" IS NULL"#, [1, 2]),
            ((.equals("a", 1) || .equals("b", 2)) && .equals("c", 3), #"("a" = ? OR "b" = ?) AND "c" = ?"#, [1, 2, 3]),
            (!(.equals("a", 1) && .isNull("b")), #"NOT ("a" = ? AND "b" IS NULL)"#, [1]),
            (.all([.in("a", []), .equals("b", 1), .in("c", [])]), #""b" = ?"#, [1]),
            (.any([.in("a", []), .in("c", [])]), nil, []),
            (.all([]), nil, []),
            (.between("n", 1, 2) && .equals("m", 3), #"("n" BETWEEN ? AND ?) AND "m" = ?"#, [1, 2, 3]),
            (.equals("we\"ird; --col", "x'); DROP TABLE t; --"), #""we""ird; --col" = ?"#, ["x'); DROP TABLE t; --"]),
        ]
        for (predicate, sql, arguments) in cases {
            let fragment = predicate.sql()
            XCTAssertEqual(fragment?.sql, sql, "\(predicate)")
            XCTAssertEqual(fragment?.arguments ?? [], arguments, "\(predicate)")
        }
    }

    func testSelectQueryChecksColumnsAndBuildsOrderAndLimit() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table t(a, b, \"c d\")")
        let query = try db.selectQuery(from: "t", columns: ["b", "c d"], where: .equals("A", 1), orderBy: ["b", "-c d"], limit: 10)
        XCTAssertEqual(query.sql, #"SELECT "b", "c d" FROM "t" WHERE "A" = ? ORDER BY "b" NULLS LAST, "c d" DESC NULLS LAST LIMIT ?"#)
        XCTAssertEqual(query.arguments, [1, 10])
        XCTAssertThrowsError(try db.selectQuery(from: "t", where: .equals("nope", 1))) { error in
            XCTAssertEqual("\(error)", "no column 'nope' in t; its columns are: a, b, c d")
        }
        XCTAssertThrowsError(try db.selectQuery(from: "t", orderBy: ["-zz"])) { error in
            XCTAssertEqual(error as? SelectError, .unknownColumn("zz", table: "t", columns: ["a", "b", "c d"]))
        }
        XCTAssertThrowsError(try db.selectQuery(from: "missing")) { error in
            XCTAssertEqual(error as? SelectError, .unknownTable("missing"))
        }
    }

    // MARK: - Results

    struct Place: Decodable, Equatable {
        var id: Int
        var name: String?
        var category: String?
        var note: String?
        var seen: String?
    }

    private func placesDatabase() throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table places(id integer, name text, category text, note text, seen text)")
        let rows: [StatementArguments] = [
            [1, "Café de Flore", "cafe", "Best CAFÉ in Paris", "2015-10-01T08:00:00"],
            [2, "Zürich HB", "station", "ZURICH main station", "2015-10-29T23:59:59"],
            [3, "Straße 12", "street", "Große Straße", "2015-10-30T00:00:00"],
            [4, "東京駅", "station", "Tokyo 東京 station", "2015-10-29"],
            [5, "Αθήνα", "city", "ΑΘΗΝΑ capital", nil],
            [6, nil, nil, "50%_off sale", "2015-09-30T23:59:59"],
            [7, "O'Brien's \"Pub\"", "pub", "it's a 100% pub", "2015-10-15T12:00:00"],
        ]
        for row in rows { try db.execute(sql: "insert into places values (?, ?, ?, ?, ?)", arguments: row) }
        return db
    }

    private func ids(_ db: Database, _ predicate: P) throws -> [Int] {
        try db.fetchAll(Place.self, from: "places", where: predicate, orderBy: ["id"]).map(\.id)
    }

    func testARelatedPredicateFiltersThroughTheOtherTableAndChecksItsColumns() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE agency (id INTEGER PRIMARY KEY, agency TEXT)")
        try db.execute(sql: "CREATE TABLE t (name TEXT, agency_id INTEGER)")
        try db.execute(sql: "INSERT INTO agency VALUES (1, 'State'), (2, 'Defense'), (3, 'Commerce')")
        try db.execute(sql: "INSERT INTO t VALUES ('a', 1), ('b', 2), ('c', 3), ('d', NULL), ('e', 1)")
        let query = try db.selectQuery(from: "t", columns: ["name"], where: .related("agency_id", to: "agency",
                                                                                   where: .in("agency", ["State", "Commerce"])),
                                       orderBy: ["name"])
        XCTAssertEqual(try db.fetchAll(String.self, sql: query.sql, arguments: StatementArguments(positional: query.arguments)),
                       ["a", "c", "e"])
        XCTAssertThrowsError(try db.selectQuery(from: "t", where: .related("agency_id", to: "agency", where: .equals("nope", 1)))) {
            XCTAssertEqual("\($0)", "no column 'nope' in agency; its columns are: id, agency")
        }
        XCTAssertThrowsError(try db.selectQuery(from: "t", where: .related("agency_id", to: "nowhere", where: .equals("x", 1))))
    }

    /// A `Date` inside `.related` meets the other table's column in that column's own form, as
    /// it does on the table itself: equality and both bounds of `between` find the rows a string finds.
    func testADateInARelatedPredicateMeetsTheOtherTablesForm() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE term (id INTEGER PRIMARY KEY, starts TEXT, day TEXT)")
        try db.execute(sql: "CREATE TABLE t (name TEXT, term_id INTEGER)")
        try db.execute(sql: "INSERT INTO term VALUES (1, '2013-02-01T00:00:00', '2013-02-01'), (2, '2013-03-01T12:00:00', '2013-03-01')")
        try db.execute(sql: "INSERT INTO t VALUES ('a', 1), ('b', 2), ('c', 1)")
        let february = Date(timeIntervalSince1970: 1_359_676_800) // 2013-02-01T00:00:00Z
        let march = Date(timeIntervalSince1970: 1_362_139_200)    // 2013-03-01T12:00:00Z
        func names(_ predicate: RowFilter) throws -> [String] {
            let query = try db.selectQuery(from: "t", columns: ["name"], where: .related("term_id", to: "term", where: predicate),
                                           orderBy: ["name"])
            return try db.fetchAll(String.self, sql: query.sql, arguments: StatementArguments(positional: query.arguments))
        }
        XCTAssertEqual(try names(.equals("starts", february)), ["a", "c"])
        XCTAssertEqual(try names(.equals("starts", february)), try names(.equals("starts", "2013-02-01T00:00:00")))
        XCTAssertEqual(try names(.equals("day", february)), ["a", "c"])
        XCTAssertEqual(try names(.between("starts", february, march)), ["a", "b", "c"])
        XCTAssertEqual(try names(.greaterThanOrEqual("starts", march)), ["b"])
    }

    func testCaseAndDiacriticInsensitiveMatchingOfNonASCIIText() throws {
        let db = try placesDatabase()
        XCTAssertEqual(try ids(db, .contains("note", "cafe", caseInsensitive: true, diacriticInsensitive: true)), [1])
        XCTAssertEqual(try ids(db, .contains("name", "ZURICH", caseInsensitive: true, diacriticInsensitive: true)), [2])
        XCTAssertEqual(try ids(db, .contains("note", "zurich", caseInsensitive: true)), [2])
        XCTAssertEqual(try ids(db, .contains("name", "zurich", caseInsensitive: true)), [], "ü is not u without diacriticInsensitive")
        XCTAssertEqual(try ids(db, .contains("note", "strasse", caseInsensitive: true, diacriticInsensitive: true)), [3],
                       "ß folds to ss")
        XCTAssertEqual(try ids(db, .contains("note", "αθηνα", caseInsensitive: true, diacriticInsensitive: true)), [5])
        XCTAssertEqual(try ids(db, .contains("name", "αθηνα", caseInsensitive: true, diacriticInsensitive: true)), [5])
        XCTAssertEqual(try ids(db, .contains("note", "東京")), [4])
        XCTAssertEqual(try ids(db, .beginsWith("name", "caf", caseInsensitive: true)), [1])
        XCTAssertEqual(try ids(db, .endsWith("note", "STATION", caseInsensitive: true)), [2, 4])
        XCTAssertEqual(try ids(db, .contains("note", "cafe")), [], "case-sensitive by default")
    }

    func testLikeWildcardsInContainsMatchLiterally() throws {
        let db = try placesDatabase()
        XCTAssertEqual(try ids(db, .contains("note", "50%_off")), [6])
        XCTAssertEqual(try ids(db, .contains("note", "%")), [6, 7])
        XCTAssertEqual(try ids(db, .contains("note", "_")), [6])
        XCTAssertEqual(try ids(db, .like("note", "%100\\%%")), [7])
        XCTAssertEqual(try ids(db, .equals("name", "O'Brien's \"Pub\"")), [7])
        XCTAssertEqual(try ids(db, .contains("name", "'; DROP TABLE places; --")), [])
        XCTAssertEqual(try db.fetchValue(sql: "select count(*) from places"), .integer(7))
    }

    func testEmptyListsNullsAndDateEdges() throws {
        let db = try placesDatabase()
        let stations: [String] = ["station"]
        let none: [String] = []
        XCTAssertEqual(try ids(db, .in("category", stations) && .in("name", none)), [2, 4], "an empty list is no condition")
        XCTAssertEqual(try ids(db, .in("category", none)), [1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(try ids(db, .isNull("category")), [6])
        // Equal to nil is IS NULL, unequal to nil IS NOT NULL (`= NULL` would match nothing).
        let missing: String? = nil
        XCTAssertEqual(try ids(db, .equals("category", missing)), [6])
        XCTAssertEqual(try ids(db, .equals("category", DatabaseValue.null)), [6])
        XCTAssertEqual(try ids(db, .notEquals("category", missing)), [1, 2, 3, 4, 5, 7])
        XCTAssertEqual(try ids(db, !.isNull("seen") && .notEquals("category", "station")), [1, 3, 7],
                       "like SQL, a NULL category is neither equal nor unequal")
        XCTAssertEqual(try ids(db, .between("seen", "2015-10-01", "2015-10-29")), [1, 2, 4, 7], "the whole of Oct 29, not Oct 30")
        XCTAssertEqual(try ids(db, .lessThanOrEqual("seen", "2015-09-30")), [6])
        XCTAssertEqual(try ids(db, .greaterThanOrEqual("seen", "2015-10-30")), [3])
        XCTAssertEqual(try ids(db, .lessThan("seen", "2015-10-01")), [6])
    }

    func testFetchThroughAQueueMapsOntoCodableTypes() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path("p.sqlite"))
        try queue.write { db in
            try db.execute(sql: "create table events(category text, note text, start_time text)")
            try db.execute(sql: "insert into events values ('music', 'Concert at the Café', '2015-10-02'), "
                           + "('music', 'cafe jazz', '2015-10-01'), ('sport', 'café run', '2015-10-03')")
        }
        struct Event: Decodable, Equatable { var category: String; var note: String; var start_time: String }
        let cats = ["music"]
        let events = try queue.read { db in
            try db.fetchAll(Event.self, from: "events",
                            where: .in("category", cats) && .contains("note", "cafe", caseInsensitive: true, diacriticInsensitive: true),
                            orderBy: ["start_time"], limit: 100)
        }
        XCTAssertEqual(events.map(\.note), ["cafe jazz", "Concert at the Café"])
    }
}
