import Foundation
import SocloadTestSupport
import XCTest

/// A lookup reads well in Datasette (PyPI `datasette`, 1.0, installed into `.build` by this
/// test): after `extract agency+count` the table's foreign key is labelled with the agency's
/// name (Datasette's single-unique-text-column rule, which socload's plain UNIQUE index on a
/// one-column lookup meets), not with the id or the count.
final class DatasetteLookupTests: XCTestCase {
    private static let environment = Fixtures.packageRoot.appendingPathComponent(".build/datasette-venv")
    /// The release `pip install datasette` installs today (0.65), which labels no lookup that keeps counts by itself.
    private static let stableEnvironment = Fixtures.packageRoot.appendingPathComponent(".build/datasette-stable-venv")

    private func python(stable: Bool = false) throws -> String {
        let environment = stable ? Self.stableEnvironment : Self.environment
        let python = environment.appendingPathComponent("bin/python").path
        if !FileManager.default.fileExists(atPath: environment.appendingPathComponent("bin/datasette").path) {
            let made = try ChildProcess.run("/usr/bin/python3", ["-m", "venv", environment.path])
            let requirement = stable ? ["datasette<1.0"] : ["--pre", "datasette>=1.0a0"]
            let installed = made.status == 0 ? try ChildProcess.run(python, ["-m", "pip", "install", "-q"] + requirement) : made
            guard installed.status == 0 else {
                if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("datasette could not be installed: \(installed.stderr)") }
                throw XCTSkip("datasette could not be installed from PyPI: \(installed.stderr.prefix(200))")
            }
        }
        return python
    }

    func testAForeignKeyIsLabelledWithTheLookupsValue() throws {
        let python = try python()
        let directory = try TemporaryDirectory()
        let db = directory.path("nominations.sqlite")
        let fetch = try SocloadProcess.run(["fetch", "n5m4-mism", "--db", db, "-q", "--extract", "agency+count",
                                            "--datasets", Fixtures.datasetsDirectory.path])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        let script = directory.path("ask.py")
        try Data("""
            import asyncio, sys
            from datasette.app import Datasette
            async def main():
                response = await Datasette([sys.argv[1]]).client.get(sys.argv[2])
                print(response.text)
            asyncio.run(main())
            """.utf8).write(to: URL(fileURLWithPath: script))
        try assertEveryForeignKeyLabelled(python: python, arguments: [script, db], db: db)
    }

    /// Datasette's rows of `n5m4_mism` (the script and its arguments before the path) label each
    /// `agency_id` with the agency's name, as a join in the database gives it.
    private func assertEveryForeignKeyLabelled(python: String, arguments: [String], db: String,
                                               file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try ChildProcess.run(python, arguments + ["/nominations/n5m4_mism.json?_labels=on&_shape=array&_size=max&_col=agency_id"])
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
        XCTAssertEqual(rows.count, 300, file: file, line: line)
        let names = try SocloadProcess.run(["query", "select a.agency from n5m4_mism as n left join agency as a on a.id = n.agency_id "
                                            + "order by n.rowid", "--db", db, "--format", "json"])
        let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(names.stdout.utf8)) as? [[String: Any]])
        for (row, want) in zip(rows, expected) {
            XCTAssertEqual((row["agency_id"] as? [String: Any])?["label"] as? String, want["agency"] as? String, "\(row)",
                           file: file, line: line)
        }
    }

    /// The stable release with the metadata `socload datasette` prints: every foreign key of a
    /// lookup that keeps counts labelled with the lookup's value, socload's bookkeeping hidden,
    /// the table titled from the portal.
    func testTheStableReleaseLabelsAndHidesWithSocloadsMetadata() throws {
        let python = try python(stable: true)
        let directory = try TemporaryDirectory()
        let db = directory.path("nominations.sqlite")
        let fetch = try SocloadProcess.run(["fetch", "n5m4-mism", "--db", db, "-q", "--extract", "agency+count",
                                            "--datasets", Fixtures.datasetsDirectory.path])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        let printed = try SocloadProcess.run(["datasette", "--db", db])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let metadata = directory.path("metadata.json")
        try Data(printed.stdout.utf8).write(to: URL(fileURLWithPath: metadata))
        let script = directory.path("ask.py")
        try Data("""
            import asyncio, json, sys
            from datasette.app import Datasette
            async def main():
                with open(sys.argv[2]) as file:
                    datasette = Datasette([sys.argv[1]], metadata=json.load(file))
                response = await datasette.client.get(sys.argv[3])
                print(response.text)
            asyncio.run(main())
            """.utf8).write(to: URL(fileURLWithPath: script))
        let version = try ChildProcess.run(python, ["-c", "import datasette.version as v; print(v.__version__)"])
        XCTAssertTrue(version.stdout.hasPrefix("0."), "the stable release: \(version.stdout)")
        try assertEveryForeignKeyLabelled(python: python, arguments: [script, db, metadata], db: db)
        let listing = try ChildProcess.run(python, [script, db, metadata, "/nominations.json"])
        let database = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any], listing.stdout)
        let tables = try XCTUnwrap(database["tables"] as? [[String: Any]])
        let visible = tables.filter { ($0["hidden"] as? Bool) == false }.compactMap { $0["name"] as? String }.sorted()
        XCTAssertEqual(visible, ["agency", "n5m4_mism"], "\(tables.map { ($0["name"] ?? "", $0["hidden"] ?? "") })")
        let page = try ChildProcess.run(python, [script, db, metadata, "/nominations/n5m4_mism"])
        XCTAssertTrue(page.stdout.contains("White House Nominations"), "the portal's title on the table's page")
    }
}
