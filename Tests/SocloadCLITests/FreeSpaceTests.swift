import Foundation
import SocloadTestSupport
import XCTest

/// A reload that the disk has no room for fails before the first row (exit 74, saying how much it
/// needs), the previous table as it was. On a small tmpfs, which only root can mount.
final class FreeSpaceTests: XCTestCase {
    func testAReloadWithoutRoomForASecondCopyFailsBeforeLoading() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        let directory = try TemporaryDirectory()
        let mountPoint = directory.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=1500k", "tmpfs", mountPoint]
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw XCTSkip("tmpfs cannot be mounted here") }
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [mountPoint]
            try? umount.run()
            umount.waitUntilExit()
        }
        // About 1.1 MB of table: it fits once, not twice.
        let rows = (1...4_000).map { #"["row-\#($0)", "\#(String(repeating: "x", count: 220)) \#($0)"]"# }.joined(separator: ",\n")
        let export = directory.path("fill-0001.rows.json")
        try (#"{"meta": {"view": {"id": "fill-0001", "columns": [{"id": -1, "name": "sid", "dataTypeName": "meta_data", "#
             + #""fieldName": ":sid"}, {"id": 1, "name": "text", "dataTypeName": "text", "fieldName": "text"}]}}, "data": ["#
             + rows + "]}").write(toFile: export, atomically: true, encoding: .utf8)
        let db = mountPoint + "/fill.sqlite"
        let first = try SocloadProcess.run(["fetch", export, "--table", "t", "--db", db])
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try SocloadProcess.run(["query", "select count(*) as n, max(text) as m from t", "--db", db, "--format", "csv"]).stdout
        let reload = try SocloadProcess.run(["fetch", export, "--table", "t", "--db", db, "--force"])
        XCTAssertEqual(reload.status, 74, reload.stderr)
        XCTAssertTrue(reload.stderr.hasPrefix("Error: not enough free space in \(mountPoint) for a new copy of t: it needs about "),
                      reload.stderr)
        XCTAssertTrue(reload.stderr.hasSuffix(" are free; t was not changed\n"), reload.stderr)
        XCTAssertEqual(try SocloadProcess.run(["query", "select count(*) as n, max(text) as m from t", "--db", db, "--format", "csv"]).stdout,
                       before)
    }
}
