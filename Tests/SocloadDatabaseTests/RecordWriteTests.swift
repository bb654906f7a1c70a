import Foundation
import SocloadDatabase
import XCTest

/// Encodable records written by column name: insert, upsert by a key, find-or-create; every
/// value read back through the Codable reading side as it was written.
final class RecordWriteTests: XCTestCase {
    enum Status: String, Codable, Equatable { case pending, confirmed }
    struct Office: Codable, Equatable { var city: String; var floor: Int }

    struct Nomination: Codable, Equatable {
        var id: Int64?
        var name: String
        var votes: Int
        var share: Double
        var holdover: Bool
        var nominated: Date
        var note: String?
        var status: Status
        var office: Office
        var tags: [String]
        var website: URL
        var amount: Decimal
        var photo: Data
    }

    private func makeDatabase() throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute(sql: """
            create table nominations (id integer primary key, name text not null unique, votes integer, share real,
              holdover integer, nominated text, note text, status text, office text, tags text, website text,
              amount numeric, photo blob)
            """)
        return db
    }

    private func sample(_ name: String = "Ann Åström", note: String? = "first") -> Nomination {
        Nomination(id: nil, name: name, votes: 59, share: 0.625, holdover: true,
                   nominated: Date(timeIntervalSince1970: 1_400_000_000.5), note: note, status: .confirmed,
                   office: Office(city: "Zürich", floor: 3), tags: ["a", "b \"c\""], website: URL(string: "https://www.usda.gov/x?y=1")!,
                   amount: Decimal(string: "12.50")!, photo: Data([0, 1, 255]))
    }

    func testAnInsertedRecordReadsBackAsWritten() throws {
        let db = try makeDatabase()
        let rowID = try db.insert(sample(), into: "nominations")
        XCTAssertEqual(rowID, 1)
        let read = try XCTUnwrap(db.fetchOne(Nomination.self, sql: "select * from nominations"))
        var expected = sample()
        expected.id = 1
        XCTAssertEqual(read, expected)
        // Stored as the reading side and SQL expect them (the decimal's text, by NUMERIC affinity, as 12.5).
        XCTAssertEqual(try db.fetchRows(sql: "select holdover, nominated, status, office, tags, amount from nominations")[0].values,
                       [.integer(1), .text("2014-05-13T16:53:20.500Z"), .text("confirmed"), .text(#"{"city":"Zürich","floor":3}"#),
                        .text(#"["a","b \"c\""]"#), .real(12.5)])
    }

    /// A `Date` keeps its microseconds through SQLite's text: one on a microsecond reads back
    /// equal, `Date()` (finer) reads back within half a microsecond.
    func testADateKeepsItsMicroseconds() throws {
        let db = try makeDatabase()
        var record = sample()
        record.nominated = Date(timeIntervalSince1970: 1_764_787_271.437562)
        _ = try db.insert(record, into: "nominations")
        XCTAssertEqual(try db.fetchRows(sql: "select nominated from nominations")[0].values, [.text("2025-12-03T18:41:11.437562Z")])
        XCTAssertEqual(try db.fetchOne(Nomination.self, sql: "select * from nominations")?.nominated, record.nominated)
        let now = Date()
        record.name = "now"
        record.nominated = now
        _ = try db.insert(record, into: "nominations")
        let read = try XCTUnwrap(db.fetchOne(Date.self, sql: "select nominated from nominations where name = 'now'"))
        // Kept to the nearest microsecond: half a microsecond off at most, plus the Double's own
        // step at this magnitude (about 0.24 microseconds in 2026).
        XCTAssertEqual(read.timeIntervalSince1970, now.timeIntervalSince1970, accuracy: 0.000_000_5 + 2 * now.timeIntervalSince1970.ulp)
        XCTAssertEqual(try db.fetchOne(Date.self, sql: "select nominated from nominations where name = 'now'"), read, "stable")
    }

    func testUpsertUpdatesByTheKeyAndANilOptionalClearsItsColumn() throws {
        let db = try makeDatabase()
        try db.upsert(sample(), into: "nominations", by: ["name"])
        var changed = sample(note: nil)
        changed.votes = 61
        try db.upsert(changed, into: "nominations", by: ["name"])
        try db.upsert(sample("Bo"), into: "nominations", by: ["name"])
        XCTAssertEqual(try db.fetchRows(sql: "select id, name, votes, note from nominations order by id").map(\.values),
                       [[.integer(1), .text("Ann Åström"), .integer(61), .null], [.integer(2), .text("Bo"), .integer(59), .text("first")]],
                       "an id left nil keeps the row's id")
        XCTAssertThrowsError(try db.upsert(sample(), into: "nominations", by: ["votes"])) { error in
            XCTAssertEqual(error as? RecordWriteError, .notUnique(table: "nominations", columns: ["votes"]))
        }
    }

    func testFindOrCreateFindsTheExistingRowOrInsertsAndReturnsTheNewOne() throws {
        let db = try makeDatabase()
        let created = try db.findOrCreate(sample(), in: "nominations", by: ["name"])
        XCTAssertEqual(created.id, 1, "the row as stored, with the id the database gave it")
        var other = sample()
        other.votes = 1
        let found = try db.findOrCreate(other, in: "nominations", by: ["name"])
        XCTAssertEqual(found, created, "found, not overwritten")
        XCTAssertEqual(try db.fetchValue(sql: "select count(*) from nominations"), .integer(1))

        // A compound key with a NULL part matches NULL.
        struct Place: Codable, Equatable { var id: Int64?; var city: String; var state: String? }
        try db.execute(sql: "create table places (id integer primary key, city text, state text)")
        let first = try db.findOrCreate(Place(id: nil, city: "Paris", state: nil), in: "places", by: ["city", "state"])
        let again = try db.findOrCreate(Place(id: nil, city: "Paris", state: nil), in: "places", by: ["city", "state"])
        let texas = try db.findOrCreate(Place(id: nil, city: "Paris", state: "TX"), in: "places", by: ["city", "state"])
        XCTAssertEqual(first, again)
        XCTAssertNotEqual(first.id, texas.id)
    }

    func testErrorsNameTheColumnAndWriteNothing() throws {
        let db = try makeDatabase()
        struct Extra: Codable { var name: String; var nickname: String }
        XCTAssertThrowsError(try db.insert(Extra(name: "A", nickname: "B"), into: "nominations")) { error in
            guard case let .noSuchColumn(property, table, columns)? = error as? RecordWriteError else { return XCTFail("\(error)") }
            XCTAssertEqual(property, "nickname")
            XCTAssertEqual(table, "nominations")
            XCTAssertTrue(columns.contains("votes"))
            XCTAssertEqual("\(error)".prefix(60), "the property 'nickname' has no column in nominations; its co")
        }
        struct WrongType: Codable { var name: String; var votes: String }
        XCTAssertThrowsError(try db.insert(WrongType(name: "A", votes: "many"), into: "nominations")) { error in
            XCTAssertEqual(error as? RecordWriteError,
                           .typeMismatch(column: "votes", table: "nominations", declaredType: "INTEGER", problem: "the text many is not a number"))
        }
        XCTAssertNoThrow(try db.insert(WrongType(name: "B", votes: "42"), into: "nominations"))
        XCTAssertThrowsError(try db.insert("just a string", into: "nominations")) { error in
            XCTAssertEqual(error as? RecordWriteError, .notARecord("String"))
        }
        XCTAssertThrowsError(try db.insert(sample(), into: "nope")) { error in
            XCTAssertEqual(error as? RecordWriteError, .noSuchTable("nope"))
        }
        XCTAssertEqual(try db.fetchValue(sql: "select count(*) from nominations"), .integer(1))
    }

    func testHostileTableAndColumnNamesAreQuoted() throws {
        let db = try Database(path: ":memory:")
        let table = #"t"; DROP TABLE x; --"#
        try db.execute(sql: "create table x (a)")
        try db.execute(sql: "create table \(table.quotedDatabaseIdentifier) (\(#"we"ird"#.quotedDatabaseIdentifier) text unique, n integer)")
        struct Hostile: Codable, Equatable {
            var weird: String
            var n: Int
            enum CodingKeys: String, CodingKey { case weird = #"we"ird"#, n }
        }
        try db.insert(Hostile(weird: "'); DELETE FROM x; --", n: 1), into: table)
        try db.upsert(Hostile(weird: "'); DELETE FROM x; --", n: 2), into: table, by: [#"we"ird"#])
        XCTAssertEqual(try db.findOrCreate(Hostile(weird: "'); DELETE FROM x; --", n: 9), in: table, by: [#"we"ird"#]).n, 2)
        XCTAssertEqual(try db.fetchValue(sql: "select count(*) from sqlite_schema where name = 'x'"), .integer(1))
    }
}
