import Foundation
import SocloadTestSupport
import XCTest

/// A refresh of a real export edited as portals edit them (a column renamed, one dropped, one
/// retyped, one added): `warn` takes the new shape and prints one line per change, `fail`
/// changes nothing (exit 65), every change is logged and `info --changes` shows it, on SQLite
/// and PostgreSQL alike.
final class SchemaChangeCommandTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func socload(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db])
    }

    /// The export with `rename` (field → new field, same column id), `drop` (field, its cells
    /// too), `retype` (field → Socrata type) and a new text column `note` applied.
    private func edited(_ source: URL, rename: (String, String), drop: String, retype: (String, String)) throws -> String {
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        var meta = try XCTUnwrap(document["meta"] as? [String: Any])
        var view = try XCTUnwrap(meta["view"] as? [String: Any])
        var columns = try XCTUnwrap(view["columns"] as? [[String: Any]])
        let dropped = try XCTUnwrap(columns.firstIndex { $0["fieldName"] as? String == drop && ($0["id"] as? Int ?? -1) >= 0 })
        columns.remove(at: dropped)
        for index in columns.indices where (columns[index]["id"] as? Int ?? -1) >= 0 {
            if columns[index]["fieldName"] as? String == rename.0 { columns[index]["fieldName"] = rename.1 }
            if columns[index]["fieldName"] as? String == retype.0 { columns[index]["dataTypeName"] = retype.1 }
            columns[index]["cachedContents"] = nil
        }
        columns.append(["id": 999_000_001, "name": "Note", "fieldName": "note", "dataTypeName": "text", "position": 999])
        view["columns"] = columns
        meta["view"] = view
        let rows = try XCTUnwrap(document["data"] as? [[Any]]).enumerated().map { index, row -> [Any] in
            var row = row
            row.remove(at: dropped)
            return row + ["note \(index)"]
        }
        // The metadata first, as a portal writes it.
        let text = "{\"meta\":" + String(decoding: try JSONSerialization.data(withJSONObject: meta), as: UTF8.self)
            + ",\"data\":" + String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self) + "}"
        let path = directory.path("edited-\(source.lastPathComponent)")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private var postgreSQL: TestPostgreSQL.TestDatabase?

    private func databases() throws -> [String] {
        postgreSQL = try TestPostgreSQL.makeDatabase()
        return [directory.path("changes.sqlite"), postgreSQL!.url]
    }

    func testWarnTakesTheNewShapeFailChangesNothingAndEveryChangeIsLogged() throws {
        var sources = [(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json"),
                        ("agency", "department"), "status", ("confirmation_vote", "text"))]
        if let shared = Fixtures.sharedDatasets {
            sources.append((shared.appendingPathComponent("cqsj-cfgu.rows.json"), ("borough", "boro"), "street_nam", ("loc", "text")))
        }
        for db in try databases() {
            for (source, rename, drop, retype) in sources {
                let table = "t_" + source.lastPathComponent.prefix(4)
                let first = try socload(["fetch", source.path, "--table", table, "--quiet"], db: db)
                XCTAssertEqual(first.status, 0, first.stderr)
                let again = try socload(["fetch", source.path, "--table", table], db: db)
                XCTAssertFalse(again.stderr.split(separator: "\n").contains { $0.hasPrefix("Warning") && !$0.contains("no PostGIS") },
                               "an unchanged shape says nothing: \(again.stderr)")
                let path = try edited(source, rename: rename, drop: drop, retype: retype)
                let before = try socload(["query", "select * from \(table) order by 1", "--format", "csv"], db: db).stdout
                let failed = try socload(["fetch", path, "--table", table, "--on-schema-change", "fail"], db: db)
                XCTAssertEqual(failed.status, 65, failed.stderr)
                let expected = ["column \(retype.0) retyped: decimal -> text", "column \(rename.0) renamed to \(rename.1)",
                                "column note added (text)", "column \(drop) removed (was text)"]
                for line in expected { XCTAssertTrue(failed.stderr.contains(line), "\(line) in \(failed.stderr)") }
                XCTAssertEqual(try socload(["query", "select * from \(table) order by 1", "--format", "csv"], db: db).stdout, before)
                XCTAssertEqual(try socload(["info", table, "--changes", "--format", "csv"], db: db).stdout,
                               "changed_at,kind,name,before,after\r\n", "fail logs nothing")

                let warned = try socload(["fetch", path, "--table", table], db: db)
                XCTAssertEqual(warned.status, 0, warned.stderr)
                for line in expected { XCTAssertTrue(warned.stderr.contains("Warning: \(table): \(line)"), "\(line) in \(warned.stderr)") }
                let columns = try socload(["query", "select \(rename.1), note from \(table) order by 1 limit 1", "--format", "csv"], db: db)
                XCTAssertEqual(columns.status, 0, columns.stderr)
                let log = try socload(["info", table, "--changes", "--format", "csv"], db: db).stdout
                    .split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst() }
                XCTAssertEqual(log.map { $0.joined(separator: ",") }, [
                    "column retyped,\(retype.0),decimal,text", "column renamed,\(rename.0),\(rename.0),\(rename.1)",
                    "column added,note,,text", "column removed,\(drop),text,",
                ], db)
                let tables = try socload(["tables", "--format", "csv"], db: db).stdout
                XCTAssertFalse(tables.contains("_socload"), tables)
            }
        }
    }

    /// The export with one column renamed (same column id) and, with `edit`, the first text
    /// cell of another column changed in the first `edits` rows.
    private func renamed(_ source: URL, _ rename: (String, String), edit: String? = nil, edits: Int = 0,
                         name: String) throws -> String {
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        var meta = try XCTUnwrap(document["meta"] as? [String: Any])
        var view = try XCTUnwrap(meta["view"] as? [String: Any])
        var columns = try XCTUnwrap(view["columns"] as? [[String: Any]])
        for index in columns.indices where columns[index]["fieldName"] as? String == rename.0 { columns[index]["fieldName"] = rename.1 }
        let edited = edit.flatMap { field in columns.firstIndex { $0["fieldName"] as? String == field } }
        view["columns"] = columns
        meta["view"] = view
        var rows = try XCTUnwrap(document["data"] as? [[Any]])
        if let edited {
            for index in 0..<edits { rows[index][edited] = "edited \(index)" }
        }
        let text = "{\"meta\":" + String(decoding: try JSONSerialization.data(withJSONObject: meta), as: UTF8.self)
            + ",\"data\":" + String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self) + "}"
        let path = directory.path(name + "-" + source.lastPathComponent)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A rename alone changes no row (rows are compared by the portal's column id): the refresh
    /// counts them unchanged, the change log gets no row, and a real edit made beside a rename
    /// is logged as that edit only; `status` calls it a rename as the refresh does.
    func testARenameAloneCountsNoChangedRow() throws {
        var sources = [(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json"), ("agency", "department"), "name", 300)]
        if let shared = Fixtures.sharedDatasets {
            sources.append((shared.appendingPathComponent("zzzz-zzzz.rows.json"), ("dba", "business_name"), "street", 2014))
        }
        for db in try databases() {
            for (source, rename, edit, rows) in sources {
                let table = "r_" + source.lastPathComponent.prefix(4)
                XCTAssertEqual(try socload(["fetch", source.path, "--table", table, "--quiet"], db: db).status, 0)
                let onlyRenamed = try renamed(source, rename, name: "renamed")
                let refreshed = try socload(["fetch", onlyRenamed, "--table", table], db: db)
                XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
                XCTAssertTrue(refreshed.stderr.contains("Warning: \(table): column \(rename.0) renamed to \(rename.1)"), refreshed.stderr)
                XCTAssertTrue(refreshed.stderr.contains("Refreshed \(table): 0 added, 0 changed, 0 removed, \(grouped(rows)) unchanged"),
                              "\(db): \(refreshed.stderr)")
                let nothing = try socload(["changes", table, "--format", "csv"], db: db)
                XCTAssertEqual(nothing.stdout, "refreshed_at,change,key,column,old,new\r\n", "no row logged for a rename: \(db)")
                // Renamed back and two cells edited: two changed rows, each logged as its edit alone.
                let both = try renamed(source, (rename.1, rename.0), edit: edit, edits: 2, name: "both")
                let second = try socload(["fetch", both, "--table", table], db: db)
                XCTAssertTrue(second.stderr.contains("Refreshed \(table): 0 added, 2 changed, 0 removed, \(grouped(rows - 2)) unchanged"),
                              "\(db): \(second.stderr)")
                let lines = try socload(["changes", table, "--format", "csv"], db: db).stdout.split(whereSeparator: \.isNewline)
                    .dropFirst().map { CSVLine.fields(String($0)) }
                XCTAssertEqual(lines.count, 2, "\(db): \(lines)")
                XCTAssertEqual(Set(lines.map { $0[3] }), [edit], "\(db): \(lines)")
                XCTAssertEqual(Set(lines.map { $0[5] }), ["edited 0", "edited 1"], "\(db): \(lines)")
            }
        }
        // status calls a rename a rename, as the refresh does.
        let project = directory.path("socload.json")
        let bundled = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")
        try Data(#"{"database": "s.sqlite", "datasets": [{"file": "\#(bundled.path)", "table": "s"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: project))
        XCTAssertEqual(try SocloadProcess.run(["refresh", "--project", project, "--quiet"]).status, 0)
        let moved = try renamed(bundled, ("agency", "department"), name: "status")
        try Data(#"{"database": "s.sqlite", "datasets": [{"file": "\#(moved)", "table": "s"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: project))
        let status = try SocloadProcess.run(["status", "--project", project, "--format", "csv"])
        XCTAssertTrue(status.stdout.contains("column agency renamed to department"), status.stdout)
        XCTAssertFalse(status.stdout.contains("column department added"), status.stdout)
    }

    private func grouped(_ number: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        return formatter.string(from: NSNumber(value: number)) ?? String(number)
    }

    func testADocumentsRenamedFieldIsARemovalAndAnAddition() throws {
        let db = directory.path("documents.sqlite")
        let path = directory.path("t.ndjson")
        try Data("{\"id\": 1, \"agency\": \"State\"}\n{\"id\": 2, \"agency\": \"Defense\"}\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try socload(["load", path, "--quiet"], db: db).status, 0)
        try Data("{\"id\": 1, \"department\": \"State\"}\n{\"id\": 2, \"department\": \"Defense\"}\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let failed = try socload(["load", path, "--on-schema-change", "fail"], db: db)
        XCTAssertEqual(failed.status, 65, failed.stderr)
        let warned = try socload(["load", path], db: db)
        XCTAssertTrue(warned.stderr.contains("Warning: t: column department added (text)"), warned.stderr)
        XCTAssertTrue(warned.stderr.contains("Warning: t: column agency removed (was text)"), warned.stderr)
        let bad = try socload(["load", path, "--on-schema-change", "ignore"], db: db)
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--on-schema-change takes warn, fail or evolve, not 'ignore'"), bad.stderr)
    }

    /// A refusal that lists many changes is cut to one line of at most 300 characters between
    /// words, keeping its start and what became of the table; its hint fits every command.
    func testALongRefusalIsCutBetweenWords() throws {
        let db = directory.path("long.sqlite")
        let path = directory.path("wide.ndjson")
        let names = (10..<30).map { "a_rather_long_column_name_\($0)" }
        func record(_ prefix: String) -> String {
            "{" + names.map { "\"\(prefix)\($0)\": 1" }.joined(separator: ", ") + "}\n"
        }
        try Data(record("").utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try socload(["load", path, "--quiet"], db: db).status, 0)
        try Data(record("x").utf8).write(to: URL(fileURLWithPath: path))
        let failed = try socload(["load", path, "--on-schema-change", "fail"], db: db)
        XCTAssertEqual(failed.status, 65, failed.stderr)
        let line = failed.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(line.contains("\n"), line)
        XCTAssertLessThanOrEqual(line.count, "Error: ".count + 300, line)
        XCTAssertTrue(line.contains(" ... "), line)
        XCTAssertTrue(line.hasSuffix("wide was not changed"), line)
        XCTAssertFalse(line.contains("sync --on-schema-change"), "a load is no sync: \(line)")
        for word in line.split(separator: " ") where word.contains("a_rather_long") {
            XCTAssertNotNil(word.range(of: #"^x?a_rather_long_column_name_[0-9]{2}[,;)]*$"#, options: .regularExpression),
                            "a cut word: \(word) in \(line)")
        }
    }

    /// A database made by the previous release (a catalog without `_socload_meta` and the log)
    /// is migrated by the first load that commits; a failed one leaves it as it was.
    func testACatalogOfThePreviousReleaseIsMigratedOnFirstUse() throws {
        let source = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")
        let edited = try edited(source, rename: ("agency", "department"), drop: "status", retype: ("confirmation_vote", "text"))
        for db in try databases() {
            XCTAssertEqual(try socload(["fetch", source.path, "--table", "t", "--quiet"], db: db).status, 0)
            // What the previous release had: the catalog alone (its own refreshes kept no log or fingerprints).
            for table in ["_socload_meta", "_socload_schema_changes", "_socload_refreshes", "_socload_table_names", "_socload_fingerprints_t"] {
                XCTAssertEqual(try socload(["query", "drop table \(table)", "--write"], db: db).status, 0)
            }
            _ = try socload(["query", "drop table _socload_previous_t", "--write"], db: db)
            let version = { try self.socload(["query", "select value from _socload_meta", "--format", "csv"], db: db) }
            XCTAssertNotEqual(try version().status, 0, "a version-1 catalog has no _socload_meta")
            XCTAssertEqual(try socload(["info", "t", "--changes", "--format", "csv"], db: db).stdout,
                           "changed_at,kind,name,before,after\r\n", "an old catalog reads as having no changes")
            XCTAssertEqual(try socload(["fetch", edited, "--table", "t", "--on-schema-change", "fail"], db: db).status, 65)
            XCTAssertNotEqual(try version().status, 0, "a failed load leaves the old catalog as it was")
            XCTAssertEqual(try socload(["fetch", edited, "--table", "t", "--quiet"], db: db).status, 0)
            XCTAssertEqual(try version().stdout, "value\r\n4\r\n")
            XCTAssertEqual(try socload(["info", "t", "--changes", "--format", "csv"], db: db).stdout
                .split(whereSeparator: \.isNewline).count, 5, db)
            XCTAssertEqual(try socload(["info", "n5m4-mism", "--format", "csv"], db: db).status, 0)
            // The first refresh after the migration had nothing to compare with; the next one counts.
            let counted = try socload(["fetch", edited, "--table", "t", "--force"], db: db)
            XCTAssertTrue(counted.stderr.contains("Refreshed t: 0 added, 0 changed, 0 removed, 300 unchanged"), counted.stderr)
            // A refresh log from before its last two columns gets them.
            for column in ["unchanged", "reissued"] {
                XCTAssertEqual(try socload(["query", "alter table _socload_refreshes drop column \(column)", "--write"], db: db).status, 0)
            }
            XCTAssertEqual(try socload(["fetch", edited, "--table", "t", "--quiet", "--force"], db: db).status, 0)
            let log = try socload(["info", "t", "--refreshes", "--format", "csv"], db: db).stdout.split(whereSeparator: \.isNewline)
            XCTAssertEqual(log.last.map { $0.split(separator: ",", omittingEmptySubsequences: false)[7...11].joined(separator: ",") },
                           "0,0,0,300,", db)
        }
    }

    /// `evolve` keeps the table's columns: the renamed one under its old name with the new
    /// values, the dropped one NULL, the new one added; said and logged once, not every refresh.
    func testEvolveKeepsTheColumnsQueriesUse() throws {
        let source = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")
        let edited = try edited(source, rename: ("agency", "department"), drop: "status", retype: ("confirmation_vote", "text"))
        for db in try databases() {
            XCTAssertEqual(try socload(["fetch", source.path, "--table", "t", "--quiet"], db: db).status, 0)
            let before = try socload(["query", "select _id, agency from t order by _id", "--format", "csv"], db: db).stdout
            let evolved = try socload(["fetch", edited, "--table", "t", "--on-schema-change", "evolve"], db: db)
            XCTAssertEqual(evolved.status, 0, evolved.stderr)
            XCTAssertTrue(evolved.stderr.contains("Warning: t: column agency renamed to department upstream: kept as agency"), evolved.stderr)
            XCTAssertTrue(evolved.stderr.contains("Warning: t: column status removed upstream: kept (NULL in new rows)"), evolved.stderr)
            XCTAssertEqual(try socload(["query", "select _id, agency from t order by _id", "--format", "csv"], db: db).stdout, before,
                           "the renamed column keeps its name and holds the new field's values")
            let kept = try socload(["query", "select count(*) as n, count(status) as status, count(note) as note from t",
                                    "--format", "csv"], db: db)
            XCTAssertEqual(kept.stdout, "n,status,note\r\n300,0,300\r\n", kept.stderr)
            let again = try socload(["fetch", edited, "--table", "t", "--on-schema-change", "evolve", "--force"], db: db)
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertFalse(again.stderr.contains("Warning"), "what was kept is said once: \(again.stderr)")
            XCTAssertEqual(try socload(["info", "t", "--changes", "--format", "csv"], db: db).stdout
                .split(whereSeparator: \.isNewline).count, 5, db)
        }
    }
}
