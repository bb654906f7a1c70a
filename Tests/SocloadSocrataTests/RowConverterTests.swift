import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// `RowConverter`, the one converter, against `ReferenceDecoder`, a slow reading of the same
/// rules that lives in the tests only: on every fixture (cut at every point, or at a few hundred
/// random points for large ones), on odd cells of every type, and on SODA object rows.
final class RowConverterTests: XCTestCase {
    func sharedFiles(_ suffix: String) throws -> [(String, [UInt8])] {
        guard let shared = Fixtures.sharedDatasets else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: shared.path).sorted().filter { $0.hasSuffix(suffix) }.map {
            ($0, Array(try Data(contentsOf: shared.appendingPathComponent($0))))
        }
    }

    func testFixturesAgreeWithTheReferenceAtEverySplitPoint() throws {
        var generator = SeededGenerator(seed: 7)
        var files = try Fixtures.bundledIDs.map { ($0, try Fixtures.bundled($0)) }
        files += try sharedFiles(".rows.json")
        for (name, bytes) in files {
            let points = bytes.count <= 4_096 ? Array(1..<bytes.count)
                : (0..<300).map { _ in Int.random(in: 1..<bytes.count, using: &generator) }.sorted()
            XCTAssertNil(ConverterSelfCheck.check(bytes, cutAt: points), name)
        }
    }

    /// Every odd cell in a column of every type, next to other odd cells.
    func testOddCellsOfEveryType() throws {
        let types = ["text", "number", "double", "checkbox", "calendar_date", "date", "location", "url", "point", "phone",
                     "json", "polygon"]
        let columns = types.enumerated().map { "{\"fieldName\":\"c\($0.offset)\",\"dataTypeName\":\"\($0.element)\"}" }
        let cells = Self.oddCells
        var rows: [String] = []
        for index in cells.indices {
            let mixed: [String] = (0..<types.count).map { cells[(index + $0 * 7) % cells.count] }
            rows.append("[" + mixed.joined(separator: ",") + "]")
            rows.append("[" + Array(repeating: cells[index], count: types.count).joined(separator: ",") + "]")
        }
        let document = #"{"meta":{"view":{"columns":["# + columns.joined(separator: ",") + #"]}},"data":["#
            + rows.joined(separator: ",\n") + "]}"
        XCTAssertNil(ConverterSelfCheck.check(Array(document.utf8)))
    }

    static let oddCells = [
        #"null"#, #""""#, #""plain""#, #""q\"uote\\ \/ \n\t\u00e9\ud83d\ude00""#, #""Zürich 中文""#, #"12"#, #"-0"#,
        #"1.5e3"#, #""1.000000""#, #""$1,234.50""#, #""$-3""#, #""1,234.5""#, #"" 7 ""#, #""NaN""#, #""Infinity""#,
        #""1e999""#, #"1e999"#, #""123456789012345678901234567890""#, #"123456789012345678901234567890"#, #"true"#,
        #"false"#, #""true""#, #""Yes""#, #"[null,null]"#, #"["https://x.org","X"]"#, #"["https://x.org"]"#,
        #"["{\"address\":\"1 Main\"}","47.5","-122.5",null,false]"#, #"[null,"47.5",-122.5,null,false]"#,
        #"{"latitude":"47.5","longitude":"-1","human_address":"{}"}"#, #"{"type":"Point","coordinates":[-73.9,40.8]}"#,
        #"{"type":"Point","coordinates":["-73.9","40.8"]}"#, #"{"url":"https://x.org","description":"X","url":"y"}"#,
        #""POINT (-73.9 40.8)""#, #""point(1 2 3)""#, #""POINT EMPTY""#, #""2015-10-29T12:00:00.000""#,
        #""2015-10-29T12:00:00.250""#, #""2015-10-29T05:00:00-07:00""#, #""2015-02-30""#, #""2015-10-29""#,
        #"1446120000"#, #""1446120000""#, #"1446120000.5"#, #"99999999999999"#, #"[[1,2],{"a":[3]}]"#,
        #"[ 1 , { "b" : [ ] } ]"#, #"{"file_id":"a b"}"#, #""\u0041BC""#, #""\u0031\u0032""#, #""POINT (1 2) tail""#,
        #""00042""#, #""+5""#, #"".5""#, #""5.""#, #""0x10""#, #""1 234""#, #""   ""#, #""N/A""#,
        #""a very long value that goes on and on past forty characters""#,
    ]

    func testCellRulesOnePerLine() throws {
        // (Socrata type, cell, expected value, counted as not of the type)
        let cases: [(String, String, CellValue, Bool)] = [
            ("number", #""$1,234.50""#, .decimal("1234.50"), false), ("number", #""1.000000""#, .decimal("1.000000"), false),
            ("number", #""42""#, .integer(42), false), ("number", #"" 7 ""#, .integer(7), false),
            ("number", #""""#, .null, false), ("number", #""   ""#, .null, false), ("number", #""N/A""#, .null, true),
            ("number", #""NaN""#, .null, true), ("number", #""Infinity""#, .null, true), ("number", #""0x10""#, .null, true),
            ("number", #""1e999""#, .null, true), ("number", #"true"#, .integer(1), false), ("number", #"[1]"#, .null, true),
            ("double", #""2.5""#, .real(2.5), false), ("double", #""NaN""#, .null, true), ("double", #"12"#, .real(12), false),
            ("checkbox", #""Yes""#, .integer(1), false), ("checkbox", #""n""#, .integer(0), false),
            ("checkbox", #""maybe""#, .null, true), ("checkbox", #"0"#, .integer(0), false), ("checkbox", #""""#, .null, false),
            ("checkbox", #"0.0"#, .integer(0), false), ("checkbox", #"-0.0"#, .integer(0), false),
            ("checkbox", #""-0.0""#, .integer(0), false), ("checkbox", #""2""#, .integer(1), false),
            ("double", #""0x10""#, .null, true), ("double", #""0X1P3""#, .null, true), ("double", #""1e5""#, .real(100_000), false),
            ("date", #"1446120000"#, .text("2015-10-29T12:00:00Z"), false),
            ("date", #""2015-10-29T05:00:00-07:00""#, .text("2015-10-29T12:00:00Z"), false),
            ("date", #""soon""#, .null, true), ("date", #"99999999999999"#, .null, true),
            ("calendar_date", #""2015-10-29T12:00:00.000""#, .text("2015-10-29T12:00:00"), false),
            ("calendar_date", #""2015-02-30""#, .null, true), ("calendar_date", #"20151029"#, .null, true),
            ("text", #""""#, .text(""), false), ("text", #"12.50"#, .text("12.50"), false),
            ("text", #"[ 1 , { "b" : [ ] } ]"#, .text(#"[1,{"b":[]}]"#), false), ("json", #""plain""#, .text("plain"), false),
        ]
        for (type, cell, expected, counted) in cases {
            let (values, invalid) = try convert(#"{"fieldName":"c","dataTypeName":"\#(type)"}"#, cell)
            XCTAssertEqual(values, [expected], "\(type) \(cell)")
            XCTAssertEqual(invalid.count, counted ? 1 : 0, "\(type) \(cell)")
        }
        let (values, invalid) = try convert(#"{"fieldName":"amount","dataTypeName":"number"}"#,
                                            #""a very long \"value\" that goes on and on past forty characters""#)
        XCTAssertEqual(values, [.null])
        XCTAssertEqual(invalid.first?.summary, #"amount: 1 cell was not a number, stored as NULL; first at row 1: "#
                       + #""a very long \"value\" that goes on and on "…"#)
    }

    func testCompoundParts() throws {
        let location = #"{"fieldName":"site","dataTypeName":"location","subColumnTypes":["longitude","latitude","human_address"]}"#
        XCTAssertEqual(try convert(location, #"["-122.25","47.5","{}"]"#).0, [.text("{}"), .real(47.5), .real(-122.25)])
        XCTAssertEqual(try convert(location, #"["far","47.5",null]"#).0, [.null, .real(47.5), .null])
        XCTAssertEqual(try convert(location, #"["far","47.5",null]"#).1.map(\.column), ["site_longitude"])
        let point = #"{"fieldName":"p","dataTypeName":"point"}"#
        XCTAssertEqual(try convert(point, #"{"type":"Point","coordinates":[-73.90,40.8]}"#).0,
                       [.text("POINT (-73.90 40.8)"), .real(-73.9), .real(40.8)])
        XCTAssertEqual(try convert(point, #""POINT (-73.9 40.8)""#).0, [.text("POINT (-73.9 40.8)"), .real(-73.9), .real(40.8)])
        XCTAssertEqual(try convert(point, #""LINESTRING (1 2, 3 4)""#).1.map(\.column), ["p_longitude", "p_latitude"])
        let url = #"{"fieldName":"u","dataTypeName":"url"}"#
        XCTAssertEqual(try convert(url, #"[null,null]"#).0, [.null, .null])
        XCTAssertEqual(try convert(url, #"{"url":"https://x.org"}"#).0, [.text("https://x.org"), .null])
    }

    func testKeysMustNotBeNull() throws {
        let columns = #"{"fieldName":":sid","dataTypeName":"meta_data"},{"fieldName":":id","dataTypeName":"meta_data"},"#
            + #"{"fieldName":"a","dataTypeName":"text"}"#
        XCTAssertThrowsError(try convert(columns, #"null,null,"x""#)) { error in
            XCTAssertEqual("\(error)", "row 1: the key _id of t is empty (NULL): the rows carry no :id; --pk COLUMN keys the table by a column of theirs")
        }
        XCTAssertEqual(try convert(columns, #"17,"7B12BFA4","x""#).0, [.text("7B12BFA4"), .text("x")], "old backend: the GUID")
        XCTAssertEqual(try convert(columns, #""row-ab.cd","00-01","x""#).0, [.text("row-ab.cd"), .text("x")])
    }

    func testStrictStopsAtTheFirstInvalidCell() throws {
        let plan = try LoadPlan.socrata(view: ViewMetadata(columns: [ColumnMetadata(fieldName: "n", dataTypeName: "number")]),
                                        options: PlanOptions(tableName: "t"))
        var converter = RowConverter(plan: plan, rows: .arrays, strict: true)
        var batch = RowBatch(columnCount: 1, firstRowNumber: 1, expectedRows: 2)
        try Array(#"["1"]"#.utf8).withUnsafeBufferPointer { try converter.append(row: $0, rowNumber: 1, offset: 0, to: &batch) }
        XCTAssertThrowsError(try Array(#"["N/A"]"#.utf8).withUnsafeBufferPointer {
            try converter.append(row: $0, rowNumber: 2, offset: 9, to: &batch)
        }) { error in
            XCTAssertEqual("\(error)", #"row 2, column n: "N/A" is not a valid decimal (--strict)"#)
        }
    }

    /// Each value is read once, into the form a destination writes as it is: a fixed timestamp
    /// is an instant (milliseconds since 1970), a nested value or a number in a JSON column is
    /// marked as checked JSON; a string in a JSON column stays text (its content may be JSON or
    /// not), and a floating timestamp stays as written.
    func testValuesArriveTypedForTheDestination() throws {
        let plan = try LoadPlan.socrata(view: ViewMetadata(columns: [
            ColumnMetadata(fieldName: "at", dataTypeName: "fixed_timestamp"), ColumnMetadata(fieldName: "j", dataTypeName: "json"),
            ColumnMetadata(fieldName: "f", dataTypeName: "floating_timestamp"),
        ]), options: PlanOptions(tableName: "t"))
        var converter = RowConverter(plan: plan, rows: .arrays)
        var batch = RowBatch(columnCount: 3, firstRowNumber: 1, expectedRows: 4)
        let rows = [#"["2015-10-29T12:00:00.250-04:00", {"a": [1, 2]}, "2014-06-01T00:00:00.000"]"#,
                    #"[1446120000, 12, null]"#, #"["2015-10-29T12:00:00Z", "plain", null]"#, #"[-62135596800.5, true, null]"#]
        for (index, row) in rows.enumerated() {
            try Array(row.utf8).withUnsafeBufferPointer { try converter.append(row: $0, rowNumber: index + 1, offset: 0, to: &batch) }
        }
        func json(_ value: RowBatch.Value) -> String? {
            guard case let .json(offset, length) = value else { return nil }
            return batch.string(offset: offset, length: length)
        }
        XCTAssertEqual(batch.values[0], .instant(microseconds: 1_446_134_400_250_000))
        XCTAssertEqual(json(batch.values[1]), #"{"a":[1,2]}"#)
        XCTAssertEqual(batch.values[2], .wallClock(microseconds: 1_401_580_800_000_000))
        XCTAssertEqual(batch.row(0), [.text("2015-10-29T16:00:00.250Z"), .text(#"{"a":[1,2]}"#), .text("2014-06-01T00:00:00")])
        XCTAssertEqual(batch.values[3], .instant(microseconds: 1_446_120_000_000_000))
        XCTAssertEqual(json(batch.values[4]), "12")
        XCTAssertEqual(batch.values[6], .instant(microseconds: 1_446_120_000_000_000))
        guard case .text = batch.values[7] else { return XCTFail("a string in a JSON column is text: \(batch.values[7])") }
        XCTAssertEqual(batch.row(3), [.text("0000-12-31T23:59:59.500Z"), .text("true"), .null])
    }

    /// A date column's value is a day (as written: no zone applied), shown back as `YYYY-MM-DD`.
    func testDatesArriveAsDays() throws {
        let plan = try LoadPlan.socrata(view: ViewMetadata(columns: [ColumnMetadata(fieldName: "d", dataTypeName: "text")]),
                                        options: PlanOptions(tableName: "t", typeOverrides: ["d": .date]))
        var converter = RowConverter(plan: plan, rows: .arrays)
        var batch = RowBatch(columnCount: 1, firstRowNumber: 1, expectedRows: 3)
        for (index, row) in [#"["2014-06-01"]"#, #"["1969-12-31T23:30:00-05:00"]"#, #"["0001-01-01"]"#].enumerated() {
            try Array(row.utf8).withUnsafeBufferPointer { try converter.append(row: $0, rowNumber: index + 1, offset: 0, to: &batch) }
        }
        XCTAssertEqual(batch.values, [.day(16_222), .day(-1), .day(-719_162)])
        XCTAssertEqual((0..<3).map { batch.row($0) }, [[.text("2014-06-01")], [.text("1969-12-31")], [.text("0001-01-01")]])
    }

    /// A destination that keeps no decimal digits (SQLite) gets the number the converter read,
    /// as SQLite's NUMERIC affinity stores it; one that keeps them (PostgreSQL) gets the digits.
    func testDecimalsArriveAsTheDestinationStoresThem() throws {
        let plan = try LoadPlan.socrata(view: ViewMetadata(columns: [ColumnMetadata(fieldName: "n", dataTypeName: "number")]),
                                        options: PlanOptions(tableName: "t"))
        let cells = [#""12.50""#, #""$1,234""#, #""12.0""#, #""123456789012345678901234567890""#, #""-0.125""#]
        func converted(_ storable: StorableValues) throws -> [RowBatch.Value] {
            var converter = RowConverter(plan: plan, rows: .arrays, storable: storable)
            var batch = RowBatch(columnCount: 1, firstRowNumber: 1, expectedRows: cells.count)
            for (index, cell) in cells.enumerated() {
                try Array("[\(cell)]".utf8).withUnsafeBufferPointer {
                    try converter.append(row: $0, rowNumber: index + 1, offset: 0, to: &batch)
                }
            }
            return batch.values
        }
        XCTAssertEqual(try converted(StorableValues(destinationName: "SQLite", keepsDecimalDigits: false)),
                       [.real(12.5), .integer(1234), .integer(12), .real(1.2345678901234568e29), .real(-0.125)])
        let digits = try converted(.anything)
        XCTAssertEqual(digits[1], .integer(1234))
        XCTAssertEqual([digits[0], digits[2], digits[4]], [.scaledDecimal(ScaledDecimal(units: 1250, scale: 2)),
                                                          .scaledDecimal(ScaledDecimal(units: 120, scale: 1)),
                                                          .scaledDecimal(ScaledDecimal(units: -125, scale: 3))])
        guard case .decimal = digits[3] else { return XCTFail("digits past 64 bits are kept as text: \(digits)") }
    }
}
