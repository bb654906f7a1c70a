import Foundation
import SocloadTestSupport
import XCTest

/// The contract on a SQLite file.
final class SQLiteDestinationContractTests: DestinationContractTests {
    override func makeSubject() throws -> any DestinationSubject {
        SQLiteSubject(path: directory.appendingPathComponent("contract.sqlite").path)
    }

    func testALoadMakesThePlansTableWithEveryRowAndRecordsIt() throws { try checkALoadMakesThePlansTableWithEveryRowAndRecordsIt() }
    func testAReloadReplacesEveryRow() throws { try checkAReloadReplacesEveryRow() }
    func testAFailedLoadChangesNothing() throws { try checkAFailedLoadChangesNothing() }
    func testADuplicateKeyIsReportedTheSameWayEverywhere() throws { try checkADuplicateKeyIsReportedTheSameWayEverywhere() }
    func testRealExportsLoadWithEveryRow() throws { try checkRealExportsLoadWithEveryRow() }
}

/// The contract on a database of the test PostgreSQL server.
final class PostgreSQLDestinationContractTests: DestinationContractTests {
    private var database: TestPostgreSQL.TestDatabase?

    override func makeSubject() throws -> any DestinationSubject {
        let database = try TestPostgreSQL.makeDatabase()
        self.database = database
        return PostgreSQLSubject(database: database)
    }

    override func tearDownWithError() throws {
        try super.tearDownWithError()
        database = nil
    }

    func testALoadMakesThePlansTableWithEveryRowAndRecordsIt() throws { try checkALoadMakesThePlansTableWithEveryRowAndRecordsIt() }
    func testAReloadReplacesEveryRow() throws { try checkAReloadReplacesEveryRow() }
    func testAFailedLoadChangesNothing() throws { try checkAFailedLoadChangesNothing() }
    func testADuplicateKeyIsReportedTheSameWayEverywhere() throws { try checkADuplicateKeyIsReportedTheSameWayEverywhere() }
    func testRealExportsLoadWithEveryRow() throws { try checkRealExportsLoadWithEveryRow() }
}

/// The contract on the NDJSON destination, which lives in these tests only.
final class NDJSONDestinationContractTests: DestinationContractTests {
    override func makeSubject() throws -> any DestinationSubject {
        NDJSONSubject(directory: directory.appendingPathComponent("ndjson"))
    }

    func testALoadMakesThePlansTableWithEveryRowAndRecordsIt() throws { try checkALoadMakesThePlansTableWithEveryRowAndRecordsIt() }
    func testAReloadReplacesEveryRow() throws { try checkAReloadReplacesEveryRow() }
    func testAFailedLoadChangesNothing() throws { try checkAFailedLoadChangesNothing() }
    func testADuplicateKeyIsReportedTheSameWayEverywhere() throws { try checkADuplicateKeyIsReportedTheSameWayEverywhere() }
    func testRealExportsLoadWithEveryRow() throws { try checkRealExportsLoadWithEveryRow() }
}
