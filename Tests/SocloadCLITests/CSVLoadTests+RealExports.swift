import Foundation
import SocloadTestSupport
import XCTest

/// Socrata's CSV exports (`rows.csv`): every real export beside the project written the way the
/// portal writes its CSV (display names heading the columns, CRLF, `MM/DD/YYYY hh:mm:ss AM`
/// dates, locations as `(lat, lon)`, urls as their address, checkboxes as true/false, NULL as
/// nothing and the empty string as `""`), then
/// loaded with `--metadata`: the same columns, types and values as `fetch` of the rows.json.
extension CSVLoadTests {
    func testSocrataCSVExportsWithMetadataLoadAsFetchLoadsTheirRowsJSON() throws {
        var checked: [String] = []
        for source in RowChangeCommandTests.exports {
            guard let export = try Self.socrataCSVExport(of: source, in: directory) else { continue }
            let (name, viewPath, csvPath, columns, rows) = (export.name, export.viewPath, export.csvPath, export.columns, export.rows)
            let db = directory.path("export-\(name).sqlite")
            try succeed(["fetch", source.path, "--table", "fetched", "--quiet"], db: db)
            try succeed(["load", csvPath, "--metadata", viewPath, "--table", "loaded", "--quiet"], db: db)
            let fetchedTypes = try types("fetched", db: db), loadedTypes = try types("loaded", db: db)
            XCTAssertFalse(loadedTypes.isEmpty, name)
            // Every column loaded is fetch's, typed alike (fetch may add its key, `_id`).
            XCTAssertEqual(loadedTypes.filter { !fetchedTypes.contains($0) }, [], name)
            XCTAssertEqual(fetchedTypes.filter { !loadedTypes.contains($0) && !$0.hasPrefix("_") }, [], name)
            // A url's description is not in the CSV export (the address is).
            let descriptions = Set(columns.filter { $0["dataTypeName"] as? String == "url" }
                .compactMap { ($0["fieldName"] as? String).map { $0 + "_description" } })
            let compared = loadedTypes.map { String($0.prefix { $0 != "=" }) }.filter { !descriptions.contains($0) }
                .map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ", ")
            XCTAssertEqual(try csv("SELECT \(compared) FROM loaded ORDER BY rowid", db: db),
                           try csv("SELECT \(compared) FROM fetched ORDER BY rowid", db: db), name)
            XCTAssertEqual(try csv("SELECT count(*) FROM loaded", db: db).last, String(rows.count), name)
            checked.append(name)
        }
        XCTAssertTrue(checked.contains("n5m4-mism"), "\(checked)")
        if Fixtures.sharedDatasets != nil { XCTAssertGreaterThan(checked.count, 3, "\(checked)") }
    }

    /// A column of the file that the description does not have is not loaded, and the summary
    /// says so naming it (a real export's CSV with one more column at the end).
    func testAColumnTheDescriptionLacksIsNamed() throws {
        let source = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")
        guard let export = try Self.socrataCSVExport(of: source, in: directory) else { return }
        let lines = try String(contentsOfFile: export.csvPath, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let extra = ([lines[0] + ",Inspector Notes"] + lines.dropFirst().map { $0 + ",seen" }).joined(separator: "\r\n") + "\r\n"
        let path = try write(extra, to: "extra.csv")
        let db = directory.path("extra.sqlite")
        let run = try succeed(["load", path, "--metadata", export.viewPath, "--table", "t"], db: db)
        XCTAssertTrue(run.stderr.contains("Warning: Inspector Notes: not a column of \(export.viewPath) (by field name or display name), "
                                          + "not loaded"), run.stderr)
        XCTAssertEqual(run.stderr.components(separatedBy: "Inspector Notes").count - 1, 1, "said once: \(run.stderr)")
        XCTAssertEqual(try csv("SELECT count(*) FROM t", db: db).last, String(export.rows.count))
    }

    /// A real rows.json export written as the portal's CSV export and its description, in
    /// `directory`: nil (and a failure) for a file that is no rows.json export.
    static func socrataCSVExport(of source: URL, in directory: TemporaryDirectory) throws
        -> (name: String, viewPath: String, csvPath: String, columns: [[String: Any]], rows: [[Any]])? {
        let name = source.lastPathComponent.components(separatedBy: ".")[0]
        let export = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any]
        guard let meta = export?["meta"] as? [String: Any], let view = meta["view"] as? [String: Any],
              let columns = view["columns"] as? [[String: Any]], let rows = export?["data"] as? [[Any]] else {
            XCTFail("\(name): not a rows.json export")
            return nil
        }
        let viewPath = directory.path("\(name).view.json")
        try JSONSerialization.data(withJSONObject: view).write(to: URL(fileURLWithPath: viewPath))
        let csvPath = directory.path("\(name).rows.csv")
        try socrataCSV(columns: columns, rows: rows).write(to: URL(fileURLWithPath: csvPath))
        return (name, viewPath, csvPath, columns, rows)
    }

    /// An export's rows as the portal's CSV export writes them.
    static func socrataCSV(columns: [[String: Any]], rows: [[Any]]) -> Data {
        let kept = columns.indices.filter {
            !((columns[$0]["fieldName"] as? String) ?? ":").hasPrefix(":") && columns[$0]["dataTypeName"] as? String != "meta_data"
        }
        func field(_ text: String) -> String {
            if text.isEmpty { return "\"\"" }
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        func cell(_ value: Any, type: String) -> String {
            switch value {
            case is NSNull: return "\u{0}"
            case let flag as Bool where type == "checkbox": return flag ? "true" : "false"
            case let text as String where type == "calendar_date": return usDate(text)
            case let parts as [Any] where type == "location":
                guard parts.count > 2, let latitude = parts[1] as? String, let longitude = parts[2] as? String else { return "\u{0}" }
                return "(\(latitude), \(longitude))"
            case let parts as [Any] where type == "url": return (parts.first as? String) ?? "\u{0}"
            case let text as String: return text
            case let number as NSNumber: return number.stringValue
            default:
                return String(decoding: (try? JSONSerialization.data(withJSONObject: value)) ?? Data(), as: UTF8.self)
            }
        }
        var lines = [kept.map { field((columns[$0]["name"] as? String) ?? "") }.joined(separator: ",")]
        for row in rows {
            let offset = row.count - columns.count
            lines.append(kept.map { index in
                let text = cell(row[index + offset], type: (columns[index]["dataTypeName"] as? String) ?? "text")
                return text == "\u{0}" ? "" : field(text)
            }.joined(separator: ","))
        }
        return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// `2014-12-30T15:04:05` as `12/30/2014 03:04:05 PM`.
    static func usDate(_ iso: String) -> String {
        let digits = iso.split { !$0.isNumber }.compactMap { Int($0) }
        guard digits.count >= 3 else { return iso }
        let hour = digits.count > 3 ? digits[3] : 0, minute = digits.count > 4 ? digits[4] : 0
        let second = digits.count > 5 ? digits[5] : 0
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(digits[1]))/\(two(digits[2]))/\(digits[0]) \(two(hour % 12 == 0 ? 12 : hour % 12)):\(two(minute)):"
            + "\(two(second)) \(hour < 12 ? "AM" : "PM")"
    }
}
