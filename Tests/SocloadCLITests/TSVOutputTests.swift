import Foundation
import SocloadTestSupport
import XCTest

/// `--format tsv`: one line a row whatever the values hold, as `psql \copy` writes it, so Unix
/// tools split it right; NULL and empty text stay apart.
final class TSVOutputTests: XCTestCase {
    func testEveryRowIsOneLineOfTabSeparatedFields() throws {
        let directory = try TemporaryDirectory()
        let document = directory.path("odd.ndjson")
        let lines = [
            #"{"id": 1, "note": "tab\there", "city": "Zürich", "n": 1.5}"#,
            #"{"id": 2, "note": "two\nlines\r\nand \\ slash", "city": "", "n": null}"#,
            #"{"id": 3, "note": null, "city": "\\N", "n": 7}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: document))
        let db = directory.path("odd.sqlite")
        XCTAssertEqual(try SocloadProcess.run(["load", document, "--table", "odd", "--pk", "id", "--db", db, "-q"]).status, 0)
        for command in [["select", "odd", "--order", "id"], ["query", "select id, note, city, n from odd order by id"]] {
            let run = try SocloadProcess.run(command + ["--db", db, "--format", "tsv"])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout, """
                id\tnote\tcity\tn
                1\ttab\\there\tZürich\t1.5
                2\ttwo\\nlines\\r\\nand \\\\ slash\t\t\\N
                3\t\\N\t\\\\N\t7.0

                """)
        }
        // Unix tools see four fields on every line.
        let run = try SocloadProcess.run(["query", "select id, note, city, n from odd order by id", "--db", db, "--format", "tsv"])
        for line in run.stdout.split(separator: "\n") {
            XCTAssertEqual(line.split(separator: "\t", omittingEmptySubsequences: false).count, 4, String(line))
        }
    }
}
