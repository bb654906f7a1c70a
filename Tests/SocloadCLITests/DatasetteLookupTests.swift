import Foundation
import SocloadTestSupport
import XCTest

/// A lookup reads well in Datasette (PyPI `datasette`, 1.0, installed into `.build` by this
/// test): after `extract agency+count` the table's foreign key is labelled with the agency's
/// name (Datasette's single-unique-text-column rule, which socload's plain UNIQUE index on a
/// one-column lookup meets), not with the id or the count.
final class DatasetteLookupTests: XCTestCase {
    private static let environment = Fixtures.packageRoot.appendingPathComponent(".build/datasette-venv")

    private func python() throws -> String {
        let python = Self.environment.appendingPathComponent("bin/python").path
        if !FileManager.default.fileExists(atPath: Self.environment.appendingPathComponent("bin/datasette").path) {
            let made = try ChildProcess.run("/usr/bin/python3", ["-m", "venv", Self.environment.path])
            let installed = made.status == 0 ? try ChildProcess.run(python, ["-m", "pip", "install", "-q", "--pre", "datasette>=1.0a0"]) : made
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
        let run = try ChildProcess.run(python, [script, db, "/nominations/n5m4_mism.json?_labels=on&_shape=array&_size=max&_col=agency_id"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
        XCTAssertEqual(rows.count, 300)
        let names = try SocloadProcess.run(["query", "select a.agency from n5m4_mism as n left join agency as a on a.id = n.agency_id "
                                            + "order by n.rowid", "--db", db, "--format", "json"])
        let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(names.stdout.utf8)) as? [[String: Any]])
        for (row, want) in zip(rows, expected) {
            let label = (row["agency_id"] as? [String: Any])?["label"] as? String
            XCTAssertEqual(label, want["agency"] as? String, "\(row)")
        }
    }
}
