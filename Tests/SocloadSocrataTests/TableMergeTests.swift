import Foundation
import SocloadSocrata
import XCTest

/// `TableMerge` as data: which arriving columns a stored table takes and as what, which it
/// refuses, what is new and what is missing; lookups and the key.
final class TableMergeTests: XCTestCase {
    private func column(_ name: String, _ type: LogicalType, _ cell: Int) -> PlanColumn {
        PlanColumn(name: name, type: type, source: .field(cell: cell))
    }

    func testStoredTypesHoldNarrowerValuesAndRefuseOthersByName() throws {
        var stored = PlanTable(name: "big", columns: [column("id", .integer, 0), column("amount", .double, 1),
                                                      column("zip", .text, 2), column("n", .integer, 3),
                                                      column("day", .timestamp, 4), column("note", .text, 5)],
                               primaryKey: ["id"])
        try stored.extract(Extraction(columns: ["note"], count: true))
        let arriving = PlanTable(name: "big", columns: [column("ZIP", .integer, 0), column("id", .integer, 1),
                                                        column("amount", .integer, 2), column("n", .text, 3),
                                                        column("day", .date, 4), column("extra", .boolean, 5),
                                                        column("note", .text, 6)])
        var merge = TableMerge(stored: stored, arriving: arriving, alwaysNull: [])
        XCTAssertEqual(merge.mismatches, ["column n: big holds integer, the records have text"])
        // Stored names and types, in the stored order, each read from its arriving cell.
        XCTAssertEqual(merge.table.columns.map(\.name), ["id", "amount", "zip", "n", "day", "note"])
        XCTAssertEqual(merge.table.columns.map(\.type), [.integer, .double, .text, .integer, .timestamp, .text])
        XCTAssertEqual(merge.table.columns.map(\.source), [1, 2, 0, 3, 4, 6].map { ColumnSource.field(cell: $0) })
        XCTAssertEqual(merge.table.primaryKey, ["id"])
        XCTAssertEqual(merge.table.lookups.map(\.table), stored.lookups.map(\.table))
        XCTAssertEqual(merge.added.map(\.name), ["extra"])
        XCTAssertTrue(merge.isComplete)
        merge.addColumns()
        XCTAssertEqual(merge.table.columns.last?.name, "extra")

        // A column always null fits; a missing one is missing; a missing key and half a
        // lookup are refused; a lookup whose columns are all absent is left out.
        let partial = PlanTable(name: "big", columns: [column("id", .integer, 0), column("n", .text, 1)])
        let fits = TableMerge(stored: stored, arriving: partial, alwaysNull: ["n"])
        XCTAssertEqual(fits.mismatches, [])
        XCTAssertEqual(fits.missing, ["amount", "zip", "day", "note"])
        XCTAssertEqual(fits.table.lookups.count, 0)
        XCTAssertEqual(fits.table.storedColumns.map(\.name), ["id", "n"])
        let keyless = TableMerge(stored: stored, arriving: PlanTable(name: "big", columns: [column("zip", .text, 0)]))
        XCTAssertEqual(keyless.mismatches, ["column id: the records do not have it, and it is the key of big"])

        var places = PlanTable(name: "p", columns: [column("id", .integer, 0), column("city", .text, 1), column("state", .text, 2)],
                               primaryKey: ["id"])
        try places.extract(Extraction(columns: ["city", "state"]))
        let half = TableMerge(stored: places, arriving: PlanTable(name: "p", columns: [column("id", .integer, 0),
                                                                                     column("city", .text, 1)]))
        XCTAssertEqual(half.mismatches.count, 1)
        XCTAssertTrue(half.mismatches[0].hasPrefix("columns city, state: extracted together into "), half.mismatches[0])
    }

    func testWhatEachTypeHolds() {
        let holds = LogicalType.allCases.flatMap { stored in
            LogicalType.allCases.filter { $0 != stored && stored.holds($0) }.map { "\(stored.rawValue)<-\($0.rawValue)" }
        }
        XCTAssertEqual(Set(holds.filter { !$0.hasPrefix("text<-") && !$0.hasPrefix("json<-") }),
                       ["decimal<-integer", "double<-integer", "double<-decimal", "timestamp<-date",
                        "floating_timestamp<-date", "geometry<-json", "geometry<-text"])
        XCTAssertEqual(holds.filter { $0.hasPrefix("text<-") }.count, LogicalType.allCases.count - 1)
        XCTAssertFalse(LogicalType.integer.holds(.double))
        XCTAssertFalse(LogicalType.boolean.holds(.integer))
    }

    /// Gathered batches read as the rows they were: text, decimals and JSON moved with their arena.
    func testBatchesAppendedKeepEveryValue() throws {
        let plan = try LoadPlan.socrata(view: ViewMetadata(columns: [
            ColumnMetadata(fieldName: "name", dataTypeName: "text"), ColumnMetadata(fieldName: "n", dataTypeName: "number"),
            ColumnMetadata(fieldName: "j", dataTypeName: "json"), ColumnMetadata(fieldName: "day", dataTypeName: "calendar_date"),
        ]), options: PlanOptions(tableName: "t"))
        func batch(_ rows: [String], first: Int) throws -> RowBatch {
            var converter = RowConverter(plan: plan, rows: .arrays, strict: true)
            var batch = RowBatch(columnCount: 4, firstRowNumber: first, expectedRows: rows.count)
            for (index, row) in rows.enumerated() {
                try Array(row.utf8).withUnsafeBufferPointer { try converter.append(row: $0, rowNumber: first + index, offset: 0, to: &batch) }
            }
            return batch
        }
        let one = try batch([#"["Zoë", "12.50", {"a": [1]}, "2020-01-15T00:00:00"]"#], first: 1)
        let two = try batch([#"["b", "-3", null, null]"#, #"["c", null, "x", "2021-02-01T10:30:00"]"#], first: 2)
        var gathered = one
        gathered.append(two)
        XCTAssertEqual(gathered.rowCount, 3)
        XCTAssertEqual(gathered.firstRowNumber, 1)
        XCTAssertEqual((0..<3).map { gathered.row($0) }, [one.row(0), two.row(0), two.row(1)])
        XCTAssertEqual(gathered.row(2)[0], .text("c"))
    }
}
