import Foundation
import SocloadCore
import SocloadDatabase
import XCTest

/// Records updated by their key, rows deleted and counted by a `RowFilter`, typed row access,
/// and values that print as people read them.
final class RecordUpdateTests: XCTestCase {
    struct Agency: Codable, Equatable {
        var id: Int64?
        var name: String
        var nominations: Int
        var founded: Date?
    }

    private func makeDatabase() throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table agencies (id integer primary key, name text not null unique, nominations integer, founded text)")
        for (name, count) in [("State", 3), ("Defense", 0), ("Énergie", 7), ("Labor", 0)] {
            try db.insert(Agency(id: nil, name: name, nominations: count, founded: nil), into: "agencies")
        }
        return db
    }

    func testUpdateWritesTheRecordOverTheRowItsKeyFinds() throws {
        let db = try makeDatabase()
        let founded = Date(timeIntervalSince1970: 1_000_000_000)
        XCTAssertEqual(try db.update(Agency(id: nil, name: "State", nominations: 4, founded: founded), in: "agencies", by: ["name"]), 1)
        let state = try XCTUnwrap(try db.fetchAll(Agency.self, from: "agencies", where: .equals("name", "State")).first)
        XCTAssertEqual(state, Agency(id: 1, name: "State", nominations: 4, founded: founded), "the id a nil id leaves is kept")
        XCTAssertEqual(try db.update(Agency(id: nil, name: "Nobody", nominations: 1, founded: nil), in: "agencies", by: ["name"]), 0)
        // By the id: the name changes.
        XCTAssertEqual(try db.update(Agency(id: 2, name: "Defence", nominations: 1, founded: nil), in: "agencies", by: ["id"]), 1)
        XCTAssertEqual(try db.fetchValue(sql: "select name from agencies where id = 2"), .text("Defence"))

        struct Stray: Encodable { var name: String; var budget: Int }
        XCTAssertThrowsError(try db.update(Stray(name: "State", budget: 9), in: "agencies", by: ["name"])) { error in
            XCTAssertEqual(error as? RecordWriteError,
                           .noSuchColumn(property: "budget", table: "agencies", columns: ["id", "name", "nominations", "founded"]))
        }
        XCTAssertThrowsError(try db.update(state, in: "agencies", by: ["acronym"])) { error in
            XCTAssertEqual(error as? RecordWriteError, .keyNotInRecord(column: "acronym", table: "agencies"))
        }
        XCTAssertEqual(try db.fetchValue(sql: "select nominations from agencies where name = 'State'"), .integer(4), "nothing changed")
    }

    func testDeleteAndCountTakeAPredicate() throws {
        let db = try makeDatabase()
        XCTAssertEqual(try db.count(in: "agencies"), 4)
        XCTAssertEqual(try db.count(in: "agencies", matching: .greaterThan("nominations", 2)), 2)
        XCTAssertEqual(try db.count(in: "agencies", matching: .contains("name", "energie", caseInsensitive: true,
                                                                        diacriticInsensitive: true)), 1)
        XCTAssertEqual(try db.delete(from: "agencies", matching: .equals("nominations", 0)), 2)
        XCTAssertEqual(try db.fetchAll(String.self, sql: "select name from agencies order by id"), ["State", "Énergie"])
        XCTAssertThrowsError(try db.delete(from: "agencies", matching: .equals("budget", 0))) { error in
            XCTAssertEqual("\(error)", "\(SelectError.unknownColumn("budget", table: "agencies", columns: ["id", "name", "nominations", "founded"]))")
        }
        XCTAssertThrowsError(try db.count(in: "nowhere"))
        XCTAssertEqual(try db.count(in: "agencies"), 2, "a refused delete deletes nothing")
        XCTAssertEqual(try db.delete(from: "agencies", matching: .all([])), 2)
        XCTAssertEqual(try db.count(in: "agencies"), 0)
    }

    func testRowsReadTypedByColumnName() throws {
        let db = try makeDatabase()
        let rows = try db.fetchRows(sql: "select name, nominations, founded, 'x' as Odd from agencies order by id")
        let first = rows[0]
        let name: String? = try first["name"]
        XCTAssertEqual(name, "State")
        XCTAssertEqual(try first["NOMINATIONS"] as Int?, 3, "names match as SQLite matches them")
        XCTAssertNil(try first["founded"] as Date?, "NULL is nil")
        XCTAssertEqual(try first.decode(Int64.self, column: "nominations"), 3)
        XCTAssertThrowsError(try first.decode(Date.self, column: "founded")) { error in
            XCTAssertTrue("\(error)".contains("column 'founded', row 0: cannot decode NULL as Date"), "\(error)")
        }
        XCTAssertThrowsError(try rows[2]["name"] as Int?) { error in
            XCTAssertEqual("\(error)", "column 'name', row 2: cannot decode TEXT as Int")
        }
        XCTAssertThrowsError(try first["missing"] as String?) { error in
            XCTAssertEqual(error as? RowDecodingError,
                           .missingColumn(column: "missing", availableColumns: ["name", "nominations", "founded", "Odd"], row: 0))
        }
        XCTAssertEqual("\(first)", #"[name: "State", nominations: 3, founded: NULL, Odd: "x"]"#)
    }

    func testValuesPrintAsPeopleReadThem() {
        XCTAssertEqual("\(DatabaseValue.text("State"))", #""State""#)
        XCTAssertEqual("\(DatabaseValue.text("say \"hi\""))", #""say \"hi\"""#)
        XCTAssertEqual("\(DatabaseValue.integer(42))", "42")
        XCTAssertEqual("\(DatabaseValue.real(3.5))", "3.5")
        XCTAssertEqual("\(DatabaseValue.null)", "NULL")
        XCTAssertEqual("\(DatabaseValue.blob(Data([1, 2, 3])))", "<blob of 3 bytes>")
        XCTAssertEqual("\([DatabaseValue.text("a"), .null])", #"["a", NULL]"#)
    }

    func testAReadAfterCloseSaysTheDatabaseIsClosed() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path("a.sqlite"))
        try queue.write { db in try db.execute(sql: "create table t(a)") }
        queue.close()
        for attempt in [{ _ = try queue.read { db in try db.fetchValue(sql: "select 1") } },
                        { _ = try queue.write { db in try db.execute(sql: "insert into t values (1)") } }] {
            XCTAssertThrowsError(try attempt()) { error in
                XCTAssertTrue("\(error)".contains("a.sqlite is closed (its DatabaseQueue's close() ran)"), "\(error)")
                XCTAssertFalse("\(error)".contains("PRAGMA"), "\(error)")
            }
        }
    }
}
