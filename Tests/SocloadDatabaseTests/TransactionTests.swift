import CSQLite
import SocloadDatabase
import XCTest

final class TransactionTests: XCTestCase {
    struct Failure: Error {}

    func testWriteCommits() throws {
        let directory = try TemporaryDirectory()
        let log = SQLLog()
        let queue = try makeQueue(directory, log: log)
        try queue.write { db in try db.execute(sql: "create table t(x)") }
        XCTAssertEqual(log.all, ["BEGIN IMMEDIATE TRANSACTION", "create table t(x)", "COMMIT TRANSACTION"])
    }

    func testErrorInsideWriteRollsBackAndIsRethrown() throws {
        let directory = try TemporaryDirectory()
        let log = SQLLog()
        let queue = try makeQueue(directory, log: log)
        try queue.write { db in try db.execute(sql: "create table t(x)") }
        log.clear()
        XCTAssertThrowsError(try queue.write { db in
            try db.execute(sql: "insert into t(x) values (?)", arguments: [1])
            throw Failure()
        }) { error in XCTAssertTrue(error is Failure) }
        XCTAssertEqual(log.all, ["BEGIN IMMEDIATE TRANSACTION", "insert into t(x) values (?)", "ROLLBACK TRANSACTION"])
        XCTAssertEqual(try queue.read { try $0.fetchValue(sql: "select count(*) from t") }, .integer(0))
    }

    func testNoRollbackWhenSQLiteAlreadyEndedTheTransaction() throws {
        let directory = try TemporaryDirectory()
        let log = SQLLog()
        let queue = try makeQueue(directory, log: log)
        XCTAssertThrowsError(try queue.write { db in
            try db.execute(sql: "ROLLBACK")
            throw Failure()
        }) { error in XCTAssertTrue(error is Failure, "the first error wins") }
        XCTAssertEqual(log.all, ["BEGIN IMMEDIATE TRANSACTION", "ROLLBACK"])
    }

    func testFailedCommitRollsBackAndThrowsTheCommitError() throws {
        let directory = try TemporaryDirectory()
        let log = SQLLog()
        let queue = try makeQueue(directory, log: log)
        try queue.inDatabase { db in
            try db.execute(sql: """
                PRAGMA foreign_keys = ON;
                create table parent(id integer primary key);
                create table child(p references parent(id) deferrable initially deferred);
                """)
        }
        log.clear()
        XCTAssertThrowsError(try queue.write { db in try db.execute(sql: "insert into child(p) values (42)") }) { error in
            XCTAssertEqual((error as? DatabaseError)?.extendedResultCode, 787) // SQLITE_CONSTRAINT_FOREIGNKEY
        }
        XCTAssertEqual(log.all, ["BEGIN IMMEDIATE TRANSACTION", "insert into child(p) values (42)",
                                 "COMMIT TRANSACTION", "ROLLBACK TRANSACTION"])
        XCTAssertFalse(queue.inDatabase { $0.isInsideTransaction })
    }

    func testReadCannotWrite() throws {
        let directory = try TemporaryDirectory()
        let queue = try makeQueue(directory)
        try queue.write { db in try db.execute(sql: "create table t(x)") }
        XCTAssertThrowsError(try queue.read { db in try db.execute(sql: "insert into t values (1)") }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, SQLITE_READONLY)
        }
        try queue.write { db in try db.execute(sql: "insert into t values (1)") }
        XCTAssertEqual(try queue.read { try $0.fetchValue(sql: "select count(*) from t") }, .integer(1))
    }
}
