import Foundation
import SocloadDatabase
@testable import SocloadSocrata
import SocloadTestSupport
import XCTest

/// The fast load path (bytes → batch) must give exactly the values of the general path
/// (JSONValue → `TableSchema.values`), on every fixture and on odd cells of every type.
final class FastPathEquivalenceTests: XCTestCase {
    /// Reads a document in raw mode and compares both conversions row by row.
    private func assertEquivalent(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let reader = RowsJSONReader()
        reader.deliversRawRows = true
        var schema: TableSchema?
        var converter: FastRowConverter?
        var rows = 0
        try bytes.withUnsafeBytes { chunk in
            try reader.feed(chunk) { event in
                switch event {
                case .metadata(let view):
                    schema = TableSchema(tableName: "t", view: view)
                    converter = FastRowConverter(schema: schema!)
                case .rawRow(let row):
                    rows += 1
                    var batch = RowBatch(columnCount: schema!.columns.count, firstRowNumber: rows, expectedRows: 1)
                    let general = Result { () throws -> [DatabaseValue] in
                        let parsed: JSONValue
                        do {
                            parsed = try JSONValueParser.parse(Array(row))
                        } catch let error as JSONValueParser.Failure {
                            throw RowsJSONError.badRow(row: rows, offset: 0, detail: RowsJSONReader.describe(error, base: 0))
                        }
                        guard case .array(let cells) = parsed else { return [] }
                        return try schema!.values(for: cells, rowNumber: rows)
                    }
                    let fast = Result { () throws -> [DatabaseValue] in
                        try converter!.append(row: row, rowNumber: rows, to: &batch)
                        return batch.row(0)
                    }
                    switch (general, fast) {
                    case let (.success(expected), .success(actual)):
                        XCTAssertEqual(actual, expected, "\(name) row \(rows)", file: file, line: line)
                    case let (.failure(expected), .failure(actual)):
                        XCTAssertEqual("\(actual)", "\(expected)", "\(name) row \(rows)", file: file, line: line)
                    default:
                        XCTFail("\(name) row \(rows): general \(general), fast \(fast)", file: file, line: line)
                    }
                case .row:
                    XCTFail("parsed rows were not asked for")
                }
            }
        }
        try reader.finish()
        XCTAssertGreaterThan(rows, 0, name, file: file, line: line)
    }

    func testBundledAndSharedDatasets() throws {
        for id in Fixtures.bundledIDs {
            try assertEquivalent(try Fixtures.bundled(id), id)
        }
        guard let shared = Fixtures.sharedDatasets else { return }
        for file in try FileManager.default.contentsOfDirectory(atPath: shared.path) where file.hasSuffix(".rows.json") {
            try assertEquivalent(Array(try Data(contentsOf: shared.appendingPathComponent(file))), file)
        }
    }

    func testOddCellsOfEveryType() throws {
        let types = ["text", "number", "double", "checkbox", "calendar_date", "date", "location", "url", "point", "phone",
                     "json", "polygon"]
        let columns = types.enumerated().map { index, type in
            "{\"fieldName\":\"c\(index)\",\"dataTypeName\":\"\(type)\"}"
        }.joined(separator: ",")
        let oddCells = [
            #"null"#, #""""#, #""plain""#, #""q\"uote\\ \/ \n\t\u00e9\ud83d\ude00""#, #""Zürich 中文""#, #"12"#, #"-0"#,
            #"1.5e3"#, #""1.000000""#, #""$1,234.50""#, #""$-3""#, #""1,234.5""#, #"" 7 ""#, #""NaN""#, #""Infinity""#,
            #""1e999""#, #"1e999"#, #""123456789012345678901234567890""#, #"123456789012345678901234567890"#, #"true"#,
            #"false"#, #""true""#, #"[null,null]"#, #"["https://x.org","X"]"#, #"["https://x.org"]"#,
            #"["{\"address\":\"1 Main\"}","47.5","-122.5",null,false]"#, #"[null,"47.5",-122.5,null,false]"#,
            #"{"latitude":"47.5","longitude":"-1","human_address":"{}"}"#, #"{"type":"Point","coordinates":[-73.9,40.8]}"#,
            #""POINT (-73.9 40.8)""#, #""2015-10-29T12:00:00.000""#, #""2015-10-29T12:00:00.250""#, #""2015-10-29T05:00:00-07:00""#,
            #"1446120000"#, #""1446120000""#, #"1446120000.5"#, #"[[1,2],{"a":[3]}]"#, #"{"file_id":"a b"}"#,
            #""\u0041BC""#, #""POINT (1 2) tail""#, #""00042""#, #""+5""#, #"".5""#, #""5.""#,
        ]
        var rows: [String] = []
        for (index, cell) in oddCells.enumerated() {
            // Each odd cell in every column, with the neighbours of another row for variety.
            let row = (0..<types.count).map { column in oddCells[(index + column * 7) % oddCells.count] }
            rows.append("[" + row.joined(separator: ",") + "]")
            rows.append("[" + Array(repeating: cell, count: types.count).joined(separator: ",") + "]")
        }
        let document = #"{"meta":{"view":{"columns":["# + columns + #"]}},"data":["# + rows.joined(separator: ",\n") + "]}"
        try assertEquivalent(Array(document.utf8), "odd cells")
    }

    func testMalformedRowsFailTheSameWay() throws {
        let document = #"{"meta":{"view":{"columns":[{"fieldName":"a","dataTypeName":"text"},{"fieldName":"b","dataTypeName":"number"}]}},"data":["#
            + #"["ok","1"],["short"],["x","1","extra"],["a",01],["a",1.],["bad \x","1"],["a",[1,]]"#
            + "]}"
        try assertEquivalent(Array(document.utf8), "malformed rows")
    }
}
