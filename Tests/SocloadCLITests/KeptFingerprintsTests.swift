import Foundation
import SocloadTestSupport
import XCTest

/// The fingerprints a refresh keeps for the next one are brought to the new copy in place (only
/// the changed rows' written): after a run of refreshes that change, remove, add back and change
/// back rows, they are exactly those a first load of the same rows writes, and every count of
/// the next refresh is right. On SQLite and PostgreSQL.
final class KeptFingerprintsTests: XCTestCase {
    var directory: TemporaryDirectory!
    private var postgreSQL: TestPostgreSQL.TestDatabase?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func run(_ arguments: [String], _ place: (db: String, schema: String?)) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", place.db] + (place.schema.map { ["--schema", $0] } ?? []))
    }

    /// The kept fingerprints of `table` without their insertion numbers, in key order.
    private func fingerprints(_ table: String, _ place: (db: String, schema: String?)) throws -> String {
        let query = try run(["query", "select kh, h, k1 from _socload_fingerprints_\(table) order by k1", "--format", "csv"], place)
        XCTAssertEqual(query.status, 0, query.stderr)
        return query.stdout
    }

    func testARunOfRefreshesKeepsTheFingerprintsAFirstLoadWrites() throws {
        postgreSQL = try TestPostgreSQL.makeDatabase()
        let places: [(refreshed: (db: String, schema: String?), fresh: (db: String, schema: String?))] = [
            ((directory.path("refreshed.sqlite"), nil), (directory.path("fresh.sqlite"), nil)),
            ((postgreSQL!.url, "refreshed"), (postgreSQL!.url, "fresh")),
        ]
        var export = try RowChangeCommandTests.Export(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json"))
        let text = try XCTUnwrap(export.text)
        let base = export
        let versions: [(name: String, counts: String)] = [
            ("base", ""), ("edited", "2 added, 3 changed, 5 removed"), ("again", "2 added, 2 changed, 1 removed"),
        ]
        try export.write(to: directory.path("base.json"))
        // Three rows changed, the fifth to ninth removed, two added.
        for index in 0..<3 { export.rows[index][text.position] = "\(export.rows[index][text.position]) (edited)" }
        var added = RowChangeCommandTests.Export(copying: export, rows: Array(export.rows[9..<11]))
        added.reissue(0, salt: "new")
        added.reissue(1, salt: "new")
        export.rows.removeSubrange(4..<9)
        export.rows += added.rows
        try export.write(to: directory.path("edited.json"))
        // The first row changed back, the second changed again, two removed rows back, an added one gone.
        export.rows[0] = base.rows[0]
        export.rows[1][text.position] = "\(export.rows[1][text.position]) (twice)"
        export.rows.removeLast()
        export.rows += base.rows[4..<6]
        try export.write(to: directory.path("again.json"))

        for place in places {
            for version in versions {
                let refresh = try run(["fetch", directory.path("\(version.name).json"), "--table", "kept"], place.refreshed)
                XCTAssertEqual(refresh.status, 0, refresh.stderr)
                if !version.counts.isEmpty {
                    XCTAssertTrue(refresh.stderr.contains("Refreshed kept: \(version.counts)"), "\(place.refreshed): \(refresh.stderr)")
                }
            }
            let same = try run(["fetch", directory.path("again.json"), "--table", "kept", "--force"], place.refreshed)
            XCTAssertTrue(same.stderr.contains("Refreshed kept: 0 added, 0 changed, 0 removed, \(export.rows.count) unchanged"),
                          "\(place.refreshed): \(same.stderr)")
            let first = try run(["fetch", directory.path("again.json"), "--table", "kept"], place.fresh)
            XCTAssertEqual(first.status, 0, first.stderr)
            let kept = try fingerprints("kept", place.refreshed)
            XCTAssertEqual(kept.split(whereSeparator: \.isNewline).count, export.rows.count + 1, kept)
            XCTAssertEqual(kept, try fingerprints("kept", place.fresh), "\(place.refreshed)")
        }
    }
}
