import Foundation
import SocloadDatabase
import XCTest

final class RowDecodingTests: XCTestCase {
    struct Address: Codable, Equatable {
        var street: String
        var zip: String?
    }

    enum Agency: String, Decodable {
        case state = "State"
        case defense = "Defense"
    }

    struct Everything: Decodable, Equatable {
        var text: String
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var double: Double
        var float: Float
        var flag: Bool
        var amount: Decimal
        var when: Date
        var link: URL
        var uuid: UUID
        var bytes: Data
        var missing: String?
        var nothing: Int?
        var address: Address
        var tags: [String]
        var agency: Agency
    }

    private func withDatabase(_ body: (Database) throws -> Void) throws {
        try body(try Database(path: ":memory:"))
    }

    func testEverySupportedTypeByColumnName() throws {
        try withDatabase { db in
            let sql = """
                select 'hello' as TEXT, 1 as int, -128 as int8, 32767 as int16, 2147483647 as int32,
                       9223372036854775807 as int64, 5 as uint, 255 as uint8, 65535 as uint16,
                       4294967295 as uint32, 9223372036854775807 as uint64, 2.5 as double, 1.5 as float,
                       1 as flag, '12345.6789' as amount, '2015-10-29T12:00:00' as "when",
                       'https://example.org/a?b=c' as link, '6BA7B810-9DAD-11D1-80B4-00C04FD430C8' as uuid,
                       x'00ff' as bytes, null as "nothing", '{"street":"1 Main St","zip":null}' as address,
                       '["a","b"]' as tags, 'State' as agency
                """
            let value = try XCTUnwrap(try db.fetchOne(Everything.self, sql: sql))
            XCTAssertEqual(value, Everything(
                text: "hello", int: 1, int8: -128, int16: 32767, int32: 2_147_483_647, int64: .max, uint: 5,
                uint8: 255, uint16: 65535, uint32: 4_294_967_295, uint64: 9_223_372_036_854_775_807,
                double: 2.5, float: 1.5, flag: true, amount: Decimal(string: "12345.6789")!,
                when: Date(timeIntervalSince1970: 1_446_120_000), link: URL(string: "https://example.org/a?b=c")!,
                uuid: UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!, bytes: Data([0, 255]),
                missing: nil, nothing: nil, address: Address(street: "1 Main St", zip: nil), tags: ["a", "b"],
                agency: .state))
        }
    }

    func testDatesFromEpochSecondsAndZones() throws {
        try withDatabase { db in
            let dates = try db.fetchAll(Date.self, sql: """
                select 1446120000 union all select 1446120000.5 union all select '2015-10-29T14:00:00+02:00'
                union all select '2015-10-29 12:00:00.5Z'
                """)
            XCTAssertEqual(dates.map(\.timeIntervalSince1970), [1_446_120_000, 1_446_120_000.5, 1_446_120_000,
                                                               1_446_120_000.5])
        }
    }

    func testSingleValuesComeFromTheFirstColumn() throws {
        try withDatabase { db in
            XCTAssertEqual(try db.fetchAll(String.self, sql: "select 'a', 1 union all select 'b', 2"), ["a", "b"])
            XCTAssertEqual(try db.fetchAll(Int?.self, sql: "select 1 union all select null"), [1, nil])
            XCTAssertEqual(try db.fetchAll(Agency.self, sql: "select 'Defense'"), [.defense])
        }
    }

    func testTopLevelStructsDecodeByColumnNotFromJSON() throws {
        try withDatabase { db in
            XCTAssertEqual(try db.fetchOne(Address.self, sql: "select '1 Main St' as street, '02139' as zip"),
                           Address(street: "1 Main St", zip: "02139"))
        }
    }

    func testColumnNamesAreCaseInsensitiveAndLeftmostWins() throws {
        struct Pair: Decodable, Equatable { var id: Int; var name: String }
        try withDatabase { db in
            let pair = try db.fetchOne(Pair.self, sql: "select 1 as ID, 'first' as Name, 2 as id, 'second' as name")
            XCTAssertEqual(pair, Pair(id: 1, name: "first"))
        }
    }

    func testMissingColumnNamesItAndListsTheOthers() throws {
        struct Nomination: Decodable { var name: String; var agency: String }
        try withDatabase { db in
            XCTAssertThrowsError(try db.fetchAll(Nomination.self, sql: "select 'Ann' as name, 1 as votes")) { error in
                XCTAssertEqual((error as? RowDecodingError)?.withoutStatement,
                               .missingColumn(column: "agency", availableColumns: ["name", "votes"], row: 0))
                XCTAssertEqual("\(error)", "no column 'agency' in row 0; the columns are: 'name', 'votes' - while reading `select 'Ann' as name, 1 as votes`")
            }
        }
    }

    func testTypeMismatchNamesColumnRowStoredTypeAndSwiftType() throws {
        struct Vote: Decodable { var name: String; var votes: Int }
        try withDatabase { db in
            let sql = "select 'a' as name, 1 as votes union all select 'b', 'many'"
            XCTAssertThrowsError(try db.fetchAll(Vote.self, sql: sql)) { error in
                XCTAssertEqual("\(error)", "column 'votes', row 1: cannot decode TEXT as Int - while reading `\(sql)`")
            }
            XCTAssertThrowsError(try db.fetchAll(Date.self, sql: "select 'yesterday' as day")) { error in
                XCTAssertEqual("\(error)", "column 'day', row 0: cannot decode TEXT as Date (not an ISO-8601 date) - while reading `select 'yesterday' as day`")
            }
            XCTAssertThrowsError(try db.fetchAll(String.self, sql: "select null as n")) { error in
                XCTAssertEqual("\(error)", "column 'n', row 0: cannot decode NULL as String - while reading `select null as n`")
            }
            XCTAssertThrowsError(try db.fetchAll(Bool.self, sql: "select 2 as b")) { error in
                XCTAssertEqual("\(error)", "column 'b', row 0: cannot decode INTEGER as Bool (2 is neither 0 nor 1) - while reading `select 2 as b`")
            }
            XCTAssertThrowsError(try db.fetchAll(Agency.self, sql: "select 'Treasury' as a")) { error in
                XCTAssertTrue("\(error)".hasPrefix("column 'a', row 0: cannot decode TEXT as Agency"), "\(error)")
            }
            struct Holder: Decodable { var addr: Address }
            XCTAssertThrowsError(try db.fetchAll(Holder.self, sql: "select '{\"zip\":1}' as addr")) { error in
                XCTAssertEqual("\(error)", "column 'addr', row 0: cannot decode TEXT as Address (invalid JSON for this type) - while reading `select '{\"zip\":1}' as addr`")
            }
            XCTAssertThrowsError(try db.fetchAll(Decimal.self, sql: "select '12abc' as d")) { error in
                XCTAssertEqual("\(error)", "column 'd', row 0: cannot decode TEXT as Decimal (not a decimal number) - while reading `select '12abc' as d`")
            }
        }
    }

    func testIntegerOverflowIsChecked() throws {
        try withDatabase { db in
            XCTAssertThrowsError(try db.fetchAll(Int8.self, sql: "select 128 as small")) { error in
                XCTAssertEqual("\(error)", "column 'small', row 0: 128 does not fit in Int8 - while reading `select 128 as small`")
            }
            XCTAssertThrowsError(try db.fetchAll(UInt.self, sql: "select -1 as u")) { error in
                XCTAssertEqual("\(error)", "column 'u', row 0: -1 does not fit in UInt - while reading `select -1 as u`")
            }
            XCTAssertEqual(try db.fetchAll(Int.self, sql: "select 3.0"), [3])
            XCTAssertThrowsError(try db.fetchAll(Int.self, sql: "select 3.5 as r")) { error in
                XCTAssertEqual("\(error)", "column 'r', row 0: cannot decode REAL as Int (not a whole number) - while reading `select 3.5 as r`")
            }
        }
    }

    func testThousandMixedRows() throws {
        struct Mixed: Decodable, Equatable {
            var id: Int
            var label: String?
            var score: Double?
            var active: Bool
            var seen: Date?
        }
        try withDatabase { db in
            try db.execute(sql: "create table m(id integer primary key, label text, score real, active integer, seen text)")
            var expected: [Mixed] = []
            try db.inTransaction {
                for id in 0..<1000 {
                    let row = Mixed(id: id, label: id % 3 == 0 ? nil : "label \(id) é",
                                    score: id % 5 == 0 ? nil : Double(id) / 4, active: id % 2 == 0,
                                    seen: id % 7 == 0 ? nil : Date(timeIntervalSince1970: Double(id) * 3600))
                    expected.append(row)
                    try db.execute(sql: "insert into m values (?, ?, ?, ?, ?)",
                                   arguments: [row.id, row.label, row.score, row.active, row.seen])
                }
            }
            XCTAssertEqual(try db.fetchAll(Mixed.self, sql: "select * from m order by id"), expected)
        }
    }
}
