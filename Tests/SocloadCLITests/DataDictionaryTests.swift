import Foundation
import SocloadDatabase
import SocloadPostgreSQL
import SocloadTestSupport
import XCTest

/// The portal's data dictionary kept with each load: `info` shows the dataset's facts,
/// `info --columns` each column's display name and description, `info --dictionary` the whole
/// dictionary (Markdown too), and PostgreSQL gets comments, a user's own comment kept.
final class DataDictionaryTests: XCTestCase {
    var directory: TemporaryDirectory!
    private var postgreSQL: TestPostgreSQL.TestDatabase?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func socload(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db])
    }

    /// A real export whose columns have descriptions (the restaurant inspections of `zzzz-zzzz`),
    /// else the bundled sample, which describes only the dataset.
    private func export() -> (path: String, described: Bool) {
        if let shared = Fixtures.sharedDatasets?.appendingPathComponent("zzzz-zzzz.rows.json"),
           FileManager.default.fileExists(atPath: shared.path) {
            return (shared.path, true)
        }
        return (Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path, false)
    }

    func testTheDictionaryIsKeptAndShownOnBothDatabases() throws {
        let (path, described) = export()
        let view = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let meta = try XCTUnwrap((view["meta"] as? [String: Any])?["view"] as? [String: Any])
        let description = try XCTUnwrap(meta["description"] as? String)
        let columns = try XCTUnwrap(meta["columns"] as? [[String: Any]]).filter { ($0["id"] as? Int ?? -1) >= 0 }
        postgreSQL = try TestPostgreSQL.makeDatabase()
        for db in [directory.path("dictionary.sqlite"), postgreSQL!.url] {
            XCTAssertEqual(try socload(["fetch", path, "--table", "d", "--quiet"], db: db).status, 0)
            let facts = try socload(["info", "d", "--format", "json"], db: db)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(facts.stdout.utf8)) as? [String: Any], facts.stdout)
            XCTAssertEqual(object["table"] as? String, "d", "one object, field: value")
            XCTAssertNotNil(object["rows"] as? Int)
            XCTAssertTrue(facts.stdout.contains(try String(decoding: JSONSerialization.data(withJSONObject: [description]), as: UTF8.self)
                .dropFirst().dropLast()), facts.stdout)
            let dictionary = try socload(["info", "d", "--dictionary", "--format", "csv"], db: db)
            XCTAssertEqual(dictionary.status, 0, dictionary.stderr)
            let lines = dictionary.stdout.split(whereSeparator: \.isNewline)
            XCTAssertEqual(lines.first, "column,type,field,display_name,socrata_type,description,format")
            let first = try XCTUnwrap(columns.first)
            let field = try XCTUnwrap(first["fieldName"] as? String)
            let row = try XCTUnwrap(lines.first { $0.hasPrefix("\(field),") }, dictionary.stdout)
            XCTAssertTrue(row.contains(",\(field),\(first["name"] as? String ?? "?"),\(first["dataTypeName"] as? String ?? "?"),"), String(row))
            if described, let text = first["description"] as? String {
                XCTAssertTrue(row.contains(text), "\(row) has \(text)")
                let perColumn = try socload(["info", "d", "--columns", "--format", "csv"], db: db).stdout
                XCTAssertTrue(perColumn.contains(text), perColumn)
            }
            // Every format carries the dataset's facts: its own row first, of type `dataset`.
            let rows = try socload(["info", "d", "--dictionary", "--format", "json"], db: db).stdout
            let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rows.utf8)) as? [[String: Any]], rows)
            let dataset = try XCTUnwrap(objects.first)
            XCTAssertEqual(dataset["column"] as? String, "d")
            XCTAssertEqual(dataset["type"] as? String, "dataset")
            XCTAssertEqual(dataset["field"] as? String, meta["id"] as? String)
            XCTAssertEqual(dataset["display_name"] as? String, meta["name"] as? String)
            XCTAssertEqual(dataset["description"] as? String, description)
            for (fact, key) in [("attribution", "attribution"), ("license", "license")] {
                if let stated = meta[key] as? String ?? (meta[key] as? [String: Any])?["name"] as? String {
                    XCTAssertTrue((dataset["format"] as? String ?? "").contains("\(fact)=\(stated)"), "\(dataset)")
                }
            }
            XCTAssertTrue(lines.dropFirst().first?.hasPrefix("d,dataset,\(meta["id"] as? String ?? "?"),") == true, dictionary.stdout)
            let markdown = try socload(["info", "d", "--dictionary", "--format", "markdown"], db: db).stdout
            XCTAssertTrue(markdown.hasPrefix("# \(meta["name"] as? String ?? "?")\n\n\(description)"), markdown)
            XCTAssertTrue(markdown.contains("\n| column | type | field | display_name | socrata_type | description | format |\n|---|"),
                          markdown)
        }
        // PostgreSQL: the portal's descriptions as comments; a comment of the user's stays.
        let connection = try postgreSQL!.connect()
        XCTAssertEqual(try connection.value("SELECT obj_description('public.d'::regclass, 'pg_class')"), description)
        if described, let text = columns.first?["description"] as? String, let field = columns.first?["fieldName"] as? String {
            XCTAssertEqual(try connection.value("SELECT col_description('public.d'::regclass, attnum) FROM pg_attribute "
                                                + "WHERE attrelid = 'public.d'::regclass AND attname = $1", [field]), text)
        }
        XCTAssertEqual(try socload(["fetch", path, "--table", "d", "--quiet", "--force"], db: postgreSQL!.url).status, 0)
        XCTAssertEqual(try connection.value("SELECT obj_description('public.d'::regclass, 'pg_class')"), description,
                       "socload's own comment is renewed")
        try connection.execute("COMMENT ON TABLE public.d IS 'mine: inspections, cleaned nightly'")
        XCTAssertEqual(try socload(["fetch", path, "--table", "d", "--quiet", "--force"], db: postgreSQL!.url).status, 0)
        XCTAssertEqual(try connection.value("SELECT obj_description('public.d'::regclass, 'pg_class')"),
                       "mine: inspections, cleaned nightly")
    }

    func testMarkdownKeepsEachRowOnOneLine() throws {
        let db = directory.path("md.sqlite")
        let path = directory.path("t.ndjson")
        try Data("{\"a\": \"x | y\", \"b\": \"two\\nlines\"}\n{\"a\": null, \"b\": \"back\\\\slash\"}\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try socload(["load", path, "--quiet"], db: db).status, 0)
        let run = try socload(["query", "select a, b from t order by rowid", "--format", "markdown"], db: db)
        XCTAssertEqual(run.stdout, "| a | b |\n|---|---|\n| x \\| y | two<br>lines |\n|  | back\\\\slash |\n", run.stderr)
    }

    /// A description of megabytes is kept once, in the catalog's `description`: the plan records
    /// digests only, every command still shows the text, and a table rebuilt from the plan
    /// (`extract` on PostgreSQL) is described again.
    func testALongDescriptionIsKeptOnceAndStillShown() throws {
        let sample = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json")
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: sample)) as? [String: Any])
        var meta = try XCTUnwrap(document["meta"] as? [String: Any])
        var view = try XCTUnwrap(meta["view"] as? [String: Any])
        let description = "Ünïcode \"quoted\" nominations, " + String(repeating: "described at length. ", count: 60_000)
        view["description"] = description
        var columns = try XCTUnwrap(view["columns"] as? [[String: Any]])
        let described = try XCTUnwrap(columns.firstIndex { $0["fieldName"] as? String == "holdover" })
        columns[described]["description"] = "Where the nomination stands"
        view["columns"] = columns
        meta["view"] = view
        let path = directory.path("long-n5m4-mism.json")
        // `meta` before `data`, as the portal writes them.
        let text = "{\"meta\": " + String(decoding: try JSONSerialization.data(withJSONObject: meta), as: UTF8.self)
            + ", \"data\": " + String(decoding: try JSONSerialization.data(withJSONObject: try XCTUnwrap(document["data"])), as: UTF8.self) + "}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        postgreSQL = try TestPostgreSQL.makeDatabase()
        let sqlite = directory.path("long.sqlite")
        for db in [sqlite, postgreSQL!.url] {
            let fetched = try socload(["fetch", path, "--table", "d", "--quiet"], db: db)
            XCTAssertEqual(fetched.status, 0, fetched.stderr)
            let lengths = try socload(["query", "select length(plan_json) as plan, length(dictionary_json) as dictionary, "
                                       + "length(description) as description from _socload_datasets", "--format", "csv"], db: db)
            let figures = try XCTUnwrap(lengths.stdout.split(whereSeparator: \.isNewline).last, lengths.stderr)
                .split(separator: ",").compactMap { Int($0) }
            XCTAssertEqual(figures.count, 3, lengths.stdout)
            XCTAssertLessThan(figures[0], 10_000, "the plan records a digest, not the text")
            XCTAssertLessThan(figures[1], 10_000, "the dictionary holds the other facts")
            XCTAssertEqual(figures[2], description.count)
            let rows = try socload(["info", "d", "--dictionary", "--format", "json"], db: db).stdout
            let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rows.utf8)) as? [[String: Any]])
            XCTAssertEqual(objects.first?["description"] as? String, description)
            XCTAssertEqual(try socload(["fetch", path, "--table", "d", "--quiet", "--force"], db: db).status, 0)
            XCTAssertEqual(try socload(["extract", "d", "status", "--quiet"], db: db).status, 0)
            let again = try socload(["info", "d", "--dictionary", "--format", "json"], db: db).stdout
            XCTAssertTrue(again.contains("described at length. described at length."), "a refresh and an extract keep it")
        }
        let connection = try postgreSQL!.connect()
        XCTAssertEqual(try connection.value("SELECT obj_description('public.d'::regclass, 'pg_class')"), description,
                       "the table rebuilt by extract is described again")
        let digest = try XCTUnwrap(try connection.value("SELECT md5(obj_description('public.d'::regclass, 'pg_class'))"))
        XCTAssertEqual(try connection.value("SELECT plan_json::json->'tables'->0->'descriptions'->>'table_digest' FROM _socload_datasets"),
                       digest, "the server's digest of the comment is the plan's: a refresh compares them without reading it")
        XCTAssertEqual(try connection.value("SELECT col_description('public.d'::regclass, attnum) FROM pg_attribute "
                                            + "WHERE attrelid = 'public.d'::regclass AND attname = 'holdover'"),
                       "Where the nomination stands")
        // A catalog recorded before the description had a column of its own still shows it.
        let old = try Database(path: sqlite)
        try old.execute(sql: "UPDATE _socload_datasets SET dictionary_json = json_set(dictionary_json, '$.description', "
                        + "description), description = NULL")
        let shown = try socload(["info", "d", "--dictionary", "--format", "json"], db: sqlite).stdout
        XCTAssertTrue(shown.contains("described at length. described at length."), shown.prefix(300).description)
    }
}
