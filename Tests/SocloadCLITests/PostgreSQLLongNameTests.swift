import Foundation
import SocloadTestSupport
import XCTest

/// A table name longer than PostgreSQL's 63 bytes works in every command as the user gave it
/// (socload shortened it deterministically when it loaded the table).
final class PostgreSQLLongNameTests: XCTestCase {
    func testTheNameTheUserGaveWorksEverywhere() throws {
        let database = try TestPostgreSQL.makeDatabase()
        let directory = try TemporaryDirectory()
        let long = "nominations_of_the_united_states_senate_for_every_agency_since_2014_ünïcode"
        XCTAssertGreaterThan(long.utf8.count, 63)
        let document = directory.path("long.json")
        try #"[{"name": "Ann", "agency": "State"}, {"name": "Bo", "agency": "Defense"}]"#.write(toFile: document, atomically: true,
                                                                                                  encoding: .utf8)
        func run(_ arguments: [String]) throws -> SocloadRun {
            try SocloadProcess.run(arguments + ["--db", database.url])
        }
        XCTAssertEqual(try run(["load", document, "--table", long]).status, 0)
        for arguments in [["select", long, "--eq", "agency=State", "--format", "csv"], ["info", long], ["info", long, "--columns"],
                          ["schema", long, "--format", "csv"], ["verify", long], ["extract", long, "agency", "--count"],
                          ["recount", long], ["select", long, "--eq", "agency.agency=State", "--format", "csv"],
                          ["changes", long], ["info", long, "--refreshes"], ["info", long, "--changes"], ["info", long, "--dictionary"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        XCTAssertTrue(try run(["select", long, "--format", "csv", "--columns", "name", "--order", "name"]).stdout.hasPrefix("name\r\nAnn\r\nBo"))
        XCTAssertEqual(try run(["load", document, "--table", long, "--mode", "append"]).status, 0)
        XCTAssertTrue(try run(["select", long, "--format", "csv", "--columns", "name", "--order", "name"]).stdout
            .hasPrefix("name\r\nAnn\r\nAnn\r\nBo\r\nBo"))
        XCTAssertEqual(try run(["drop", long]).status, 0)
        XCTAssertEqual(try run(["tables", "--format", "csv"]).stdout.contains("nominations_of"), false)
    }
}
