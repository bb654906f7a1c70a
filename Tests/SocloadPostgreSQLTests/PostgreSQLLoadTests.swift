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

/// The real exports in `../shared/datasets` (outside the repository; skipped without them): the
/// same cells in PostgreSQL as in SQLite, and `verify` judging the portal's statistics the same.
final class PostgreSQLSharedDatasetTests: PostgreSQLTestCase {
    func testEverySharedExportHoldsTheSameCellsAndVerifiesTheSame() throws {
        guard let shared = Fixtures.sharedDatasets else {
            throw XCTSkip("../shared/datasets is absent: skipping the conformance test on real exports")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".rows.json") }.sorted()
        XCTAssertFalse(files.isEmpty)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("shared.sqlite").path)
        var statements = 0
        for file in files {
            let path = shared.appendingPathComponent(file).path
            let summary = try load(file: path, id: nil)
            let sqlite = try DatasetLoader(destination: SQLiteDestination(queue: queue))
                .load(LoadRequest(reference: DatasetReference(location: .file(path), datasetID: nil, domain: nil)))
            XCTAssertEqual(summary.rowCount, sqlite.rowCount, file)
            let plan = try XCTUnwrap(summary.catalogEntry.plan)
            try CrossDatabaseComparison.assertSameCells(plan.mainTable, postgreSQL: database.connect(), sqlite: queue)
            let pgVerification = try XCTUnwrap(PostgreSQLDatabase(connection: database.connect()).verify(summary.tableName))
            let sqliteVerification = try XCTUnwrap(queue.read { try SQLiteVerifier.verify(sqlite.tableName, db: $0) })
            XCTAssertEqual(pgVerification.results.map(\.agrees), sqliteVerification.results.map(\.agrees), file)
            XCTAssertEqual(pgVerification.differenceLines, sqliteVerification.differenceLines, file)
            statements += pgVerification.results.count
        }
        XCTAssertGreaterThan(statements, 20, "the exports state column statistics to verify")
    }
}
