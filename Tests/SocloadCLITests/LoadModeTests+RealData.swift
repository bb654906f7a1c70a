import Foundation
import SocloadTestSupport
import XCTest

/// Append and upsert on the real files beside the project: a saved SODA page typed by its
/// real description and keyed by its own id, and every real export's CSV appended to itself.
extension LoadModeTests {
    /// Two of the page's records changed, one new, then one record of two fields: the location
    /// parts, numbers written as strings and the columns the last record lacks stay right.
    func testARealSODAPageUpsertedWithItsDescription() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        let page = shared.appendingPathComponent("koop-schools-page.json")
        let description = shared.appendingPathComponent("koop-schools-view.json").path
        guard var records = try JSONSerialization.jsonObject(with: Data(contentsOf: page)) as? [[String: Any]], records.count == 80 else {
            return XCTFail("koop-schools-page.json: not the 80 records of SOURCES.md")
        }
        records[0]["grade"] = "K-12"
        records[1]["name"] = "Renamed Académie"
        var new = records[2]
        new["objectid"] = "81"
        new["name"] = "New School"
        let delta = directory.path("delta.json")
        try JSONSerialization.data(withJSONObject: [records[0], records[1], new]).write(to: URL(fileURLWithPath: delta))
        let partial = try write("[{\"objectid\": \"3\", \"grade\": \"9-12\"}]", to: "partial.json")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", page.path, "--metadata", description, "--table", "schools", "--pk", "objectid", "--quiet"], db: db)
            let before = try csv("SELECT objectid, name, grade, shape_latitude, shape_longitude FROM schools ORDER BY objectid", db: db)
            let run = try succeed(["load", delta, "--metadata", description, "--table", "schools", "--mode", "upsert"], db: db)
            XCTAssertTrue(run.stderr.contains("Upserted 3 records into schools (1 new, 2 updated)"), run.stderr)
            XCTAssertTrue(run.stderr.contains("Refreshed schools: 1 added, 2 changed, 0 removed, 0 unchanged"), run.stderr)
            let after = try csv("SELECT objectid, name, grade, shape_latitude, shape_longitude FROM schools ORDER BY objectid", db: db)
            XCTAssertEqual(after.count, before.count + 1, db)
            XCTAssertEqual(after[1].split(separator: ",")[2], "K-12", db)
            XCTAssertEqual(after[2].split(separator: ",")[1], "Renamed Académie", db)
            XCTAssertEqual(Array(after[4...80]), Array(before[4...80]), db)
            // The new school sits where the one it copies does.
            XCTAssertEqual(after.last?.split(separator: ",").dropFirst(2), before[3].split(separator: ",").dropFirst(2), db)
            XCTAssertEqual(try types("schools", db: db).first, "objectid=decimal", db)

            try succeed(["load", partial, "--metadata", description, "--table", "schools", "--mode", "upsert", "--quiet"], db: db)
            let third = try csv("SELECT objectid, name, grade, shape_latitude FROM schools WHERE objectid = 3", db: db)
            XCTAssertEqual(third.last?.split(separator: ",").dropFirst(2).first, "9-12", db)
            XCTAssertEqual(third.last?.split(separator: ",")[1], before[3].split(separator: ",")[1], db)
        }
    }

    /// Each real export's rows.csv loaded with its description, then appended again: twice the
    /// rows, the same types, the second copy's values the first's.
    func testRealExportsAppendedToThemselves() throws {
        var checked: [String] = []
        for source in RowChangeCommandTests.exports {
            guard let export = try CSVLoadTests.socrataCSVExport(of: source, in: directory) else { continue }
            let (name, viewPath, csvPath, rows) = (export.name, export.viewPath, export.csvPath, export.rows)
            let db = directory.path("append-\(name).sqlite")
            try succeed(["load", csvPath, "--metadata", viewPath, "--table", "t", "--quiet"], db: db)
            let types = try self.types("t", db: db)
            let appended = try succeed(["load", csvPath, "--metadata", viewPath, "--table", "t", "--mode", "append"], db: db)
            XCTAssertTrue(appended.stderr.contains("Appended \(NumberTextForTests.grouped(rows.count)) record"), appended.stderr)
            XCTAssertEqual(try self.types("t", db: db), types, name)
            XCTAssertEqual(try csv("SELECT count(*) FROM t", db: db).last, String(2 * rows.count), name)
            let first = try csv("SELECT * FROM t WHERE rowid <= \(rows.count) ORDER BY rowid", db: db)
            let second = try csv("SELECT * FROM t WHERE rowid > \(rows.count) ORDER BY rowid", db: db)
            XCTAssertEqual(first.dropFirst(), second.dropFirst(), name)
            checked.append(name)
        }
        if Fixtures.sharedDatasets != nil { XCTAssertGreaterThan(checked.count, 3, "\(checked)") }
    }
}

/// `1,000` as the summaries group it.
enum NumberTextForTests {
    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }
}
