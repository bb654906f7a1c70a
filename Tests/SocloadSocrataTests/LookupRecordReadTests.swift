import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// After `extract`, a record read from the table by name either follows the foreign key to the
/// lookup (`following:`) or fails naming the lookup: an optional property is never nil in every
/// row without a word.
final class LookupRecordReadTests: XCTestCase {
    struct Nomination: Decodable, Equatable {
        var name: String
        var agency: String?
    }

    func testAPropertyMovedToALookupIsFollowedOrNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("socload-lookup-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("lookups.sqlite").path)
        let reference = DatasetReference(location: .file(Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path),
                                         datasetID: "n5m4-mism", domain: nil)
        var request = LoadRequest(reference: reference)
        request.extractions = [Extraction(columns: ["agency"])]
        _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(request)

        try queue.read { db in
            XCTAssertThrowsError(try db.fetchAll(Nomination.self, from: "n5m4_mism", limit: 3)) { error in
                XCTAssertEqual(error as? SelectError,
                               .columnInLookup("agency", table: "n5m4_mism", lookup: "agency", foreignKey: "agency_id"))
                XCTAssertTrue("\(error)".contains("read it with following: [\"agency\"], or decode agency_id"), "\(error)")
            }
            let followed = try db.fetchAll(Nomination.self, from: "n5m4_mism", where: .equals("name", "James Álvarez"),
                                           following: ["agency"])
            let joined = try db.fetchAll(Nomination.self, sql: """
                SELECT n.name, a.agency FROM n5m4_mism AS n LEFT JOIN agency AS a ON a.id = n.agency_id WHERE n.name = ?
                """, arguments: ["James Álvarez"])
            XCTAssertFalse(followed.isEmpty)
            XCTAssertEqual(followed, joined, "the lookup's value, as the join gives it")
            XCTAssertTrue(followed.allSatisfy { $0.agency != nil })
            // Every row, NULLs too: a row without an agency has none in the lookup either.
            let all = try db.fetchAll(Nomination.self, from: "n5m4_mism", following: ["agency"])
            XCTAssertEqual(all.count, 300)
            XCTAssertEqual(all.filter { $0.agency == nil }.count,
                           try db.fetchOne(Int.self, sql: "select count(*) from n5m4_mism where agency_id is null"))
            XCTAssertThrowsError(try db.fetchAll(Nomination.self, from: "n5m4_mism", following: ["budget"])) { error in
                XCTAssertEqual(error as? SelectError, .notInALookup("budget", table: "n5m4_mism"))
            }
            // A property that is nowhere stays an optional's nil, as before.
            struct Other: Decodable { var name: String; var nickname: String? }
            XCTAssertEqual(try db.fetchAll(Other.self, from: "n5m4_mism", limit: 2).compactMap(\.nickname), [])
        }
    }
}
