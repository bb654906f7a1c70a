import Foundation
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import SocloadSQLite
import SocloadTestSupport
import XCTest

/// The bundled datasets loaded into PostgreSQL and into SQLite hold the same values, cell by
/// cell, once each database's spelling of a type is read back into one form.
final class PostgreSQLLoadTests: XCTestCase {
    func load(_ id: String, into database: TestPostgreSQL.TestDatabase, table: String? = nil) throws -> LoadSummary {
        let connection = try database.connect()
        let loader = DatasetLoader(destination: PostgreSQLDestination(connection: connection))
        let path = Fixtures.datasetsDirectory.appendingPathComponent("\(id).json").path
        return try loader.load(LoadRequest(reference: DatasetReference(location: .file(path), datasetID: id, domain: nil),
                                           tableName: table))
    }

    func testTheBundledDatasetsHoldTheSameValuesAsInSQLite() throws {
        let database = try TestPostgreSQL.makeDatabase()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("socload-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("same.sqlite").path)
        for id in Fixtures.bundledIDs {
            let summary = try load(id, into: database)
            let path = Fixtures.datasetsDirectory.appendingPathComponent("\(id).json").path
            let sqlite = try DatasetLoader(destination: SQLiteDestination(queue: queue))
                .load(LoadRequest(reference: DatasetReference(location: .file(path), datasetID: id, domain: nil)))
            XCTAssertEqual(summary.rowCount, sqlite.rowCount, id)
            XCTAssertGreaterThan(summary.rowCount, 0, id)
            let plan = try XCTUnwrap(summary.catalogEntry.plan)
            try CrossDatabaseComparison.assertSameCells(plan.mainTable, postgreSQL: database.connect(), sqlite: queue)
        }
    }
}
