import Foundation
import SocloadTestSupport
import XCTest

/// A child table's rows are cut from the record's bytes (no tree), and with `--flatten` from the
/// flattened record's bytes. Both must give the same rows, on hostile records too: escaped
/// keys, white space around a record, nested values, a member named like socload's own fields.
final class ChildRowTests: XCTestCase {
    static let records = [
        #"  {"id": "a", "it\u0065ms": [{"n": 1, "tag": "x\"y", "deep": {"k": [1, 2]}}, {"n": 2.5e1, "tag": "Zoë"}], "name": "A"}  "#,
        #"{"id":"b","items":[],"name":"B"}"#,
        #"{"id":"c","items":[{"_socload_position": 99, "n": -0, "tag": null}],"name":"C"}"#,
        #"{"id":"d","name":"D"}"#,
    ]

    func testRowsCutFromTheRecordEqualRowsCutFromTheFlattenedRecord() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("t.ndjson")
        try Data((Self.records.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        var tables: [String] = []
        for (name, extra) in [("bytes.sqlite", [String]()), ("flat.sqlite", ["--flatten"])] {
            let db = directory.path(name)
            let load = try SocloadProcess.run(["load", path, "--table", "t", "--pk", "id", "--db", db] + extra)
            XCTAssertEqual(load.status, 0, load.stderr)
            let rows = try SocloadProcess.run(["query", "select * from t_items order by 1, 2", "--db", db, "--format", "csv"])
            XCTAssertEqual(rows.status, 0, rows.stderr)
            tables.append(rows.stdout)
        }
        XCTAssertEqual(tables[0], tables[1])
        let lines = tables[0].split(separator: "\r\n").map(String.init)
        guard lines.count == 4 else { return XCTFail(tables[0]) }
        XCTAssertEqual(lines[0], "t_id,position,n,tag,deep")
        XCTAssertEqual(lines[1], #"a,1,1.0,"x""y","{""k"":[1,2]}""#)
        XCTAssertEqual(lines[2], "a,2,25.0,Zoë,")
        XCTAssertEqual(lines[3], "c,1,0.0,,")
    }
}
