import Foundation
import SocloadTestSupport
import XCTest

/// A database in a directory the reader cannot write (a read-only mount, a package's data
/// directory) is read by every read command, without creating anything there; with a `-wal` beside
/// it (changes an immutable reader would miss) the commands refuse with the reason. Run as an
/// unprivileged user: as root through `runuser -u nobody` (CI runs as root), otherwise on a
/// directory made read-only.
final class ReadOnlyDirectoryTests: XCTestCase {
    var directory: TemporaryDirectory!
    var shared: String!
    var binary: String!
    var db: String!
    let isRoot = getuid() == 0

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        shared = directory.path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        db = shared + "/data.sqlite"
        let fetch = try SocloadProcess.run(["fetch", "n5m4-mism", "--datasets", Fixtures.datasetsDirectory.path, "--db", db, "-q"])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        // The binary beside the data, where the unprivileged user can run it.
        binary = shared + "/socload"
        try FileManager.default.copyItem(atPath: SocloadProcess.executable.path, toPath: binary)
        for path in [directory.url.path, shared!] { chmod(path, 0o755) }
        chmod(db, 0o644)
        if isRoot {
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser"), "runuser is needed to drop root")
        } else {
            chmod(shared, 0o555)
        }
    }

    override func tearDown() {
        chmod(shared, 0o755)
    }

    /// Runs the copied binary as a user who cannot write `shared`.
    private func run(_ arguments: [String]) throws -> SocloadRun {
        isRoot ? try ChildProcess.run("/usr/sbin/runuser", ["-u", "nobody", "--", binary] + arguments)
            : try ChildProcess.run(binary, arguments)
    }

    func testEveryReadCommandWorksAndCreatesNothing() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: shared).sorted()
        XCTAssertEqual(before, ["data.sqlite", "socload"], "the fetch left only the database file")
        let query = try run(["query", "select count(*) as n from n5m4_mism", "--db", db, "--format", "csv"])
        XCTAssertEqual(query.status, 0, query.stderr)
        XCTAssertEqual(query.stdout, "n\r\n300\r\n")
        for command in [["tables"], ["schema", "n5m4_mism"], ["info", "n5m4_mism"], ["select", "n5m4_mism", "--limit", "3"]] {
            let result = try run(command + ["--db", db])
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertFalse(result.stdout.isEmpty, "\(command)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared).sorted(), before)
        // Writing is refused before anything runs, naming the file, its permission and the user (exit 77).
        let me = isRoot ? "nobody" : (ProcessInfo.processInfo.environment["USER"] ?? "")
        for command in [["query", "--write", "delete from n5m4_mism"], ["drop", "n5m4_mism"], ["extract", "n5m4_mism", "agency"],
                        ["fetch", "n5m4-mism", "--datasets", Fixtures.datasetsDirectory.path, "--force", "-q"]] {
            let refused = try run(command + ["--db", db])
            XCTAssertEqual(refused.status, 77, "\(command): \(refused.stderr)")
            let reason = isRoot ? "cannot write \(db!): permission denied (owned by root, mode 644; socload runs as \(me))"
                : "cannot write in \(shared!), where data.sqlite's journal goes: permission denied"
            XCTAssertTrue(refused.stderr.hasPrefix("Error: " + reason), "\(command): \(refused.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared).sorted(), before)
    }

    func testAWriteAheadLogBesideItIsRefusedWithTheReason() throws {
        chmod(shared, 0o755)
        _ = FileManager.default.createFile(atPath: db + "-wal", contents: Data())
        if !isRoot { chmod(shared, 0o555) }
        let result = try run(["tables", "--db", db])
        XCTAssertEqual(result.status, 74)
        XCTAssertTrue(result.stderr.contains("cannot read \(db!): its directory cannot be written and it has a write-ahead log"),
                      result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
    }
}
