import Foundation
import SocloadTestSupport
import XCTest

/// `--history` on real exports and through the loopback portal, on SQLite and PostgreSQL: every
/// version of every row with `_valid_from` / `_valid_to`, a deletion closing one, a refresh that
/// changed nothing adding nothing; `--keep-changes` bounds the change log.
extension RowChangeCommandTests {
    private func csv(_ sql: String, db: String) throws -> [[String]] {
        let run = try socload(["query", sql, "--format", "csv"], db: db)
        XCTAssertEqual(run.status, 0, run.stderr)
        return Array(rows(run.stdout).dropFirst())
    }

    func testHistoryKeepsEveryVersionAndAnUnchangedRefreshAddsNothing() throws {
        for db in try databases() {
            for source in Self.exports {
                var export = try Export(source)
                guard let text = export.text, export.rows.count >= 12 else { continue }
                let table = "h_" + source.lastPathComponent.prefix(4).replacingOccurrences(of: "-", with: "_")
                let total = export.rows.count
                let baseline = directory.path("\(table)-base.json")
                try export.write(to: baseline)
                XCTAssertEqual(try socload(["fetch", baseline, "--table", table, "--history", "--quiet"], db: db).status, 0)
                XCTAssertEqual(try csv("select count(*), count(_valid_to) from \(table)_history", db: db), [["\(total)", "0"]])

                // No change: nothing added to the history (the option is kept without being given again).
                XCTAssertEqual(try socload(["fetch", baseline, "--table", table, "--quiet"], db: db).status, 0)
                XCTAssertEqual(try csv("select count(*), count(_valid_to) from \(table)_history", db: db), [["\(total)", "0"]])

                let changedKey = export.key(export.rows[0])
                let removedKey = export.key(export.rows[5])
                export.rows[0][text.position] = "\(export.rows[0][text.position]) (v2)"
                export.rows.remove(at: 5)
                let edited = directory.path("\(table)-edited.json")
                try export.write(to: edited)
                Thread.sleep(forTimeInterval: 1.1) // a new refresh time, to the second
                XCTAssertEqual(try socload(["fetch", edited, "--table", table, "--quiet"], db: db).status, 0)
                XCTAssertEqual(try csv("select count(*), count(_valid_to) from \(table)_history", db: db), [["\(total + 1)", "2"]],
                               "\(source.lastPathComponent) \(db)")
                let versions = try csv("select \(text.field), _valid_to is null from \(table)_history where _id = '\(changedKey)' "
                                       + "order by _valid_from", db: db)
                XCTAssertEqual(versions.map { $0[1] }, ["0", "1"], "the old version closed, the new one open")
                XCTAssertTrue(versions.last?[0].hasSuffix(" (v2)") ?? false, "\(versions)")
                XCTAssertEqual(try csv("select count(*) from \(table)_history where _id = '\(removedKey)' and _valid_to is not null",
                                       db: db), [["1"]], "a deletion closes the row's version")
                // As the table was at its first load: every row, the old text.
                let asOfFirst = try csv("select count(*) from \(table)_history where _valid_from <= (select min(_valid_from) from "
                                        + "\(table)_history)", db: db)
                XCTAssertEqual(asOfFirst, [["\(total)"]])
                XCTAssertEqual(try socload(["drop", table], db: db).status, 0)
                XCTAssertNotEqual(try socload(["query", "select count(*) from \(table)_history"], db: db).status, 0,
                                  "the history goes with its table")
            }
        }
    }

    func testKeepChangesBoundsTheLogAndHistoryNeedsAKey() throws {
        let db = directory.path("keep.sqlite")
        let path = directory.path("t.ndjson")
        func write(_ names: [String]) throws {
            try Data(names.enumerated().map { "{\"id\": \($0.offset), \"name\": \"\($0.element)\"}\n" }.joined().utf8)
                .write(to: URL(fileURLWithPath: path))
        }
        try write(["a", "b", "c"])
        XCTAssertEqual(try socload(["load", path, "--pk", "id", "--keep-changes", "2", "--quiet"], db: db).status, 0)
        for (round, names) in [["a", "B", "c"], ["a", "B", "C"], ["A", "B", "C"]].enumerated() {
            try write(names)
            Thread.sleep(forTimeInterval: 1.1)
            let run = try socload(["load", path], db: db)
            XCTAssertTrue(run.stderr.contains("Refreshed t: 0 added, 1 changed, 0 removed, 2 unchanged"), "\(round): \(run.stderr)")
        }
        let kept = try csv("select count(distinct refreshed_at), count(*) from _socload_row_changes", db: db)
        XCTAssertEqual(kept, [["2", "2"]], "--keep-changes 2, kept by later loads")
        let last = rows(try socload(["changes", "t", "--format", "csv"], db: db).stdout)
        XCTAssertEqual(last.dropFirst().map { Array($0[1...5]) }, [["changed", "id=0", "name", "a", "A"]])

        let unkeyed = try socload(["load", path, "--table", "u", "--history"], db: db)
        XCTAssertEqual(unkeyed.status, 64, unkeyed.stderr)
        XCTAssertTrue(unkeyed.stderr.contains("--history needs a key"), unkeyed.stderr)
        for bad in [["--since", "yesterday"], ["--last", "0"], ["--since", "2026-01-01", "--last", "2"]] {
            let run = try socload(["changes", "t"] + bad, db: db)
            XCTAssertEqual(run.status, 64, "\(bad): \(run.stderr)")
        }
        XCTAssertEqual(try socload(["changes", "nope"], db: db).status, 66)
    }

    /// A column retyped upstream: the history keeps the old versions and takes the new ones
    /// (on PostgreSQL its column becomes text), on both databases.
    func testHistoryOutlivesARetypedColumn() throws {
        for db in try databases() {
            let path = directory.path("retyped.ndjson")
            try Data("{\"id\": 1, \"n\": 5}\n{\"id\": 2, \"n\": 6}\n".utf8).write(to: URL(fileURLWithPath: path))
            XCTAssertEqual(try socload(["load", path, "--table", "rt", "--pk", "id", "--history", "--quiet"], db: db).status, 0)
            try Data("{\"id\": 1, \"n\": \"five\"}\n{\"id\": 2, \"n\": \"6\"}\n".utf8).write(to: URL(fileURLWithPath: path))
            Thread.sleep(forTimeInterval: 1.1)
            let retyped = try socload(["load", path, "--table", "rt"], db: db)
            XCTAssertEqual(retyped.status, 0, retyped.stderr)
            XCTAssertTrue(retyped.stderr.contains("column n retyped"), retyped.stderr)
            XCTAssertEqual(try csv("select id, n, _valid_to is null from rt_history order by id, _valid_from", db: db),
                           [["1", "5", "0"], ["1", "five", "1"], ["2", "6", "0"], ["2", "6", "1"]], db)
        }
    }

    /// A key whose type changed (`--type` on one load, not the next) cannot follow rows: said,
    /// and the history closes every version and begins a new one for each row, rather than
    /// keeping versions of rows that are gone.
    func testAKeyOfAnotherTypeIsSaidAndTheHistoryStartsEveryRowAgain() throws {
        for db in try databases() {
            let first = directory.path("k1.ndjson")
            let second = directory.path("k2.ndjson")
            try Data(#"{"code":"1","cap":5}\#n{"code":"2","cap":6}\#n{"code":"3","cap":7}\#n"#.utf8).write(to: URL(fileURLWithPath: first))
            try Data(#"{"code":"1","cap":5}\#n{"code":"2","cap":60}\#n{"code":"4","cap":8}\#n"#.utf8).write(to: URL(fileURLWithPath: second))
            XCTAssertEqual(try socload(["load", first, "--table", "k", "--pk", "code", "--history", "--type", "code=integer"], db: db).status, 0)
            Thread.sleep(forTimeInterval: 1.1)
            let run = try socload(["load", second, "--table", "k", "--pk", "code", "--history"], db: db)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("k: its key (code) is not the previous copy's"), run.stderr)
            XCTAssertEqual(try csv("select count(*), count(_valid_to) from k_history", db: db), [["6", "3"]], db)
            XCTAssertEqual(try csv("select code, cap from k_history where _valid_to is null order by code", db: db),
                           [["1", "5"], ["2", "60"], ["4", "8"]], db)
        }
    }
}
