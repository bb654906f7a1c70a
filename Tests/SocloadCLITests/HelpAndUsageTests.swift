import Foundation
import SocloadTestSupport
import XCTest

final class HelpAndUsageTests: XCTestCase {
    func testQueryHelpText() throws {
        let run = try SocloadProcess.run(["query", "--help"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout, """
            OVERVIEW: Run one SQL statement and print its result.

            Values are bound, never spliced into the SQL: write ? (or :name) in the statement and
            give each value with --param, in order (or as --param :name=value).

            The database is read-only unless --write is given: a statement that would change it
            (INSERT, DELETE, DROP, ATTACH, VACUUM INTO, a PRAGMA that sets something) is refused
            with exit 77 before it runs. To remove a loaded table, use socload drop.

            In a PostgreSQL database (--db postgresql://...) the statement is PostgreSQL's own, as
            written: placeholders are $1, $2 (given with --param, in order), and nothing in it is
            rewritten (? is a jsonb operator there, :: a cast). Without --write it runs in a READ
            ONLY transaction that is rolled back, and COPY is refused.

            USAGE: socload query <sql> [--db <path|url>] [--schema <name>] [--project <file>] [--format <format>] [--param <value> ...] [--write] [--timeout <seconds>]

            ARGUMENTS:
              <sql>                   The SQL statement to run.

            OPTIONS:
              --db <path|url>         A SQLite file, or postgresql://user@host/db (postgres: alone: the PG* variables). (default: $SOCLOAD_DB, else the project's "database" (socload.json here, or --project), else socload.sqlite)
              --schema <name>         The PostgreSQL schema for tables and the catalog. (default: public)
              --project <file>        The project file whose database to use when there is no --db. (default: socload.json in the current directory, if any)
              --format <format>       Output format: table|csv|tsv|json|ndjson|markdown|geojson. (default: table on a terminal, csv otherwise)
              --param <value>         A value for the next ? parameter, or :name=value for a named one.
              --write                 Allow the statement to change the database.
              --timeout <seconds>     Cancel the statement after this many seconds (exit 75).
              -h, --help              Show help information.

            """)
    }

    func testHelpCommandEqualsHelpFlag() throws {
        for command in ["fetch", "refresh", "sync", "query", "select", "tables", "schema", "info", "verify", "recount", "drop"] {
            let viaHelp = try SocloadProcess.run(["help", command])
            let viaFlag = try SocloadProcess.run([command, "--help"])
            let viaShort = try SocloadProcess.run([command, "-h"])
            XCTAssertEqual(viaHelp.status, 0)
            XCTAssertEqual(viaHelp.stdout, viaFlag.stdout, command)
            XCTAssertEqual(viaHelp.stdout, viaShort.stdout, command)
            XCTAssertTrue(viaHelp.stdout.hasPrefix("OVERVIEW: "), command)
        }
    }

    func testRootHelpListsSubcommands() throws {
        let run = try SocloadProcess.run(["--help"])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stdout.contains("USAGE: socload <subcommand>"))
        XCTAssertTrue(run.stdout.contains("""
            SUBCOMMANDS:
              fetch                   Download a dataset and load it into a table (replacing the previous copy).
              refresh                 Bring every dataset of the project (socload.json) up to date.
              status                  Say what a refresh of the project (socload.json) would do, without loading.
              report                  Write a report of the mirror: each dataset's refreshes, changes and watch, as HTML, Markdown, JSON or Atom.
              archive                 Copy the versions the project's cache keeps, each a BagIt bag, to a folder.
              search                  Find datasets on a portal, or on every public portal, through the Socrata catalog.
              load                    Load a JSON document (an array of objects, NDJSON, a saved SODA response) or a CSV file into a table.
              sync                    Bring a fetched table up to date with only the rows changed since (SODA 2.1).
              query                   Run one SQL statement and print its result.
              select                  Print the rows of a table that match conditions, without writing SQL.
              export                  Write a table as a Parquet file, typed from the portal's metadata, with a data package beside it.
              tables                  List the tables in the database with their row counts and their names as SQL needs them.
              datasette               Print Datasette metadata for the database (hidden bookkeeping, lookup labels, titles and sources).
              schema                  Print a table's CREATE statement and its columns with their types.
              info                    Show where a loaded table came from: dataset, source, time, row count, columns.
              changes                 Show the rows refreshes added, removed and changed, with the changed columns' old and new values.
              verify                  Check a loaded table against the portal's own column statistics.
              extract                 Move columns of a loaded table into a lookup table, keeping a foreign key (as sqlite-utils extract).
              recount                 Make the counts a table's lookups keep again from its rows.
              drop                    Remove a loaded table and its catalog entry.
              completion              Print a shell completion script for bash, zsh or fish.
              help                    Show help for a command.
            """), run.stdout)
        XCTAssertEqual(try SocloadProcess.run(["help"]).stdout, run.stdout)
        XCTAssertEqual(try SocloadProcess.run([]).stdout, run.stdout)
    }

    func testVersion() throws {
        let run = try SocloadProcess.run(["--version"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout, "socload 0.1.0\n")
    }

    func testUsageErrorsAreTwoLinesAndExit64() throws {
        let run = try SocloadProcess.run(["query", "select 1", "--foo"])
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, """
            Error: Unknown option '--foo'
              See 'socload query --help' for more information.

            """)
        let missing = try SocloadProcess.run(["query"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.hasPrefix("Error: Missing expected argument '<sql>'\n"))
        let noValue = try SocloadProcess.run(["query", "select 1", "--db"])
        XCTAssertEqual(noValue.status, 64)
        XCTAssertTrue(noValue.stderr.hasPrefix("Error: Missing value for '--db <path|url>'\n"))
        // However many options a command has, the error and the pointer to --help only.
        let fetch = try SocloadProcess.run(["fetch", "x", "--bogus"])
        XCTAssertEqual(fetch.stderr, "Error: Unknown option '--bogus'\n  See 'socload fetch --help' for more information.\n")
        // A message of any length is one line of at most 300 characters, its end kept.
        let long = try SocloadProcess.run(["fetch", "x", "--pk", (1...10_000).map { "c\($0)" }.joined(separator: ","), "--dry-run"])
        let first = long.stderr.split(separator: "\n").first ?? ""
        XCTAssertLessThanOrEqual(first.count, 300, long.stderr)
        let extra = try SocloadProcess.run(["schema", "a", "b"])
        XCTAssertEqual(extra.status, 64)
        XCTAssertTrue(extra.stderr.hasPrefix("Error: Unexpected argument 'b'\n"))
    }

    func testUnknownCommand() throws {
        let run = try SocloadProcess.run(["frobnicate"])
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.stderr, """
            Error: Unknown command 'frobnicate'
              See 'socload --help' for more information.

            """)
        XCTAssertEqual(try SocloadProcess.run(["help", "frobnicate"]).status, 64)
    }

    func testBadFormatIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        let db = try SampleDatabase.create(in: directory)
        let run = try SocloadProcess.run(["query", "select 1", "--db", db, "--format", "xml"])
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.stderr, """
            Error: --format takes one of table|csv|tsv|json|ndjson|markdown|geojson, not 'xml'
              See 'socload query --help' for more information.

            """)
    }

    /// Every option's value is converted to its type in one place, with one form of message.
    func testOptionValuesAreCheckedByType() throws {
        let cases: [([String], String)] = [
            (["fetch", "x", "--limit", "-3"], "Error: --limit takes a whole number, not '-3'"),
            (["fetch", "x", "--retries", "many"], "Error: --retries takes a whole number, not 'many'"),
            (["fetch", "x", "--page-size", "0"], "Error: --page-size takes a number above 0, not '0'"),
            (["fetch", "x", "--api", "soda9"], "Error: --api takes auto, rows, soda2 or soda3, not 'soda9'"),
            (["fetch", "x", "--type", "zip"], "Error: --type takes COLUMN=TYPE with a type among text, integer, decimal"),
            (["fetch", "x", "--table", ""], "Error: --table needs a name"),
            (["select", "t", "--eq", "nocolumn"], "Error: --eq takes COLUMN=VALUE, not 'nocolumn'"),
            (["select", "t", "--limit", "1.5"], "Error: --limit takes a whole number, not '1.5'"),
            (["sync", "t", "--page-size", "x"], "Error: --page-size takes a number above 0, not 'x'"),
        ]
        for (arguments, message) in cases {
            let run = try SocloadProcess.run(arguments + ["--db", "/nonexistent/x.sqlite"])
            XCTAssertEqual(run.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(run.stderr.hasPrefix(message), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 2, run.stderr)
        }
    }

    /// A mistyped command, option or project key is answered with the nearest name.
    func testAMistypedNameSuggestsTheNearest() throws {
        let cases: [([String], String)] = [
            (["fecth", "x"], "Error: Unknown command 'fecth' (did you mean fetch?)"),
            (["qurey", "select 1"], "Error: Unknown command 'qurey' (did you mean query?)"),
            (["fetch", "x", "--limt", "5"], "Error: Unknown option '--limt' (did you mean --limit?)"),
            (["select", "t", "--ordr", "x"], "Error: Unknown option '--ordr' (did you mean --order?)"),
            (["fetch", "x", "--zzzzzz"], "Error: Unknown option '--zzzzzz'\n"),
        ]
        for (arguments, expected) in cases {
            let run = try SocloadProcess.run(arguments)
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix(expected), run.stderr)
        }
        let directory = try TemporaryDirectory()
        let project = directory.path("socload.json")
        try Data(#"{"database": "x.sqlite", "datasets": [{"id": "abcd-1234", "page-sise": 5}]}"#.utf8).write(to: URL(fileURLWithPath: project))
        let entry = try SocloadProcess.run(["refresh", "--project", project])
        XCTAssertEqual(entry.status, 78)
        XCTAssertEqual(entry.stderr, "Error: \(project): dataset 1 (abcd-1234), key \"page-sise\" is not an option of fetch (did you mean \"page-size\"?)\n")
        try Data(#"{"datbase": "x.sqlite", "datasets": []}"#.utf8).write(to: URL(fileURLWithPath: project))
        let file = try SocloadProcess.run(["refresh", "--project", project])
        XCTAssertTrue(file.stderr.hasSuffix("(did you mean database?)\n"), file.stderr)
    }
}
