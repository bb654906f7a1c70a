import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// RFC 8259's grammar, strictly, in the two readers that take documents from portals: a SODA
/// page (`JSONArrayReader` + the converter, as the loader runs them) and the metadata.
final class StrictJSONTests: XCTestCase {
    static let view = ViewMetadata(columns: [ColumnMetadata(fieldName: "a", dataTypeName: "text"),
                                             ColumnMetadata(fieldName: "n", dataTypeName: "number")])

    /// Reads a SODA page as the loader does, fed in chunks of `chunk` bytes; the rows' values.
    static func readPage(_ text: String, chunk: Int = 7) throws -> [[CellValue]] {
        var plan = try LoadPlan.socrata(view: view.sodaRowColumns, options: PlanOptions(tableName: "t"))
        plan.tables[0].primaryKey = []
        var converter = RowConverter(plan: plan, rows: .objects)
        let reader = JSONArrayReader()
        var rows: [[CellValue]] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try bytes[start..<end].withUnsafeBytes { piece in
                try reader.feed(piece) { element in
                    guard element.isWhole else { return nil }
                    var batch = RowBatch(columnCount: plan.mainTable.columns.count, firstRowNumber: element.number, expectedRows: 1)
                    try converter.append(row: element.bytes, rowNumber: element.number, offset: element.offset, to: &batch)
                    rows.append(batch.row(0))
                    return nil
                }
            }
            start = end
        }
        try reader.finish()
        return rows
    }

    func testSODAPagesFollowTheGrammar() throws {
        let invalid = [
            #"[{"a":"x"},]"#, #"[{"a":"x",}]"#, #"[{"a":"x"},,{"a":"y"}]"#, #"[{"a":"x"} {"a":"y"}]"#,
            #"[{"n":01}]"#, #"[{"n":-01}]"#, #"[{"n":1.}]"#, #"[{"n":.5}]"#, #"[{"n":+1}]"#, #"[{"n":0x10}]"#,
            #"[{"a":"x"}]]"#, #"[{"a":"x"}] x"#, #"[{"a":'x'}]"#, #"[{a:"x"}]"#, #"[{"a":"\l"}]"#,
            #"[{"a":"x","a":"y"}]"#, "[{\"a\":\"x\ty\"}]", #"[{"a":"x"}"#, #"[{"a":nul}]"#, #"[{"a":True}]"#,
            #"[{"a":"x"}][]"#, #"{"a":"x"}"#,
        ]
        for text in invalid {
            for chunk in [1, 3, 1_000] {
                XCTAssertThrowsError(try Self.readPage(text, chunk: chunk), "\(text) in chunks of \(chunk)")
            }
        }
    }

    func testValidSODAPagesRead() throws {
        XCTAssertEqual(try Self.readPage(" [ ] "), [])
        XCTAssertEqual(try Self.readPage("\u{FEFF}[{\"a\":\"x\"}]").count, 1)
        let rows = try Self.readPage(#"[{"a":"x\u00e9","n":-0.5e+2},{"n":0},{"a":null,"ignored":[1,{"k":[]}]}]"#)
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows[0].suffix(2).map(\.description), ["\"xé\"", "-50"], "a decimal is read once, with its scale")
    }
}
