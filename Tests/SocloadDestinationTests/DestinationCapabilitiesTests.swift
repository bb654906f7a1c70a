import Foundation
import SocloadCore
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSQLite
import XCTest

/// What each destination says it can do is what it does: the facts a load and a command read from
/// `capabilities` rather than from the kind of database.
final class DestinationCapabilitiesTests: XCTestCase {
    func testEachDestinationStatesWhatItHolds() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("socload-capabilities-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("c.sqlite").path
        let sqlite = SQLiteDestination(queue: try DatabaseQueue(path: path))
        XCTAssertEqual(sqlite.capabilities.writers, DestinationCapabilities.Writers.one)
        XCTAssertNil(sqlite.maximumNameBytes)
        XCTAssertEqual(sqlite.columnLimit?.maximum, try DatabaseQueue(path: path).inDatabase { $0.maximumColumns })
        XCTAssertFalse(sqlite.storableValues.keepsDecimalDigits, "SQLite keeps the nearest binary number")
        XCTAssertFalse(sqlite.capabilities.distributesTables)
        XCTAssertFalse(sqlite.capabilities.keepsDescriptions)
        XCTAssertTrue(sqlite.capabilities.isOneFile, "Datasette and GDAL open the file")
        XCTAssertEqual(SQLiteDestination.capabilities.writers, sqlite.capabilities.writers)

        let postgreSQL = PostgreSQLDestination.capabilities
        XCTAssertEqual(postgreSQL.writers, DestinationCapabilities.Writers.many)
        XCTAssertEqual(postgreSQL.maximumNameBytes, 63)
        XCTAssertEqual(postgreSQL.columnLimit?.maximum, 1_600)
        XCTAssertTrue(postgreSQL.columnLimit?.addsGeometryColumns == true)
        XCTAssertTrue(postgreSQL.distributesTables)
        XCTAssertTrue(postgreSQL.keepsDescriptions)
        XCTAssertFalse(postgreSQL.isOneFile)

        // A destination that says nothing: anything, any name, one writer at a time.
        XCTAssertEqual(NDJSONDestination(directory: directory).capabilities.writers, DestinationCapabilities.Writers.one)
        XCTAssertNil(NDJSONDestination(directory: directory).maximumNameBytes)
    }
}
