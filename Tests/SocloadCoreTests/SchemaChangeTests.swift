import SocloadCore
import XCTest

/// How a refresh's plan differs from the recorded one: columns by name, renames by the
/// portal's column id, the key, lookups and child tables.
final class SchemaChangeTests: XCTestCase {
    private func plan(_ columns: [(String, LogicalType)], key: [String] = ["_id"]) -> LoadPlan {
        let planColumns = [PlanColumn(name: "_id", type: .text, source: .rowIdentifier(sid: 0, id: nil))]
            + columns.enumerated().map { PlanColumn(name: $0.element.0, type: $0.element.1, source: .field(cell: $0.offset + 1)) }
        return LoadPlan(tables: [PlanTable(name: "t", columns: planColumns, primaryKey: key)],
                        sourceFields: ["sid"] + columns.map(\.0))
    }

    private func metadata(_ fields: [(Int, String)]) -> [ColumnMetadata] {
        [ColumnMetadata(id: -1, fieldName: "sid", dataTypeName: "meta_data")]
            + fields.map { ColumnMetadata(id: $0.0, fieldName: $0.1, dataTypeName: "text") }
    }

    func testRenamesAreKnownByThePortalsColumnIDs() {
        let old = plan([("agency", .text), ("status", .text), ("n", .integer)])
        let new = plan([("department", .text), ("n", .text), ("note", .text)])
        let changes = new.schemaChanges(from: old, previousColumns: metadata([(1, "agency"), (2, "status"), (3, "n")]),
                                        columns: metadata([(1, "department"), (3, "n"), (4, "note")]))
        XCTAssertEqual(changes.map(\.line), ["column n retyped: integer -> text", "column agency renamed to department",
                                             "column note added (text)", "column status removed (was text)"])
        XCTAssertEqual(changes[1], SchemaChange(table: "t", kind: .columnRenamed, name: "agency", before: "agency", after: "department"))
    }

    func testWithoutColumnIDsARenameIsARemovalAndAnAddition() {
        let old = plan([("agency", .text)])
        let new = plan([("department", .text)])
        XCTAssertEqual(new.schemaChanges(from: old).map(\.kind), [.columnAdded, .columnRemoved])
        XCTAssertEqual(new.schemaChanges(from: new), [])
        // A system column sharing a data column's field name does not lend it an identity.
        let systemNamed = plan([("position", .text)])
        let moved = plan([("title", .text)])
        let columns = [ColumnMetadata(id: -1, fieldName: "position", dataTypeName: "meta_data")] + metadata([(7, "position")])
        XCTAssertEqual(moved.schemaChanges(from: systemNamed, previousColumns: columns, columns: columns).map(\.kind),
                       [.columnAdded, .columnRemoved])
    }

    func testKeyLookupAndChildTableChanges() throws {
        let old = plan([("agency", .text), ("name", .text)])
        var new = plan([("agency", .text), ("name", .text)], key: ["name"])
        try new.tables[0].extract(Extraction(columns: ["agency"]))
        var child = PlanTable(name: "t_items", columns: [PlanColumn(name: "t_id", type: .text, source: .field(cell: 0))])
        child.nesting = PlanNesting(arrayField: "items", parentKeyFields: ["_id"], numbersElements: true, sourceFields: ["t_id"])
        new.tables.append(child)
        let changes = new.schemaChanges(from: old)
        XCTAssertEqual(changes.map(\.line), ["key changed: (_id) -> (name)", "lookup agency added", "child table t_items added"])
        XCTAssertEqual(old.schemaChanges(from: new).map(\.line), ["key changed: (name) -> (_id)", "lookup agency removed",
                                                                 "child table t_items removed"])
    }
}
