import SocloadDatabase
import SocloadSocrata
import XCTest

final class TableSchemaTests: XCTestCase {
    private func column(_ field: String, _ type: String) -> ColumnMetadata {
        ColumnMetadata(fieldName: field, dataTypeName: type)
    }

    private var system: [ColumnMetadata] {
        ["sid", "id", "position", "created_at", "created_meta", "updated_at", "updated_meta", "meta"].map {
            ColumnMetadata(name: $0, fieldName: ":" + $0, dataTypeName: "meta_data")
        }
    }

    func testColumnsTypesAndCollisions() {
        let view = ViewMetadata(columns: system + [
            column("name", "text"), column("site", "location"), column("site_latitude", "text"),
            column("Name", "number"), column("_id", "text"), column("", "checkbox"), column("odd \"q\"", "hologram"),
        ])
        let schema = TableSchema(tableName: "t", view: view)
        XCTAssertEqual(schema.columns.map(\.name), [
            "_id", "_created_at", "_updated_at", "name", "site", "site_latitude", "site_longitude", "site_latitude_2",
            "Name_2", "_id_2", "column_14", "odd \"q\"",
        ])
        XCTAssertEqual(schema.columns.map(\.storage), [
            .text, .text, .text, .text, .text, .real, .real, .text, .numeric, .text, .integer, .text,
        ])
        XCTAssertEqual(schema.columns.filter(\.isPrimaryKey).map(\.name), ["_id"])
    }

    func testSystemColumnsOldAndNewBackends() throws {
        let view = ViewMetadata(columns: system + [column("a", "text")])
        let schema = TableSchema(tableName: "t", view: view)
        let newBackend: [JSONValue] = [.string("row-abcd_efgh.ijkl"), .string("00000000-0000-0000-0001-000000000001"),
                                       .number("0"), .number("1446120000"), .null, .number("1446123600"), .null,
                                       .string("{ }"), .string("x")]
        XCTAssertEqual(try schema.values(for: newBackend, rowNumber: 1),
                       [.text("row-abcd_efgh.ijkl"), .text("2015-10-29T12:00:00Z"), .text("2015-10-29T13:00:00Z"), .text("x")])
        var oldBackend = newBackend
        oldBackend[0] = .number("17")
        oldBackend[1] = .string("7B12BFA4-5498-4D59-A668-CEC699D902D0")
        XCTAssertEqual(try schema.values(for: oldBackend, rowNumber: 1).first, .text("7B12BFA4-5498-4D59-A668-CEC699D902D0"))

        let all = TableSchema(tableName: "t", view: view, includeSystemColumns: true)
        XCTAssertEqual(all.columns.map(\.name), ["_id", "_created_at", "_updated_at", "_sid", "_row_id", "_position",
                                                 "_created_meta", "_updated_meta", "_meta", "a"])
    }

    func testRowsWithTheWrongNumberOfCells() {
        let schema = TableSchema(tableName: "t", view: ViewMetadata(columns: [column("a", "text"), column("b", "text")]))
        XCTAssertThrowsError(try schema.values(for: [.string("x")], rowNumber: 3)) { error in
            XCTAssertEqual("\(error)", "row 3: 1 cell where the metadata has 2 columns")
        }
        XCTAssertThrowsError(try schema.values(for: [.null, .null, .null], rowNumber: 4)) { error in
            XCTAssertEqual("\(error)", "row 4: 3 cells where the metadata has 2 columns")
        }
    }

    func testTableNames() {
        XCTAssertEqual(TableSchema.tableName(forDatasetID: "n5m4-mism"), "n5m4_mism")
    }
}
