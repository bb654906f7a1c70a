import Foundation
import SocloadTestSupport
import XCTest

/// A project entry's `"export": "DIR"` (issue 48): a refresh that changed the table writes it to
/// `DIR/TABLE.parquet` (with its data package), one that changed nothing leaves the file as it
/// was, and the file is never half written.
final class ProjectExportTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portal: FakeSocrataPortal!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        portal = try FakeSocrataPortal(datasetID: "expo-0001", columns: [.init("name", "text"), .init("amount", "number")],
                                       rows: (1...4).map(ProjectRefreshTests.row), rowsUpdatedAt: 1_430_000_000)
    }

    override func tearDown() { portal.stop() }

    private func run(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments, environment: ["SOCLOAD_RETRY_DELAY": "0"], directory: URL(fileURLWithPath: directory.path("")))
    }

    private func rows(in file: String) throws -> String {
        let python = try PythonEnvironment.python(named: "parquet-venv", installing: ["pyarrow", "duckdb"])
        let read = try ChildProcess.run(python, ["-c", """
            import sys, pyarrow.parquet as pq
            t = pq.read_table(sys.argv[1])
            print(t.num_rows, str(t.schema.field("amount").type))
            """, directory.path(file)])
        XCTAssertEqual(read.status, 0, read.stderr)
        return read.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testARefreshThatChangedTheTableWritesItsFileAndOneThatDidNotLeavesIt() throws {
        try Data((#"{"database": "e.sqlite", "defaults": {"retries": 0, "export": "exports"}, "datasets": ["#
                  + #"{"id": "expo-0001", "domain": ""# + portal.baseURL + #""}]}"#).utf8)
            .write(to: URL(fileURLWithPath: directory.path("socload.json")))
        let first = try run(["refresh", "--json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains(#""exported":"exports\/expo_0001.parquet""#) || first.stdout.contains(#""exported":"exports/expo_0001.parquet""#),
                      first.stdout)
        XCTAssertEqual(try rows(in: "exports/expo_0001.parquet"), "4 decimal128(3, 2)", "1.25 to 4.25")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path("exports/datapackage.json")))
        let written = try FileManager.default.attributesOfItem(atPath: directory.path("exports/expo_0001.parquet"))[.systemFileNumber] as? UInt64

        // Nothing changed upstream: the file stays as it was (the same file, not written again).
        let unchanged = try run(["refresh"])
        XCTAssertEqual(unchanged.status, 0, unchanged.stderr)
        XCTAssertFalse(unchanged.stderr.contains("exported to"), unchanged.stderr)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: directory.path("exports/expo_0001.parquet"))[.systemFileNumber] as? UInt64,
                       written)

        // A row added: the refresh writes the file again, renamed into place.
        portal.update({ rows, _ in rows.append(ProjectRefreshTests.row(10)) }, rowsUpdatedAt: 1_430_003_600)
        let changed = try run(["refresh"])
        XCTAssertEqual(changed.status, 0, changed.stderr)
        XCTAssertTrue(changed.stderr.contains("exported to exports/expo_0001.parquet"), changed.stderr)
        XCTAssertEqual(try rows(in: "exports/expo_0001.parquet"), "5 decimal128(4, 2)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path("exports")).filter { $0.hasPrefix(".") }
        XCTAssertEqual(left, [], "no temporary file left behind")

        // The file removed by hand: the next refresh writes it again, though nothing changed.
        try FileManager.default.removeItem(atPath: directory.path("exports/expo_0001.parquet"))
        XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0)
        XCTAssertEqual(try rows(in: "exports/expo_0001.parquet"), "5 decimal128(4, 2)")
    }
}
