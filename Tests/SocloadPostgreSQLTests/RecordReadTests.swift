import Foundation
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// The same `Codable` reading from PostgreSQL as from SQLite, through the read role: the bundled
/// nominations loaded into both decode into equal records (booleans, numbers, dates, NULLs),
/// with a `RowFilter`, an order and a limit; errors name the column on both.
final class RecordReadTests: PostgreSQLTestCase {
    struct Nomination: Decodable, Equatable {
        var name: String
        var agency: String?
        var holdover: Bool?
        var nominationDate: Date?
        var confirmationVote: Double?

        enum CodingKeys: String, CodingKey {
            case name, agency, holdover, nominationDate = "nomination_date", confirmationVote = "confirmation_vote"
        }
    }

    func testRecordsReadTheSameFromBothDatabases() throws {
        let reference = DatasetReference(location: .file(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path),
                                         datasetID: "n5m4-mism", domain: nil)
        _ = try loader().load(LoadRequest(reference: reference))
        let sqlitePath = directory.appendingPathComponent("same.sqlite").path
        _ = try DatasetLoader(destination: SQLiteDestination(queue: try DatabaseQueue(path: sqlitePath))).load(LoadRequest(reference: reference))
        let postgreSQL: any LoadedDatabase = PostgreSQLDatabase(connection: try database.connect(), schema: "public")
        let sqlite: any LoadedDatabase = try SQLiteLoadedDatabase(path: sqlitePath)

        for database in [postgreSQL, sqlite] {
            XCTAssertEqual(try database.count(in: "n5m4_mism"), 300)
            XCTAssertEqual(try database.count(in: "n5m4_mism", matching: .equals("agency", "State")),
                           try sqlite.count(in: "n5m4_mism", matching: .equals("agency", "State")))
        }
        let request = (table: "n5m4_mism", predicate: RowFilter.in("agency", ["State", "Defense"]), order: ["name", "nomination_date"])
        let fromPostgreSQL = try postgreSQL.fetchAll(Nomination.self, from: request.table, where: request.predicate,
                                                     orderBy: request.order, limit: 50)
        let fromSQLite = try sqlite.fetchAll(Nomination.self, from: request.table, where: request.predicate,
                                             orderBy: request.order, limit: 50)
        XCTAssertEqual(fromPostgreSQL.count, 50)
        XCTAssertEqual(fromPostgreSQL, fromSQLite)
        XCTAssertTrue(fromPostgreSQL.contains { $0.holdover == true } && fromPostgreSQL.contains { $0.holdover == false },
                      "PostgreSQL's booleans decode as Bool")
        XCTAssertTrue(fromPostgreSQL.contains { $0.nominationDate != nil })
        XCTAssertTrue(fromPostgreSQL.contains { $0.confirmationVote != nil }, "numerics decode as numbers")

        struct Wrong: Decodable { var name: Int }
        for database in [postgreSQL, sqlite] {
            XCTAssertThrowsError(try database.fetchAll(Wrong.self, from: "n5m4_mism", limit: 1)) { error in
                // Which query: the table is named.
                XCTAssertTrue("\(error)".hasPrefix("column 'name', row 0: cannot decode TEXT as Int - while reading `SELECT "), "\(error)")
                XCTAssertTrue("\(error)".contains("n5m4_mism"), "\(error)")
            }
            XCTAssertThrowsError(try database.fetchAll(Nomination.self, from: "n5m4_mism", where: .equals("budget", 1))) { error in
                XCTAssertTrue(error is SelectError, "\(error)")
            }
        }
    }

    func testAPropertyMovedToALookupIsNamedOnBothDatabases() throws {
        let reference = DatasetReference(location: .file(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path),
                                         datasetID: "n5m4-mism", domain: nil)
        var request = LoadRequest(reference: reference)
        request.extractions = [Extraction(columns: ["agency"])]
        _ = try loader().load(request)
        let sqlitePath = directory.appendingPathComponent("lookups.sqlite").path
        _ = try DatasetLoader(destination: SQLiteDestination(queue: try DatabaseQueue(path: sqlitePath))).load(request)
        let postgreSQL: any LoadedDatabase = PostgreSQLDatabase(connection: try database.connect(), schema: "public")
        let sqlite: any LoadedDatabase = try SQLiteLoadedDatabase(path: sqlitePath)
        struct Named: Decodable, Equatable { var name: String; var agency: String? }
        struct Keyed: Decodable { var name: String; var agencyID: Int?; enum CodingKeys: String, CodingKey { case name, agencyID = "agency_id" } }
        for database in [postgreSQL, sqlite] {
            XCTAssertThrowsError(try database.fetchAll(Named.self, from: "n5m4_mism", limit: 2)) { error in
                XCTAssertEqual(error as? SelectError, .columnInLookup("agency", table: "n5m4_mism", lookup: "agency", foreignKey: "agency_id"))
            }
            XCTAssertEqual(try database.fetchAll(Keyed.self, from: "n5m4_mism").compactMap(\.agencyID).isEmpty, false)
            XCTAssertThrowsError(try database.fetchAll(Named.self, from: "n5m4_mism", following: ["budget"])) { error in
                XCTAssertEqual(error as? SelectError, .notInALookup("budget", table: "n5m4_mism"))
            }
        }
        // Followed, the lookup's values come back as the table had them, the same from both.
        let order = ["name", "nomination_date"]
        let fromPostgreSQL = try postgreSQL.fetchAll(Named.self, from: "n5m4_mism", where: .equals("holdover", 1), orderBy: order,
                                                     following: ["agency"])
        XCTAssertEqual(fromPostgreSQL, try sqlite.fetchAll(Named.self, from: "n5m4_mism", where: .equals("holdover", 1), orderBy: order,
                                                           following: ["agency"]))
        XCTAssertTrue(fromPostgreSQL.contains { $0.agency == "State" }, "\(fromPostgreSQL.prefix(3))")
    }
}
