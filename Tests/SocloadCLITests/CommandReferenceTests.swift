import Foundation
import SocloadTestSupport
import XCTest

/// `docs/cli.md` is the reference `socload help --markdown` makes from the commands' own
/// declarations, and each typed default is the one value the command uses and `--help` shows.
final class CommandReferenceTests: XCTestCase {
    func testDocsCLIIsTheReferenceTheCommandsMake() throws {
        let run = try SocloadProcess.run(["help", "--markdown"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let page = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        XCTAssertEqual(page, run.stdout, "docs/cli.md is stale: socload help --markdown > docs/cli.md")
        // Every command, every option of each, with the defaults --help shows.
        for command in ["fetch", "refresh", "load", "sync", "query", "select", "search", "extract", "datasette", "completion"] {
            XCTAssertTrue(run.stdout.contains("\n## socload \(command)\n"), command)
            let help = try SocloadProcess.run([command, "--help"]).stdout
            for line in help.split(separator: "\n") where line.hasPrefix("  --") {
                let name = String(line.dropFirst(2).prefix { $0 != " " })
                guard name != "--help" else { continue }
                XCTAssertTrue(run.stdout.contains("`\(name)"), "\(command) \(name)")
            }
        }
    }

    func testTypedDefaultsAreShownAndUsed() throws {
        let fetch = try SocloadProcess.run(["fetch", "--help"]).stdout
        XCTAssertTrue(fetch.contains("ahead). (default: 4)"), fetch)
        XCTAssertTrue(fetch.contains("(default: 10)"), "--keep-changes says RowChangeLog's default")
        let load = try SocloadProcess.run(["load", "--help"]).stdout
        XCTAssertTrue(load.contains("add the rest. (default: replace)"), load)
        let sync = try SocloadProcess.run(["sync", "--help"]).stdout
        XCTAssertTrue(sync.contains("old name). (default: fail)"), sync)
        let search = try SocloadProcess.run(["search", "--help"]).stdout
        XCTAssertTrue(search.contains("At most N results. (default: 10)"), search)
        // A typed default is still checked like a given value.
        let zero = try SocloadProcess.run(["fetch", "n5m4-mism", "--jobs", "0"])
        XCTAssertEqual(zero.status, 64)
        XCTAssertTrue(zero.stderr.hasPrefix("Error: --jobs needs a number above 0"), zero.stderr)
    }
}
