import Foundation
import SocloadTestSupport
import XCTest

/// `load PAGE --metadata VIEW` with a description that is not the page's: the records' fields it
/// lacks are named in a warning, and records none of whose fields it describes are refused
/// (exit 65, the table as it was); on real saved pages and descriptions, in SQLite and PostgreSQL.
final class DescriptionMismatchTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func run(_ arguments: [String], db: String) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db])
    }

    private func csv(_ sql: String, db: String) throws -> [String] {
        let result = try run(["query", sql, "--format", "csv"], db: db)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(whereSeparator: \.isNewline).map(String.init)
    }

    func testFieldsTheDescriptionLacksAreNamedAndAForeignDescriptionIsRefused() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        func file(_ name: String) -> String { shared.appendingPathComponent(name).path }
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        for db in [directory.path("pages.sqlite"), postgreSQL.url] {
            // The filtered page (website, address, city_feature, common_name, longitude, latitude)
            // against the schools description, which has website and address only.
            let partial = try run(["load", file("koop-filtered-page.json"), "--metadata", file("koop-schools-view.json"),
                                   "--table", "filtered"], db: db)
            XCTAssertEqual(partial.status, 0, partial.stderr)
            let lines = partial.stderr.split(whereSeparator: \.isNewline).map(String.init)
            XCTAssertTrue(lines.first?.hasPrefix("Loaded 82 rows into filtered (11 columns)") == true, partial.stderr)
            XCTAssertEqual(lines.dropFirst().first,
                           "Warning: city_feature, common_name, longitude, latitude: fields of the records that "
                           + "\(file("koop-schools-view.json")) does not describe, not loaded")
            XCTAssertEqual(try csv("SELECT count(address) AS a FROM filtered", db: db), ["a", "82"])
            // --strict makes the fields the description lacks an error, the table as it was.
            let strict = try run(["load", file("koop-filtered-page.json"), "--metadata", file("koop-schools-view.json"),
                                  "--table", "filtered", "--strict"], db: db)
            XCTAssertEqual(strict.status, 65, strict.stderr)
            XCTAssertTrue(strict.stderr.contains("city_feature, common_name, longitude, latitude: fields of the records that "), strict.stderr)
            XCTAssertTrue(strict.stderr.hasSuffix("(--strict); filtered was not changed\n"), strict.stderr)

            // A page none of whose fields the description has: refused, the earlier table kept.
            let schools = try run(["load", file("koop-schools-page.json"), "--metadata", file("koop-schools-view.json"),
                                   "--table", "schools"], db: db)
            XCTAssertEqual(schools.status, 0, schools.stderr)
            XCTAssertFalse(schools.stderr.contains("does not describe"), schools.stderr)
            for mode in ["replace", "append"] {
                let foreign = try run(["load", file("koop-schools-page.json"), "--metadata", file("koop-crimes-views.json"),
                                       "--table", "schools", "--mode", mode, "--on-schema-change", "evolve"], db: db)
                XCTAssertEqual(foreign.status, 65, "\(mode): \(foreign.stderr)")
                XCTAssertEqual(foreign.stderr, "Error: \(file("koop-schools-page.json")): none of the records' fields "
                               + "(\"zip\", \"phone\", \"website\" ... and 6 more) is a column of \(file("koop-crimes-views.json")), "
                               + "which describes another dataset; schools was not changed\n", mode)
                XCTAssertEqual(try csv("SELECT count(*) AS n, count(objectid) AS k FROM schools", db: db), ["n,k", "80,80"])
            }
        }
    }
}
