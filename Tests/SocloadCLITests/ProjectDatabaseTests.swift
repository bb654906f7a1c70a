import Foundation
import SocloadTestSupport
import XCTest

/// Inside a project folder (or with `--project FILE`), every command that opens a database uses
/// the project's `"database"` when given neither `--db` nor `$SOCLOAD_DB`.
final class ProjectDatabaseTests: XCTestCase {
    var directory: TemporaryDirectory!
    var folder: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        folder = URL(fileURLWithPath: directory.path("project"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let dataset = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        let project = #"{"database": "data/open.sqlite", "datasets": [{"file": "\#(dataset)", "name": "nominations"}]}"#
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data(project.utf8).write(to: folder.appendingPathComponent("socload.json"))
        let refresh = try SocloadProcess.run(["refresh", "--quiet"], directory: folder)
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/open.sqlite").path))
    }

    private func inProject(_ arguments: [String], environment: [String: String] = [:]) throws -> SocloadRun {
        try SocloadProcess.run(arguments, environment: environment, directory: folder)
    }

    func testEveryCommandOpensTheProjectsDatabase() throws {
        let count = try inProject(["query", "select count(*) AS n from n5m4_mism", "--format", "csv"])
        XCTAssertEqual(count.status, 0, count.stderr)
        XCTAssertEqual(count.stdout, "n\r\n300\r\n")
        let reads: [[String]] = [
            ["select", "n5m4_mism", "--limit", "1"], ["info", "n5m4_mism"], ["tables"], ["schema", "n5m4_mism"],
            ["changes", "n5m4_mism"], ["verify", "n5m4_mism"],
        ]
        for arguments in reads {
            let run = try inProject(arguments + ["--format", "csv"].filter { _ in arguments[0] != "changes" })
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("no database"), "\(arguments): \(run.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("socload.sqlite").path))
        // A dataset's name in the project ("nominations") reads the table it loaded, as refresh calls it.
        for arguments in [["info", "nominations"], ["select", "nominations", "--limit", "1"], ["schema", "nominations"],
                          ["verify", "nominations"], ["changes", "nominations"]] {
            let run = try inProject(arguments)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
        }
        XCTAssertTrue(try inProject(["info", "nominations", "--format", "csv"]).stdout.contains("n5m4_mism"))
        XCTAssertEqual(try inProject(["info", "nomination"]).status, 66, "a name no dataset has is still unknown")
        // Writes too: extract and drop, in the project's database.
        let extract = try inProject(["extract", "n5m4_mism", "agency", "--count", "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let recount = try inProject(["recount", "n5m4_mism"])
        XCTAssertEqual(recount.status, 0, recount.stderr)
        let tables = try inProject(["tables", "--format", "csv"]).stdout
        XCTAssertTrue(tables.contains("agency,"), tables)
        // --project from elsewhere; --db and $SOCLOAD_DB still win.
        let elsewhere = try SocloadProcess.run(["query", "select count(*) AS n from agency", "--format", "csv",
                                                "--project", folder.appendingPathComponent("socload.json").path])
        XCTAssertEqual(elsewhere.status, 0, elsewhere.stderr)
        XCTAssertTrue(elsewhere.stdout.hasPrefix("n\r\n"), elsewhere.stdout)
        let other = directory.path("other.sqlite")
        for run in [try inProject(["tables", "--db", other]), try inProject(["tables"], environment: ["SOCLOAD_DB": other])] {
            XCTAssertEqual(run.status, 66, run.stderr)
            XCTAssertTrue(run.stderr.contains("no database at '\(other)'"), run.stderr)
        }
        let drop = try inProject(["drop", "n5m4_mism"])
        XCTAssertEqual(drop.status, 0, drop.stderr)
        XCTAssertFalse(try inProject(["tables", "--format", "csv"]).stdout.contains("n5m4_mism,"))
        // The help says where the database comes from.
        XCTAssertTrue(try SocloadProcess.run(["query", "--help"]).stdout.contains("project"))
    }

    /// A PostgreSQL project that loads into a schema of its `defaults` is read there by the read
    /// commands in its folder (unless `--schema` says another).
    func testAPostgreSQLProjectsSchemaIsWhereItsFolderReads() throws {
        let database = try TestPostgreSQL.makeDatabase()
        let pgFolder = URL(fileURLWithPath: directory.path("pg"))
        try FileManager.default.createDirectory(at: pgFolder, withIntermediateDirectories: true)
        let dataset = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path
        let project = #"{"database": "\#(database.url)", "defaults": {"schema": "open_data"}, "#
            + #""datasets": [{"file": "\#(dataset)", "name": "nominations"}]}"#
        try Data(project.utf8).write(to: pgFolder.appendingPathComponent("socload.json"))
        let refresh = try SocloadProcess.run(["refresh", "--quiet"], directory: pgFolder)
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        for arguments in [["info", "nominations"], ["tables"], ["select", "n5m4_mism", "--limit", "1"], ["status"]] {
            let run = try SocloadProcess.run(arguments, directory: pgFolder)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
        }
        XCTAssertTrue(try SocloadProcess.run(["tables", "--format", "csv"], directory: pgFolder).stdout.contains("n5m4_mism,300"))
        let publicSchema = try SocloadProcess.run(["tables", "--schema", "public", "--format", "csv"], directory: pgFolder)
        XCTAssertFalse(publicSchema.stdout.contains("n5m4_mism"), publicSchema.stdout)
    }

    func testAProjectFileThatCannotBeReadSaysSo() throws {
        try Data("{\"database\": ".utf8).write(to: folder.appendingPathComponent("socload.json"))
        let broken = try inProject(["tables"])
        XCTAssertEqual(broken.status, 78, broken.stderr)
        XCTAssertTrue(broken.stderr.hasPrefix("Error: socload.json is not JSON"), broken.stderr)
        // --db needs no project.
        let given = try inProject(["tables", "--db", "data/open.sqlite", "--format", "csv"])
        XCTAssertEqual(given.status, 0, given.stderr)
        let missing = try SocloadProcess.run(["tables", "--project", directory.path("none.json")])
        XCTAssertEqual(missing.status, 66, missing.stderr)
        XCTAssertEqual(missing.stderr, "Error: --project \(directory.path("none.json")): no such file\n")
    }
}
