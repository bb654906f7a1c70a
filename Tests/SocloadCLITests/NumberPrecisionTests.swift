import Foundation
import SocloadTestSupport
import XCTest

/// A decimal column in SQLite holds about 16 significant digits: a number with more is stored
/// rounded and counted per column, refused under `--strict`, and `verify` compares its bounds as
/// stored; PostgreSQL's numeric keeps every digit and says nothing.
final class NumberPrecisionTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    /// A rows.json whose `amount` has two numbers of more digits than a double keeps (rows 2 and
    /// 4), and three that a double holds to every digit written; the portal's statistics state
    /// the 30-digit one as the largest.
    static let document = """
        {"meta":{"view":{"id":"digi-0001","columns":[
          {"fieldName":"name","dataTypeName":"text"},
          {"fieldName":"amount","dataTypeName":"number","cachedContents":{"non_null":5,"null":0,
            "smallest":"0.1","largest":"123456789012345678901234567890"}}
        ]}},"data":[
          ["a","0.1"],
          ["b","123456789012345678901234567890"],
          ["c","1.50000000000000000000"],
          ["d","12345678901234567890.123"],
          ["e","9007199254740993e-3"]
        ]}
        """

    private func run(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments)
    }

    func testDigitsSQLiteCannotKeepAreCountedAndPostgreSQLKeepsThem() throws {
        let path = directory.path("digi-0001.rows.json")
        try Data(Self.document.utf8).write(to: URL(fileURLWithPath: path))
        let sqlite = directory.path("digits.sqlite")
        let load = try run(["fetch", path, "--db", sqlite, "--table", "t"])
        XCTAssertEqual(load.status, 0, load.stderr)
        let lines = load.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, load.stderr)
        XCTAssertEqual(lines.last, "amount: 3 cells had more digits than SQLite keeps, stored rounded; first at row 2: "
                       + "\"123456789012345678901234567890\"; --type amount=text keeps them exactly")
        // Stored as SQLite holds them: the rounded numbers, not NULL.
        let values = try run(["query", "SELECT name, amount, typeof(amount) AS t FROM t ORDER BY name", "--db", sqlite, "--format", "csv"])
        XCTAssertEqual(values.stdout.split(whereSeparator: \.isNewline).map(String.init), [
            "name,amount,t", "a,0.1,real", "b,1.2345678901234568e+29,real", "c,1.5,real", "d,1.2345678901234567e+19,real",
            "e,9007199254740.992,real",
        ])
        // The catalog keeps the count; verify compares the bounds as stored, and agrees.
        let info = try run(["info", "t", "--db", sqlite, "--format", "csv"])
        XCTAssertTrue(info.stdout.contains("amount: 3 cells had more digits than SQLite keeps"), info.stdout)
        let verify = try run(["verify", "t", "--db", sqlite, "--format", "csv"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stdout.contains("amount,amount,non_null,5,5,yes"), verify.stdout)
        XCTAssertTrue(verify.stdout.contains("amount,amount,largest,123456789012345678901234567890,1.2345678901234568e+29,yes"),
                      verify.stdout)
        // --json counts them apart from the invalid cells.
        let json = try run(["fetch", path, "--db", sqlite, "--table", "t", "--force", "--json", "--quiet"])
        XCTAssertTrue(json.stdout.contains("\"rounded_cells\":{\"amount\":3}"), json.stdout)
        XCTAssertTrue(json.stdout.contains("\"invalid_cells\":{}"), json.stdout)
        // --strict refuses the first, the table as it was.
        let strict = try run(["fetch", path, "--db", sqlite, "--table", "t", "--strict", "--force"])
        XCTAssertEqual(strict.status, 65)
        XCTAssertEqual(strict.stderr, "Error: row 2, column amount: \"123456789012345678901234567890\" has more digits than SQLite "
                       + "keeps (--strict; --type amount=text keeps them exactly); t was not changed\n")
        // --type amount=text keeps them exactly.
        let text = try run(["fetch", path, "--db", sqlite, "--table", "exact", "--type", "amount=text", "--quiet"])
        XCTAssertEqual(text.stderr, "")
        let exact = try run(["query", "SELECT amount FROM exact WHERE name = 'b'", "--db", sqlite, "--format", "csv"])
        XCTAssertEqual(exact.stdout.split(whereSeparator: \.isNewline).last, "123456789012345678901234567890")

        let postgreSQL = try TestPostgreSQL.makeDatabase()
        let kept = try run(["fetch", path, "--db", postgreSQL.url, "--table", "t"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertFalse(kept.stderr.contains("digits"), kept.stderr)
        let digits = try run(["query", "SELECT amount FROM t WHERE name IN ('b', 'd') ORDER BY name", "--db", postgreSQL.url,
                              "--format", "csv"])
        XCTAssertEqual(digits.stdout.split(whereSeparator: \.isNewline).map(String.init),
                       ["amount", "123456789012345678901234567890", "12345678901234567890.123"])
    }
}
