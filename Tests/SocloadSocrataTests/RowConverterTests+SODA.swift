import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// SODA object rows (saved pages, every split point) against the reference decoder.
extension RowConverterTests {
    /// SODA pages: objects matched to columns by name, converted by the same converter.
    func testSODAObjectRowsAgreeWithTheReference() throws {
        var pages: [(ViewMetadata, [UInt8])] = []
        let view = ViewMetadata(columns: [
            ColumnMetadata(fieldName: "name", dataTypeName: "text"), ColumnMetadata(fieldName: "n", dataTypeName: "number"),
            ColumnMetadata(fieldName: "site", dataTypeName: "location"), ColumnMetadata(fieldName: "web", dataTypeName: "url"),
            ColumnMetadata(fieldName: "p", dataTypeName: "point"), ColumnMetadata(fieldName: "when", dataTypeName: "calendar_date"),
        ])
        let objects = Self.oddCells.enumerated().map { index, cell in
            let other = Self.oddCells[(index * 5 + 3) % Self.oddCells.count]
            return #"{":id":"row-\#(index)","name":\#(cell),"n":\#(other),"site":\#(cell),"w\u0065b":\#(other),"#
                + #""p":\#(cell),"when":\#(other),"unknown":[1],"unknown":2}"#
        }
        pages.append((view, Array(("[" + objects.joined(separator: ",\n") + "]").utf8)))
        if let shared = Fixtures.sharedDatasets {
            for (viewFile, pageFile) in [("koop-schools-view.json", "koop-schools-page.json")] {
                let described = try JSONDecoder().decode(ViewMetadata.self, from: Data(contentsOf: shared.appendingPathComponent(viewFile)))
                pages.append((described, Array(try Data(contentsOf: shared.appendingPathComponent(pageFile)))))
            }
            // A page without a view: its columns as text, as X-SODA2-Fields would give them.
            let page = Array(try Data(contentsOf: shared.appendingPathComponent("koop-filtered-page.json")))
            guard case .array(let rows) = try JSONValue(parsingRow: page, row: 0, offset: 0),
                  case .object(let members)? = rows.first else { return XCTFail("not a page") }
            pages.append((ViewMetadata(columns: members.map { ColumnMetadata(fieldName: $0.key, dataTypeName: "url") }), page))
        }
        for (view, page) in pages {
            var plan = try LoadPlan.socrata(view: view.sodaRowColumns, options: PlanOptions(tableName: "t"))
            plan.tables[0].primaryKey = [] // pages saved without $select=:* have no :id
            var converter = RowConverter(plan: plan, rows: .objects)
            var reference = ReferenceDecoder(plan: plan, objects: true)
            let reader = JSONArrayReader()
            var rows = 0
            // In place where an object is whole in the chunk, else delivered whole.
            let handle: RowsJSONReader.RowHandler = { element in
                var batch = RowBatch(columnCount: plan.mainTable.columns.count, firstRowNumber: element.number,
                                     expectedRows: 1)
                let end: Int
                if element.isWhole {
                    try converter.append(row: element.bytes, rowNumber: element.number, offset: element.offset, to: &batch)
                    end = element.bytes.count
                } else {
                    guard let found = try converter.appendIfComplete(element.bytes, from: element.start,
                                                                     limit: element.bytes.count, rowNumber: element.number,
                                                                     offset: element.offset, to: &batch) else { return nil }
                    end = found
                }
                let text = Array(element.bytes[element.start..<end])
                XCTAssertEqual(batch.row(0), try reference.values(row: text, rowNumber: element.number, offset: element.offset),
                               "row \(element.number)")
                rows += 1
                return end
            }
            // Fed in two chunks, so most objects arrive in place and the one cut in two arrives whole.
            try page.withUnsafeBytes { all in
                try reader.feed(UnsafeRawBufferPointer(rebasing: all[0..<all.count / 2]), handle)
                try reader.feed(UnsafeRawBufferPointer(rebasing: all[(all.count / 2)...]), handle)
            }
            try reader.finish()
            XCTAssertGreaterThan(rows, 0)
            XCTAssertEqual(converter.invalidCells, reference.invalidCells)
        }
    }

    /// A SODA row that gives one field twice is ambiguous: bad data naming the field, whether the
    /// key is written plainly or escaped, in place or whole.
    func testAFieldGivenTwiceInASODARowIsBadData() throws {
        let view = ViewMetadata(columns: [ColumnMetadata(fieldName: "name", dataTypeName: "text")]).sodaRowColumns
        var plan = try LoadPlan.socrata(view: view, options: PlanOptions(tableName: "t"))
        plan.tables[0].primaryKey = []
        for row in [#"{"name":"a","name":"b"}"#, #"{"name":null,"n\u0061me":"b"}"#] {
            var converter = RowConverter(plan: plan, rows: .objects)
            var reference = ReferenceDecoder(plan: plan, objects: true)
            var batch = RowBatch(columnCount: plan.mainTable.columns.count, firstRowNumber: 4, expectedRows: 1)
            let bytes = Array(row.utf8)
            XCTAssertThrowsError(try bytes.withUnsafeBufferPointer {
                _ = try converter.appendIfComplete($0, from: 0, limit: $0.count, rowNumber: 4, offset: 9, to: &batch)
            }) { error in
                XCTAssertEqual("\(error)", "row 4 (byte 9): the field 'name' appears twice")
            }
            XCTAssertThrowsError(try reference.values(row: bytes, rowNumber: 4, offset: 9)) { error in
                XCTAssertEqual("\(error)", "row 4 (byte 9): the field 'name' appears twice")
            }
        }
    }

    /// One row of one column (or the cells given for several), converted.
    func convert(_ columns: String, _ cells: String) throws -> ([CellValue], [InvalidCells]) {
        let document = #"{"meta":{"view":{"columns":["# + columns + #"]}},"data":[["# + cells + "]]}"
        var result: ([CellValue], [InvalidCells])?
        var converter: RowConverter?
        var reference: ReferenceDecoder?
        let reader = RowsJSONReader()
        try Array(document.utf8).withUnsafeBytes { chunk in
            try reader.feed(chunk, onMetadata: { view in
                let plan = try LoadPlan.socrata(view: view, options: PlanOptions(tableName: "t"))
                converter = RowConverter(plan: plan, rows: .arrays)
                reference = ReferenceDecoder(plan: plan)
            }, onRow: { row in
                guard row.isWhole else { return nil }
                var batch = RowBatch(columnCount: converter!.table.columns.count, firstRowNumber: 1, expectedRows: 1)
                try converter!.append(row: row.bytes, rowNumber: row.number, offset: row.offset, to: &batch)
                XCTAssertEqual(batch.row(0), try reference!.values(row: Array(row.bytes), rowNumber: 1, offset: row.offset))
                result = (batch.row(0), converter!.invalidCells)
                return nil
            })
        }
        XCTAssertEqual(result?.1, reference?.invalidCells)
        return try XCTUnwrap(result)
    }
}
