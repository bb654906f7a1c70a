import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// Loads each real Socrata export in `../shared/datasets` (kept outside the repository) and checks
/// that every row arrives and that no value is lost. Skipped when the folder is absent.
final class SharedDatasetConformanceTests: XCTestCase {
    func testEverySharedExportLoadsCompletely() throws {
        guard let shared = Fixtures.sharedDatasets else {
            throw XCTSkip("../shared/datasets is absent: skipping the conformance test on real exports")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: shared.path)
            .filter { $0.hasSuffix(".rows.json") }.sorted()
        XCTAssertFalse(files.isEmpty)
        for file in files {
            try checkExport(shared.appendingPathComponent(file))
        }
    }

    private func checkExport(_ url: URL) throws {
        let harness = try LoadHarness()
        let summary = try harness.load(.file(url.path), id: nil)
        // An independent parse of the same file gives the expected rows.
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let data = try XCTUnwrap(document["data"] as? [[Any]])
        XCTAssertEqual(summary.rowCount, data.count, url.lastPathComponent)
        XCTAssertEqual(try harness.value("SELECT count(*) FROM \(summary.tableName.quotedDatabaseIdentifier)"),
                       .integer(Int64(data.count)))

        let view = try XCTUnwrap((document["meta"] as? [String: Any])?["view"] as? [String: Any])
        let columns = try XCTUnwrap(view["columns"] as? [[String: Any]])
        let tableColumns = try harness.queue.read { db in
            try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [summary.tableName])
        }
        let mapping = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(summary.catalogEntry.columnMappingJSON.utf8)) as? [[String: Any]])
        var outputs: [String: [String]] = [:]
        for entry in mapping {
            let field = entry["fieldName"] as? String ?? ""
            outputs[field] = (entry["columns"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        let rows = try harness.rows("SELECT * FROM \(summary.tableName.quotedDatabaseIdentifier) ORDER BY rowid")
        var checkedCells = 0
        for (rowIndex, cells) in data.enumerated() {
            for (cellIndex, column) in columns.enumerated() {
                guard let field = column["fieldName"] as? String, !field.hasPrefix(":"),
                      column["dataTypeName"] as? String != "meta_data",
                      Self.hasValue(cells[cellIndex]) else { continue }
                let names = try XCTUnwrap(outputs[field], field)
                XCTAssertTrue(names.allSatisfy(tableColumns.contains))
                let stored = names.compactMap { rows[rowIndex][$0] }
                XCTAssertTrue(stored.contains { !$0.isNull },
                              "\(url.lastPathComponent) row \(rowIndex + 1) \(field): value lost")
                checkedCells += 1
            }
        }
        XCTAssertGreaterThan(checkedCells, 0, url.lastPathComponent)
        XCTAssertEqual(rows.compactMap { $0["_id"] }.filter { !$0.isNull }.count, data.count, "every row has an _id")
    }

    /// True when a source cell holds something (a location of five nulls holds nothing).
    private static func hasValue(_ cell: Any) -> Bool {
        switch cell {
        case is NSNull: return false
        case let array as [Any]: return array.contains { !($0 is NSNull) && !($0 as? Bool == false) }
        default: return true
        }
    }
}
