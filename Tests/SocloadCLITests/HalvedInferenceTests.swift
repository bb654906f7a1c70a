import Foundation
import SocloadTestSupport
import XCTest

/// `socload load` of a large NDJSON file infers its types from two halves read at once: the
/// table is the one a single reading makes (the same file named `.json` is read by one thread),
/// whatever the second half adds — a wider type, a field first met there, an array of objects,
/// a nested object under `--flatten` — and a bad line in the second half is named by its line.
final class HalvedInferenceTests: DocumentTestCase {
    private static let lines = 40_000

    /// Records of about 130 bytes (over 4 MB in all), the second half's with `late(index)`'s
    /// members after (or, when it returns n and when, instead of) the usual ones.
    private func records(late: (Int) -> String) -> String {
        (1...Self.lines).map { index in
            let extra = index > Self.lines / 2 ? late(index) : ""
            let usual = extra.contains("\"when\"") ? "" : "\"n\": \(index), \"when\": \"2024-01-\(10 + index % 9)\", "
            return "{\"id\": \(index), \(usual)\"s\": \"row \(index) with some text to make the line long\", "
                + "\"flag\": \(index % 2 == 0), \"z\": \"0\(index % 97)\"\(extra)}\n"
        }.joined()
    }

    func testTheHalvesTypeTheTableAsOneReadingDoes() throws {
        let text = records { index in
            index == Self.lines - 3
                ? ", \"n\": 2.5, \"when\": \"2024-02-01T10:00:00\", \"late\": \"only here\", \"tags\": [{\"t\": \"a\"}, {\"t\": \"b\"}]"
                : ", \"tags\": []"
        }
        XCTAssertGreaterThan(text.utf8.count, 4 << 20)
        let halved = try write(text, to: "halved.ndjson")
        let whole = try write(text, to: "whole.json")
        let db = directory.path("halves.sqlite")
        try succeed(["load", halved, "--table", "h", "--pk", "id"], db: db)
        try succeed(["load", whole, "--table", "w", "--pk", "id"], db: db)
        XCTAssertEqual(try types("h", db: db), ["id=integer", "n=double", "when=floating_timestamp", "s=text", "flag=boolean",
                                                "z=text", "late=text"])
        XCTAssertEqual(try types("h", db: db), try types("w", db: db))
        XCTAssertEqual(try csv("SELECT count(*) FROM h_tags", db: db).last, "2")
        XCTAssertEqual(try csv("SELECT h_id, position, t FROM h_tags ORDER BY 1, 2", db: db),
                       ["h_id,position,t", "\(Self.lines - 3),1,a", "\(Self.lines - 3),2,b"])
        XCTAssertEqual(try csv("SELECT t FROM w_tags ORDER BY 1", db: db), ["t", "a", "b"])
        XCTAssertEqual(try csv("SELECT * FROM h EXCEPT SELECT * FROM w", db: db), ["id,n,when,s,flag,z,late"])
        XCTAssertEqual(try csv("SELECT count(*) FROM h", db: db).last, "\(Self.lines)")
    }

    func testFlattenedHalvesAndABadLineInTheSecondHalf() throws {
        let text = records { index in index == Self.lines ? ", \"place\": {\"city\": \"Oslo\", \"zip\": 1}" : "" }
        let db = directory.path("flat.sqlite")
        try succeed(["load", try write(text, to: "flat.ndjson"), "--table", "h", "--flatten"], db: db)
        try succeed(["load", try write(text, to: "flat.json"), "--table", "w", "--flatten"], db: db)
        XCTAssertEqual(try types("h", db: db), try types("w", db: db))
        XCTAssertEqual(try types("h", db: db).suffix(2), ["place_city=text", "place_zip=integer"])

        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[Self.lines - 10] = "{\"id\": 1,,}"
        let bad = try write(lines.joined(separator: "\n"), to: "bad.ndjson")
        let run = try socload(["load", bad, "--table", "h"], db: db)
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(bad): line \(Self.lines - 9): malformed JSON"), run.stderr)
        XCTAssertEqual(try csv("SELECT count(*) FROM h", db: db).last, "\(Self.lines)")
    }
}
