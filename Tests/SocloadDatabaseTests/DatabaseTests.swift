import CSQLite
import Foundation
@testable import SocloadDatabase
import XCTest

final class DatabaseTests: XCTestCase {
    func testOpensAndCreatesFileInWALMode() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.path("new.sqlite"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path("new.sqlite")))
        XCTAssertEqual(try db.fetchValue(sql: "PRAGMA journal_mode"), .text("wal"))
    }

    /// The busy timeout is kept by socload's own handler (which also ends a wait on interrupt):
    /// a second connection waits for the lock about that long, then fails with SQLITE_BUSY.
    func testBusyTimeoutWaitsThenFails() throws {
        let directory = try TemporaryDirectory()
        let holder = try Database(path: directory.path("busy.sqlite"))
        try holder.execute(sql: "BEGIN IMMEDIATE")
        var configuration = DatabaseConfiguration()
        configuration.busyTimeoutMilliseconds = 300
        let waiter = try Database(path: directory.path("busy.sqlite"), configuration: configuration)
        let start = Date()
        XCTAssertThrowsError(try waiter.execute(sql: "BEGIN IMMEDIATE")) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, SQLITE_BUSY)
        }
        let waited = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(waited, 0.29)
        XCTAssertLessThan(waited, 2)
    }

    func testInterruptEndsALockWaitAndAStatement() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("interrupt.sqlite")
        let holder = try DatabaseQueue(path: path)
        try holder.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let waiter = try DatabaseQueue(path: path)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { waiter.interrupt() }
        let start = Date()
        XCTAssertThrowsError(try waiter.write { _ in })
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "the 5 s lock wait was not ended")
        holder.inDatabase { db in db.rollbackIfNeeded() }
        waiter.resumeAfterInterrupt()
        // A long statement: a recursive count to a billion, interrupted after 0.2 s.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { waiter.interrupt() }
        XCTAssertThrowsError(try waiter.inDatabase { db in
            try db.fetchValue(sql: "with recursive c(x) as (select 1 union all select x + 1 from c where x < 1000000000) select count(*) from c")
        }) { error in
            XCTAssertTrue((error as? DatabaseError)?.isInterrupted == true, "\(error)")
        }
        waiter.resumeAfterInterrupt()
        XCTAssertEqual(try waiter.read { db in try db.fetchValue(sql: "select 1") }, .integer(1))
    }

    func testMissingFileIsAnErrorWhenCreationIsOff() throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration()
        configuration.createIfMissing = false
        XCTAssertThrowsError(try Database(path: directory.path("absent.sqlite"), configuration: configuration)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, SQLITE_CANTOPEN)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("absent.sqlite")))
    }

    func testDoubleQuotedStringsAreIdentifiersOnly() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table t(a)")
        XCTAssertThrowsError(try db.execute(sql: "insert into t(a) values (\"not a column\")")) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "no such column: not a column")
        }
    }

    func testExtendedResultCodesAndErrorDescription() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table t(x not null)")
        XCTAssertThrowsError(try db.execute(sql: "insert into t(x) values (?)", arguments: [nil as String?])) { error in
            let error = error as? DatabaseError
            XCTAssertEqual(error?.extendedResultCode, 1299) // SQLITE_CONSTRAINT_NOTNULL
            XCTAssertEqual(error?.resultCode, SQLITE_CONSTRAINT)
            XCTAssertEqual(error?.description,
                           "SQLite error 1299 (constraint failed): NOT NULL constraint failed: t.x"
                               + " - while executing `insert into t(x) values (?)`")
        }
    }

    func testBoundValuesNeverAppearInErrors() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table t(x unique)")
        try db.execute(sql: "insert into t(x) values (?)", arguments: ["secret-value-1"])
        XCTAssertThrowsError(try db.execute(sql: "insert into t(x) values (?)", arguments: ["secret-value-1"])) { error in
            XCTAssertFalse("\(error)".contains("secret-value-1"), "\(error)")
            XCTAssertTrue("\(error)".contains("UNIQUE constraint failed: t.x"), "\(error)")
        }
    }

    func testValuesRoundTripPerStorageClass() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table t(v)")
        let values: [DatabaseValue] = [
            .null, .integer(0), .integer(Int64.max), .integer(Int64.min), .real(3.5), .real(-0.000_001),
            .text(""), .text("Zürich 中文 \"q\" \n\t"), .text("nul\u{0}inside"), .blob(Data()), .blob(Data([0, 1, 255])),
        ]
        for value in values {
            try db.execute(sql: "delete from t")
            try db.execute(sql: "insert into t(v) values (?)", arguments: StatementArguments([value]))
            XCTAssertEqual(try db.fetchValue(sql: "select v from t"), value)
            let storedType = try db.fetchValue(sql: "select typeof(v) from t")
            XCTAssertEqual(storedType, .text(value.storageClassName.lowercased()))
        }
    }

    func testNamedAndPositionalParameters() throws {
        let db = try Database(path: ":memory:")
        XCTAssertEqual(try db.fetchValue(sql: "select :a || ?2 || $c",
                                         arguments: StatementArguments(positional: ["-"], named: ["a": "x", "c": "z"])),
                       .text("x-z"))
        XCTAssertThrowsError(try db.fetchValue(sql: "select :a", arguments: [:])) { error in
            XCTAssertEqual("\(error)", "SQLite error 25 (column index out of range): missing value for"
                               + " parameter :a - while executing `select :a`")
            XCTAssertTrue((error as? DatabaseError)?.isArgumentMismatch == true)
        }
        XCTAssertThrowsError(try db.fetchValue(sql: "select ?", arguments: [1, 2])) { error in
            XCTAssertTrue("\(error)".contains("wrong number of arguments"), "\(error)")
        }
        XCTAssertThrowsError(try db.fetchValue(sql: "select ?, ?", arguments: [1])) { error in
            XCTAssertTrue("\(error)".contains("wrong number of arguments"), "\(error)")
        }
    }

    func testExecuteRunsSeveralStatementsButStatementsHoldOne() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table a(x); -- comment\n insert into a values (1); insert into a values (2);")
        XCTAssertEqual(try db.fetchValue(sql: "select sum(x) from a"), .integer(3))
        XCTAssertThrowsError(try db.makeStatement(sql: "select 1; select 2")) { error in
            XCTAssertTrue("\(error)".contains("only one SQL statement"), "\(error)")
        }
        XCTAssertNoThrow(try db.makeStatement(sql: "select 1; -- trailing comment"))
    }

    func testCachedStatementIsReusedAndEvictedAfterFailure() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "create table t(x unique)")
        let sql = "insert into t(x) values (?)"
        let first = try db.cachedStatement(sql: sql)
        XCTAssertTrue(first === (try db.cachedStatement(sql: sql)))
        try db.execute(sql: sql, arguments: [1])
        XCTAssertTrue(db.isCached(sql: sql))
        XCTAssertThrowsError(try db.execute(sql: sql, arguments: [1]))
        XCTAssertFalse(db.isCached(sql: sql), "a failed statement is evicted")
        let second = try db.cachedStatement(sql: sql)
        XCTAssertFalse(first === second)
        try db.execute(sql: sql, arguments: [2])
        XCTAssertEqual(try db.fetchValue(sql: "select count(*) from t"), .integer(2))
    }

    func testTraceShowsPlaceholdersNotValues() throws {
        let db = try Database(path: ":memory:")
        let log = SQLLog()
        db.trace { log.append($0) }
        try db.execute(sql: "create table t(x)")
        try db.execute(sql: "insert into t(x) values (?)", arguments: ["hidden"])
        XCTAssertEqual(log.all, ["create table t(x)", "insert into t(x) values (?)"])
        db.trace(nil)
        try db.execute(sql: "delete from t")
        XCTAssertEqual(log.all.count, 2)
    }

    func testQuotedIdentifiers() throws {
        let db = try Database(path: ":memory:")
        let hostile = "x\"); DROP TABLE t; --"
        try db.execute(sql: "create table t(\(hostile.quotedDatabaseIdentifier))")
        let rows = try db.fetchRows(sql: "select name from pragma_table_info('t')")
        XCTAssertEqual(rows.map { $0[0] }, [.text(hostile)])
        XCTAssertEqual("a\"b".quotedDatabaseIdentifier, "\"a\"\"b\"")
    }
}

/// `DatabaseConfiguration.acceptsChanges = false`: the authorizer refuses what a read-only
/// connection alone lets through.
final class ReadOnlyConnectionTests: XCTestCase {
    func testVacuumIntoAndJournalModeAreRefusedWhereReadonlyIsNot() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("a.sqlite")
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "create table t(a); insert into t values (1)") }
        let target = directory.path("copy.sqlite")

        var readonly = DatabaseConfiguration()
        readonly.readonly = true
        try DatabaseQueue(path: path, configuration: readonly).inDatabase { db in
            // What the authorizer is for: SQLite runs this on a read-only connection.
            try db.execute(sql: "vacuum into '\(target)'")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: target))
        try FileManager.default.removeItem(atPath: target)

        var guarded = DatabaseConfiguration()
        guarded.acceptsChanges = false
        let queue = try DatabaseQueue(path: path, configuration: guarded)
        for sql in ["vacuum into '\(target)'", "pragma journal_mode = delete", "insert into t values (2)", "drop table t"] {
            XCTAssertThrowsError(try queue.inDatabase { db in try db.execute(sql: sql) }, sql) { error in
                XCTAssertTrue((error as? DatabaseError)?.isNotAuthorized == true, "\(sql): \(error)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertEqual(try queue.read { db in try db.fetchValue(sql: "select count(*) from t") }, .integer(1))
        XCTAssertEqual(try queue.inDatabase { db in try db.fetchValue(sql: "pragma journal_mode") }, .text("wal"))
        // A GeoPackage's RTree may prepare writes to its shadow tables, but SQLite refuses to run
        // them: the connection is under query_only, which cannot be lifted.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "create virtual table rtree_t_g using rtree(id, minx, maxx, miny, maxy); "
                                + "insert into rtree_t_g values (1, 0, 1, 0, 1)")
        }
        let reader = try DatabaseQueue(path: path, configuration: guarded)
        XCTAssertEqual(try reader.inDatabase { db in try db.fetchValue(sql: "select count(*) from rtree_t_g") }, .integer(1))
        XCTAssertThrowsError(try reader.inDatabase { db in try db.execute(sql: "pragma query_only = 0") })
        for sql in ["delete from rtree_t_g_node", "delete from rtree_t_g", "insert into rtree_t_g values (2, 0, 1, 0, 1)"] {
            XCTAssertThrowsError(try reader.inDatabase { db in try db.execute(sql: sql) }, sql)
        }
        XCTAssertEqual(try reader.read { db in try db.fetchValue(sql: "select count(*) from rtree_t_g") }, .integer(1))
    }
}

final class NamedArgumentTests: XCTestCase {
    func testNamedKeysWithOrWithoutTheirPrefix() throws {
        let db = try Database(path: ":memory:")
        XCTAssertEqual(try db.fetchValue(sql: "select :a || @b || $c", arguments: ["a": "1", "@b": "2", "$c": "3"]), .text("123"))
        XCTAssertEqual(try db.fetchValue(sql: "select :a", arguments: [":a": "x"]), .text("x"))
        XCTAssertThrowsError(try db.fetchValue(sql: "select :a", arguments: ["b": "x"])) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "missing value for parameter :a")
        }
    }
}

final class SQLIdentifierTests: XCTestCase {
    func testNamesAreQuotedOnlyWhereSQLNeedsIt() {
        XCTAssertEqual("n5m4_mism".sqlIdentifier, "n5m4_mism")
        XCTAssertEqual("_id".sqlIdentifier, "_id")
        for (name, written) in [("5mtp_qs2h", #""5mtp_qs2h""#), ("select", #""select""#), ("ORDER", #""ORDER""#),
                                ("a b", #""a b""#), ("x\"y", #""x""y""#), ("é", #""é""#), ("", #""""#)] {
            XCTAssertEqual(name.sqlIdentifier, written, name)
        }
    }
}

final class CredentialRedactionUnitTests: XCTestCase {
    func testPasswordsLeaveEveryURLInText() {
        XCTAssertEqual(CredentialRedaction.url("https://ana:pw@data.example.org/x.json?a=1"), "https://ana@data.example.org/x.json?a=1")
        XCTAssertEqual(CredentialRedaction.url("postgresql://ana:p%40ss@db:5432/x?sslmode=require&password=pw"),
                       "postgresql://ana@db:5432/x?sslmode=require")
        XCTAssertEqual(CredentialRedaction.url("https://h/x.json?$$app_token=T&%24%24app_token=U&q=1"), "https://h/x.json?q=1")
        XCTAssertEqual(CredentialRedaction.url("https://ana@h/x"), "https://ana@h/x")
        XCTAssertEqual(CredentialRedaction.url("/local/path"), "/local/path")
        // An @ in the path is not a user part.
        XCTAssertEqual(CredentialRedaction.url("https://h/a:b@c"), "https://h/a:b@c")
        XCTAssertEqual(CredentialRedaction.text("Copying http://a:b@h/x to a file; HTTP 404 from 'https://c:d@e/f' (g)"),
                       "Copying http://a@h/x to a file; HTTP 404 from 'https://c@e/f' (g)")
        XCTAssertEqual(CredentialRedaction.text("no URL here: a:b@c"), "no URL here: a:b@c")
    }
}
