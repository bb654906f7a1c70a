import Foundation
import SocloadTestSupport
import XCTest

/// `socload load` of CSV and TSV files: RFC 4180 fields, delimiters, encodings, headers, types
/// inferred from every value, and the errors that name the file and line, on both databases.
final class CSVLoadTests: DocumentTestCase {
    /// Quoted delimiters, quotes and line breaks, CRLF, a byte order mark, blank lines, short
    /// rows and a trailing delimiter, typed from every value.
    func testRFC4180FieldsAreReadAndTypedFromEveryValueOnBothDatabases() throws {
        let text = "\u{FEFF}id,name,zip,amount,inspected,day,open,note\r\n"
            + "1,Ann,02134,12.5,01/15/2020 12:00:00 AM,2020-01-15,true,\"a, \"\"quoted\"\"\r\nline\"\r\n"
            + "\r\n"
            + "2,Zoë,10001,-7,2/1/2021 3:30 PM,2021-02-01,FALSE,plain,\r\n"
            + "3,,,\"\",,,,\"\"\r\n"
            + "4,\"Bob\",00000,1e3,12/31/1999 11:59:59 PM\r\n"
        let path = try write(text, to: "inspections.csv")
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", path], db: db)
            XCTAssertEqual(try types("inspections", db: db),
                           ["id=integer", "name=text", "zip=text", "amount=double", "inspected=floating_timestamp", "day=date",
                            "open=boolean", "note=text"], db)
            // Both databases print the same values.
            XCTAssertEqual(try csv("SELECT id, name, zip, amount, inspected, day, open FROM inspections ORDER BY id", db: db), [
                "id,name,zip,amount,inspected,day,open",
                "1,Ann,02134,12.5,2020-01-15T00:00:00,2020-01-15,1",
                "2,Zoë,10001,-7.0,2021-02-01T15:30:00,2021-02-01,0",
                "3,,,,,,",
                "4,Bob,00000,1000.0,1999-12-31T23:59:59,,",
            ], db)
            // A quoted field keeps its line break and quotes; "" is the empty string, nothing is NULL.
            XCTAssertEqual(Array(try csv("SELECT length(note), note = '' FROM inspections WHERE id IN (1, 3) ORDER BY id",
                                         db: db).dropFirst()), ["17,0", "0,1"], db)
            XCTAssertEqual(try csv("SELECT count(*) FROM inspections WHERE note IS NULL", db: db).last, "1", db)
        }
    }

    /// TSV by its name or by --tsv, a delimiter given or guessed, and no header.
    func testDelimitersHeadersAndTheFormatByNameFlagOrFirstByte() throws {
        let db = directory.path("csv.sqlite")
        let tsv = try write("code\tlabel\n01\tone, two\n", to: "codes.tsv")
        try succeed(["load", tsv], db: db)
        XCTAssertEqual(try csv("SELECT * FROM codes", db: db), ["code,label", "01,\"one, two\""])

        // Standard input has no name: its first byte says CSV, its header line says ';'.
        try succeed(["load", "-", "--table", "semi"], db: db, stdin: Data("a;b;c\n1;2,5;x\n".utf8))
        XCTAssertEqual(try csv("SELECT a, b, c FROM semi", db: db), ["a,b,c", "1,\"2,5\",x"])
        try succeed(["load", "-", "--table", "piped", "--delimiter", "|"], db: db, stdin: Data("a|b\n1|2\n".utf8))
        XCTAssertEqual(try types("piped", db: db), ["a=integer", "b=integer"])
        try succeed(["load", "-", "--table", "tabs", "--tsv"], db: db, stdin: Data("a,b\tc\n1,2\t3\n".utf8))
        XCTAssertEqual(try csv("SELECT * FROM tabs", db: db), ["\"a,b\",c", "\"1,2\",3"])

        let headless = try write("1,x\n2,y\n", to: "headless.txt")
        try succeed(["load", headless, "--no-header"], db: db)
        XCTAssertEqual(try csv("SELECT * FROM headless", db: db), ["column_1,column_2", "1,x", "2,y"])

        // Names met twice, and an empty name, are made distinct.
        let names = try write("a,A,,b\n1,2,3,4\n", to: "names.csv")
        try succeed(["load", names], db: db)
        XCTAssertEqual(try csv("SELECT * FROM names", db: db).first, "a,A_2,column_3,b")

        // A JSON document whose name says nothing is still JSON.
        try succeed(["load", "-", "--table", "js"], db: db, stdin: Data("  [{\"a\": 1}]".utf8))
        XCTAssertEqual(try csv("SELECT a FROM js", db: db), ["a", "1"])
    }

    /// Latin-1 and Windows-1252 files read into UTF-8; a file that is not UTF-8 is refused naming
    /// its line, and says which option reads it.
    func testEncodingsOfSpreadsheetExports() throws {
        let db = directory.path("csv.sqlite")
        let path = directory.path("cities.csv")
        // "José","Montréal","“quoted” – €5" in Windows-1252.
        try Data([0x6E, 0x61, 0x6D, 0x65, 0x2C, 0x63, 0x69, 0x74, 0x79, 0x2C, 0x6E, 0x6F, 0x74, 0x65, 0x0A,
                  0x4A, 0x6F, 0x73, 0xE9, 0x2C, 0x4D, 0x6F, 0x6E, 0x74, 0x72, 0xE9, 0x61, 0x6C, 0x2C,
                  0x93, 0x71, 0x94, 0x20, 0x96, 0x20, 0x80, 0x35, 0x0A]).write(to: URL(fileURLWithPath: path))
        let refused = try socload(["load", path], db: db)
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("cities.csv: line 2: not UTF-8 text: pass --encoding windows-1252"), refused.stderr)

        try succeed(["load", path, "--encoding", "windows-1252"], db: db)
        XCTAssertEqual(try csv("SELECT * FROM cities", db: db), ["name,city,note", "José,Montréal,“q” – €5"])
        try succeed(["load", path, "--encoding", "latin-1", "--table", "latin"], db: db)
        XCTAssertEqual(try csv("SELECT name, city, unicode(substr(note, 1, 1)) FROM latin", db: db).last, "José,Montréal,147")

        let bad = try socload(["load", path, "--encoding", "ebcdic"], db: db)
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("utf-8, latin-1 or windows-1252"), bad.stderr)
    }

    /// Each malformed file is one line naming the file and the line, exit 65, and the table
    /// loaded before stays as it was.
    func testMalformedFilesAreRefusedNamingTheLineAndKeepThePreviousTable() throws {
        let db = directory.path("csv.sqlite")
        let path = directory.path("t.csv")
        try "a,b\n1,2\n".write(toFile: path, atomically: true, encoding: .utf8)
        try succeed(["load", path], db: db)
        let cases: [(Data, String)] = [
            (Data("a,b\n1,\"open\nstill open\n".utf8), "t.csv: line 2: a quoted field is not closed before the end of the file"),
            (Data("a,b\n1,2\n\"x\ny\",2,3\n".utf8), "t.csv: line 3: 3 fields where the header has 2"),
            (Data(), "t.csv: the CSV file is empty"),
            (Data([0xFF, 0xFE, 0x61, 0x00]), "the file is UTF-16"),
            (Data("a,b\n1,\u{0}2\n".utf8) + Data([0x0A, 0xC3]), "t.csv: line 4: not UTF-8 text"),
        ]
        for (bytes, message) in cases {
            try bytes.write(to: URL(fileURLWithPath: path))
            let run = try socload(["load", path], db: db)
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertTrue(run.stderr.contains(message), "\(message): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertEqual(try csv("SELECT * FROM t", db: db), ["a,b", "1,2"], message)
        }
        let usage = try socload(["load", path, "--csv", "--root", "results"], db: db)
        XCTAssertEqual(usage.status, 64, usage.stderr)
        XCTAssertTrue(usage.stderr.contains("--root is for JSON documents, not CSV"), usage.stderr)
        let delimiter = try socload(["load", path, "--delimiter", "\"\""], db: db)
        XCTAssertEqual(delimiter.status, 64, delimiter.stderr)
    }
}
