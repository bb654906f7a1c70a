import Foundation
import SocloadTestSupport
import XCTest

/// Lookups found while the rows stream (SQLite), on every real export beside the project: each
/// row keeps exactly the values a plain load of the same file has, the counts are the GROUP BY
/// of that plain copy, and a refresh keeps every id.
extension LookupTests {
    func testLookupsFoundWhileStreamingKeepEveryRowsValuesOnTheRealExports() throws {
        var checked: [String] = []
        for source in RowChangeCommandTests.exports {
            let db = directory.path("real-\(source.deletingPathExtension().lastPathComponent).sqlite")
            try succeed(["fetch", source.path, "--table", "plain", "--quiet"], db: db)
            // The text columns (by the plan's type: a geometry is text in SQLite, but not looked up).
            let text = try succeed(["info", "plain", "--columns", "--format", "csv"], db: db)
                .split(whereSeparator: \.isNewline).dropFirst().map { CSVLine.fields(String($0)) }
                .filter { $0.count > 1 && $0[1] == "text" && !$0[0].hasPrefix("_") }.map { $0[0] }
            guard let single = text.first else { continue }
            let pair = Array(text.dropFirst().prefix(2))
            func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            var arguments = ["fetch", source.path, "--table", "x", "--quiet", "--extract", "\(quoted(single)):lk_a+count"]
            if pair.count == 2 { arguments += ["--extract", "\(quoted(pair[0])),\(quoted(pair[1])):lk_bc"] }
            try succeed(arguments, db: db)

            let columns = ([single] + (pair.count == 2 ? pair : [])).map(quoted)
            let plain = try csv("SELECT \(columns.map { "p.\($0)" }.joined(separator: ", ")) FROM plain p ORDER BY p.rowid", db: db)
            var looked = "SELECT a.\(columns[0])" + (pair.count == 2 ? ", bc.\(columns[1]), bc.\(columns[2])" : "")
                + " FROM x LEFT JOIN lk_a a ON a.id = x.lk_a_id"
            if pair.count == 2 { looked += " LEFT JOIN lk_bc bc ON bc.id = x.lk_bc_id" }
            XCTAssertEqual(try csv(looked + " ORDER BY x.rowid", db: db), plain, source.lastPathComponent)
            XCTAssertFalse(plain.isEmpty, source.lastPathComponent)
            XCTAssertEqual(try csv("SELECT \(columns[0]), x_count FROM lk_a ORDER BY 1", db: db),
                           try csv("SELECT \(columns[0]), count(*) FROM plain WHERE \(columns[0]) IS NOT NULL GROUP BY 1 ORDER BY 1", db: db),
                           source.lastPathComponent)
            // A value is one lookup row: as many as the distinct values of the plain copy.
            XCTAssertEqual(try csv("SELECT count(*) FROM lk_a", db: db),
                           try csv("SELECT count(DISTINCT \(columns[0])) FROM plain", db: db), source.lastPathComponent)

            let ids = try csv("SELECT id, \(columns[0]) FROM lk_a ORDER BY id", db: db)
            try succeed(["fetch", source.path, "--table", "x", "--quiet", "--force"], db: db)
            XCTAssertEqual(try csv("SELECT id, \(columns[0]) FROM lk_a ORDER BY id", db: db), ids, source.lastPathComponent)
            XCTAssertEqual(try csv(looked + " ORDER BY x.rowid", db: db), plain, source.lastPathComponent)
            checked.append(source.lastPathComponent + (pair.count == 2 ? " (and a pair)" : ""))
        }
        XCTAssertTrue(checked.contains("n5m4-mism.json (and a pair)"), "\(checked)")
    }
}
