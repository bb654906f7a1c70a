import Foundation
import SocloadTestSupport
import XCTest

/// Refreshes of real exports edited as portals edit them (rows changed, deleted, added; every
/// id re-issued): the summary counts them, the refresh log keeps the counts, `socload changes`
/// prints the rows and the changed columns' old and new values, on SQLite and PostgreSQL.
final class RowChangeCommandTests: XCTestCase {
    var directory: TemporaryDirectory!
    private var postgreSQL: TestPostgreSQL.TestDatabase?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    func socload(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db])
    }

    func databases() throws -> [String] {
        postgreSQL = try TestPostgreSQL.makeDatabase()
        return [directory.path("rows.sqlite"), postgreSQL!.url]
    }

    /// The bundled export and every real rows.json export beside the project.
    static var exports: [URL] {
        var sources = [Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")]
        if let shared = Fixtures.sharedDatasets {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []
            sources += names.filter { $0.hasSuffix(".rows.json") }.sorted().map { shared.appendingPathComponent($0) }
        }
        return sources
    }

    /// An export's metadata and rows, and where its row ids and first text column are.
    struct Export {
        var meta: [String: Any]
        var rows: [[Any]]
        var sid: Int
        var id: Int
        /// A text column with a value in the rows `edit` changes, and its field name.
        var text: (position: Int, field: String)?

        init(_ source: URL) throws {
            let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
            meta = try XCTUnwrap(document["meta"] as? [String: Any])
            rows = try XCTUnwrap(document["data"] as? [[Any]])
            let view = try XCTUnwrap(meta["view"] as? [String: Any])
            let columns = try XCTUnwrap(view["columns"] as? [[String: Any]])
            let fields = columns.map { $0["fieldName"] as? String ?? "" }
            sid = try XCTUnwrap(fields.firstIndex { $0 == ":sid" || $0 == "sid" })
            id = try XCTUnwrap(fields.firstIndex { $0 == ":id" || $0 == "id" })
            let rows = rows
            text = columns.indices.first { index in
                (columns[index]["id"] as? Int ?? -1) >= 0 && columns[index]["dataTypeName"] as? String == "text"
                    && rows.prefix(3).allSatisfy { ($0[index] as? String).map { !$0.isEmpty } ?? false }
            }.map { ($0, fields[$0]) }
        }

        /// `export`'s metadata with other rows.
        init(copying export: Export, rows: [[Any]]) {
            self = export
            self.rows = rows
        }

        /// The row's `_id`: the sid when it is text, else the GUID id (as SODA 2's `:id`).
        func key(_ row: [Any]) -> String {
            (row[sid] as? String) ?? String(describing: row[id])
        }

        /// Writes the export (metadata first, as a portal does).
        func write(to path: String) throws {
            let text = "{\"meta\":" + String(decoding: try JSONSerialization.data(withJSONObject: meta), as: UTF8.self)
                + ",\"data\":" + String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self) + "}"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        /// Three rows changed (their text column at `text`), the fifth to ninth removed, and two
        /// rows added (copies of the tenth and eleventh under new ids).
        mutating func editAFew(text: Int) {
            for index in 0..<3 { rows[index][text] = "\(rows[index][text]) (edited)" }
            var added = Export(copying: self, rows: Array(rows[9..<11]))
            added.reissue(0, salt: "new")
            added.reissue(1, salt: "new")
            rows.removeSubrange(4..<9)
            rows += added.rows
        }

        /// A new id for a row, of the kind the export uses (`row-...` or a GUID).
        mutating func reissue(_ index: Int, salt: String) {
            if let sid = rows[index][sid] as? String, sid.hasPrefix("row-") { rows[index][self.sid] = "row-\(salt)-\(index)" }
            if rows[index][sid] is NSNumber { rows[index][sid] = 900_000_000 + index }
            rows[index][id] = UUID().uuidString
        }
    }

    func testRefreshesCountTheRowsAddedChangedAndRemovedAndTheLogShowsThem() throws {
        // The old values the log keeps of removed rows, by table: the same on both databases.
        var removedValues: [String: [NSDictionary]] = [:]
        for db in try databases() {
            for source in Self.exports {
                var export = try Export(source)
                guard let text = export.text, export.rows.count >= 12 else { continue }
                let table = "r_" + source.lastPathComponent.prefix(4).replacingOccurrences(of: "-", with: "_")
                // The baseline is written the same way as the edits, so only the edits differ.
                let baseline = directory.path("\(table)-base.json")
                try export.write(to: baseline)
                let first = try socload(["fetch", baseline, "--table", table], db: db)
                XCTAssertEqual(first.status, 0, first.stderr)
                XCTAssertFalse(first.stderr.contains("Refreshed"), "a first load compares nothing: \(first.stderr)")
                let same = try socload(["fetch", baseline, "--table", table, "--force"], db: db)
                let total = export.rows.count
                XCTAssertTrue(same.stderr.contains("Refreshed \(table): 0 added, 0 changed, 0 removed, \(grouped(total)) unchanged"),
                              "\(source.lastPathComponent) \(db): \(same.stderr)")

                // Three rows changed, the fifth to ninth deleted, two new ones.
                let removedIDs = export.rows[4..<9].map(export.key)
                let changedIDs = export.rows[0..<3].map(export.key)
                for index in 0..<3 { export.rows[index][text.position] = "\(export.rows[index][text.position]) (edited)" }
                var added = Array(export.rows[9..<11])
                export.rows.removeSubrange(4..<9)
                var copy = export
                copy.rows = added
                copy.reissue(0, salt: "new")
                copy.reissue(1, salt: "new")
                added = copy.rows
                export.rows += added
                let edited = directory.path("\(table)-edited.json")
                try export.write(to: edited)
                let refreshed = try socload(["fetch", edited, "--table", table], db: db)
                XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
                XCTAssertTrue(refreshed.stderr.contains("Refreshed \(table): 2 added, 3 changed, 5 removed, \(grouped(total - 8)) unchanged"),
                              "\(source.lastPathComponent) \(db): \(refreshed.stderr)")
                let log = try rows(socload(["info", table, "--refreshes", "--format", "csv"], db: db).stdout)
                XCTAssertEqual(log.last.map { Array($0[7...11]) }, ["2", "3", "5", "\(total - 8)", ""],
                               "inserted, updated, deleted, unchanged, reissued")

                let changes = try socload(["changes", table, "--format", "csv"], db: db)
                XCTAssertEqual(changes.status, 0, changes.stderr)
                let lines = rows(changes.stdout)
                XCTAssertEqual(lines.first, ["refreshed_at", "change", "key", "column", "old", "new"])
                let body = lines.dropFirst()
                XCTAssertEqual(body.filter { $0[1] == "added" }.count, 2, changes.stdout)
                XCTAssertEqual(Set(body.filter { $0[1] == "removed" }.map(\.[2])), Set(removedIDs.map { "_id=\($0)" }), changes.stdout)
                // Numbers compared as the doubles they are (54 and 54.0 are one value).
                let oldValues = try body.filter { $0[1] == "removed" }.sorted { $0[2] < $1[2] }.map { row in
                    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(row[4].utf8)) as? [String: Any])
                    return NSDictionary(dictionary: object.mapValues { ($0 as? NSNumber).map { $0.doubleValue as Any } ?? $0 })
                }
                if let earlier = removedValues[table] {
                    XCTAssertEqual(earlier, oldValues, "\(source.lastPathComponent): the log's old values differ between the databases")
                } else {
                    removedValues[table] = oldValues
                }
                let changed = body.filter { $0[1] == "changed" }
                XCTAssertEqual(Set(changed.map(\.[2])), Set(changedIDs.map { "_id=\($0)" }), changes.stdout)
                XCTAssertTrue(changed.allSatisfy { $0[5] == $0[4] + " (edited)" }, changes.stdout)
                XCTAssertEqual(Set(changed.map(\.[3]).map { $0.lowercased() }).count, 1, "only the edited column: \(changes.stdout)")

                // Every id re-issued, the content as before: a re-issue, not all rows removed and added.
                for index in export.rows.indices { export.reissue(index, salt: "again") }
                let reissued = directory.path("\(table)-reissued.json")
                try export.write(to: reissued)
                let again = try socload(["fetch", reissued, "--table", table], db: db)
                XCTAssertEqual(again.status, 0, again.stderr)
                // The whole line: a count that went wrong after the prefix (300 removed) must show.
                XCTAssertTrue(again.stderr.split(separator: "\n").contains(
                    "Refreshed \(table): ids re-issued: \(grouped(export.rows.count)) rows, 0 changed; 0 removed"),
                              "\(source.lastPathComponent) \(db): \(again.stderr)")
                XCTAssertEqual(try rows(socload(["info", table, "--refreshes", "--format", "csv"], db: db).stdout).last?[11],
                               String(export.rows.count))
                XCTAssertEqual(try rows(socload(["changes", table, "--last", "2", "--format", "csv"], db: db).stdout).count,
                               lines.count, "a re-issue logs no rows; --last 2 reaches back to the edits")
            }
        }
    }

    func rows(_ csv: String) -> [[String]] {
        csv.split(whereSeparator: \.isNewline).map { CSVLine.fields(String($0)) }
    }

    func grouped(_ number: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        formatter.usesGroupingSeparator = true
        return formatter.string(from: NSNumber(value: number)) ?? String(number)
    }
}
