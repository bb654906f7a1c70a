import Foundation
import SocloadDatabase
@testable import SocloadPostgreSQL
@testable import SocloadSocrata
import SocloadTestSupport
import XCTest

/// The new copy is built beside the old table and swapped in at the end: readers are never
/// blocked by the COPY, a long reader only delays the swap, and what users built on the old
/// table survives.
final class PostgreSQLSwapTests: PostgreSQLTestCase {
    func testReadersOfTheOldTableNeverWaitForTheCopy() throws {
        try load(file: bundled("n5m4-mism"), id: "n5m4-mism")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: bundled("n5m4-mism")))
        let fifo = directory.appendingPathComponent("rows.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let loader = try self.loader()
        let finished = expectation(description: "load")
        let outcome = LockedResult()
        Thread.detachNewThread {
            outcome.set(Result { try loader.load(LoadRequest(reference: DatasetReference(location: .file(fifo), datasetID: "n5m4-mism",
                                                                                         domain: nil))) })
            finished.fulfill()
        }
        let writer = try XCTUnwrap(FileHandle(forWritingAtPath: fifo))
        writer.write(bytes.prefix(bytes.count * 2 / 3))
        Thread.sleep(forTimeInterval: 0.5) // the load is inside its transaction, COPY open
        let reader = try database.connect()
        try reader.execute("SET statement_timeout = '1s'")
        for _ in 0..<5 {
            XCTAssertEqual(try reader.value("SELECT count(*) FROM n5m4_mism"), "300")
            XCTAssertEqual(try reader.value("SELECT row_count FROM _socload_datasets"), "300")
        }
        XCTAssertEqual(try reader.value("SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                                        + "WHERE c.relname = 'n5m4_mism' AND l.mode = 'AccessExclusiveLock'"), "0")
        writer.write(bytes.suffix(from: bytes.count * 2 / 3))
        try writer.close()
        wait(for: [finished], timeout: 30)
        XCTAssertEqual(try outcome.get()?.get().rowCount, 300)
    }

    func testALongReaderDelaysTheSwapWithoutQueueingOtherReaders() throws {
        try load(file: bundled("n5m4-mism"), id: "n5m4-mism")
        let longReader = try database.connect()
        try longReader.execute("BEGIN")
        try longReader.execute("SELECT count(*) FROM n5m4_mism")
        let loader = try self.loader { $0.swapLocking.timeout = 0.2; $0.swapLocking.attempts = 40 }
        let finished = expectation(description: "load")
        let outcome = LockedResult()
        let path = bundled("n5m4-mism")
        Thread.detachNewThread {
            outcome.set(Result {
                var request = LoadRequest(reference: DatasetReference(location: .file(path), datasetID: "n5m4-mism", domain: nil))
                request.force = true // the same file again: a reload, not "up to date"
                return try loader.load(request)
            })
            finished.fulfill()
        }
        // While the swap waits for the long reader, new readers get through between its attempts.
        Thread.sleep(forTimeInterval: 0.6)
        let reader = try database.connect()
        try reader.execute("SET statement_timeout = '1s'")
        for _ in 0..<3 {
            let start = Date()
            XCTAssertEqual(try reader.value("SELECT count(*) FROM n5m4_mism"), "300")
            XCTAssertLessThan(Date().timeIntervalSince(start), 0.9)
        }
        XCTAssertNil(outcome.get(), "the swap waited for the long reader")
        try longReader.execute("COMMIT")
        wait(for: [finished], timeout: 30)
        XCTAssertEqual(try outcome.get()?.get().rowCount, 300)
    }

    func testAReaderThatOutlastsEveryAttemptFailsTheLoadAndChangesNothing() throws {
        try load(file: bundled("n5m4-mism"), id: "n5m4-mism")
        let before = try rows("SELECT * FROM _socload_datasets")
        let longReader = try database.connect()
        try longReader.execute("BEGIN")
        try longReader.execute("SELECT count(*) FROM n5m4_mism")
        // On a thread of its own, with a watchdog: a swap that waited without end (no lock_timeout)
        // fails this test instead of hanging it.
        let loader = try self.loader { $0.swapLocking.timeout = 0.05; $0.swapLocking.attempts = 3 }
        let finished = expectation(description: "load")
        let outcome = LockedResult()
        let path = bundled("n5m4-mism")
        Thread.detachNewThread {
            outcome.set(Result {
                var request = LoadRequest(reference: DatasetReference(location: .file(path), datasetID: "n5m4-mism", domain: nil))
                request.force = true // the same file again: a reload, not "up to date"
                return try loader.load(request)
            })
            finished.fulfill()
        }
        if XCTWaiter.wait(for: [finished], timeout: 20) != .completed {
            XCTFail("the swap waited without end for the long reader (is its lock_timeout set?)")
            try longReader.execute("COMMIT")
            wait(for: [finished], timeout: 30)
            return
        }
        XCTAssertThrowsError(try outcome.get()?.get()) { error in
            XCTAssertTrue("\(error)".contains("n5m4_mism stayed locked by another session through 3 attempts"), "\(error)")
            XCTAssertEqual((error as? PostgreSQLError)?.kind, .unavailable)
        }
        try longReader.execute("COMMIT")
        XCTAssertEqual(try rows("SELECT * FROM _socload_datasets"), before)
        XCTAssertEqual(try value("SELECT count(*) FROM pg_class WHERE relkind = 'r' AND relname LIKE '\\_socload\\_%' AND relname NOT IN ('_socload_datasets', '_socload_meta', '_socload_refreshes', '_socload_schema_changes', '_socload_table_names', '_socload_fingerprints_n5m4_mism')"), "0")
    }

    func testTheUsersViewsGrantsIndexesConstraintsTriggersAndForeignKeysSurviveARefresh() throws {
        try load(file: bundled("n5m4-mism"), id: "n5m4-mism")
        let admin = try database.connect()
        for statement in [
            // Roles belong to the server, not the test's database: made when a run before did not.
            "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'socload_reader') THEN CREATE ROLE socload_reader; "
                + "END IF; IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'socload_owner') THEN CREATE ROLE socload_owner; "
                + "END IF; END $$",
            "CREATE VIEW by_agency AS SELECT agency, count(*) AS n FROM n5m4_mism GROUP BY agency",
            "CREATE VIEW top_agency AS SELECT agency FROM by_agency ORDER BY n DESC LIMIT 1",
            "CREATE MATERIALIZED VIEW names AS SELECT name FROM n5m4_mism",
            "GRANT SELECT ON n5m4_mism TO socload_reader", "GRANT SELECT ON by_agency TO socload_reader",
            "ALTER TABLE n5m4_mism OWNER TO socload_owner",
            "CREATE INDEX my_agency ON n5m4_mism (lower(agency))",
            "ALTER TABLE n5m4_mism ADD CONSTRAINT named CHECK (name <> '')",
            "CREATE TABLE notes (nomination text REFERENCES n5m4_mism (_id), note text)",
            "INSERT INTO notes SELECT _id, 'first' FROM n5m4_mism ORDER BY _id LIMIT 1",
            "CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
            "CREATE TRIGGER touched BEFORE UPDATE ON n5m4_mism FOR EACH ROW EXECUTE FUNCTION touch()",
            "COMMENT ON TABLE n5m4_mism IS 'nominations'",
        ] { try admin.execute(statement) }
        let summary = try load(file: bundled("n5m4-mism"), id: "n5m4-mism")
        XCTAssertEqual(summary.notes, [])
        XCTAssertEqual(try value("SELECT count(*) FROM top_agency"), "1")
        XCTAssertEqual(try value("SELECT count(*) FROM names"), "300")
        XCTAssertEqual(try value("SELECT has_table_privilege('socload_reader', 'n5m4_mism', 'SELECT')::text"), "true")
        XCTAssertEqual(try value("SELECT has_table_privilege('socload_reader', 'by_agency', 'SELECT')::text"), "true")
        XCTAssertEqual(try value("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'n5m4_mism'"), "socload_owner")
        XCTAssertEqual(try value("SELECT count(*) FROM pg_indexes WHERE tablename = 'n5m4_mism' AND indexname = 'my_agency'"), "1")
        XCTAssertEqual(try value("SELECT count(*) FROM pg_constraint WHERE conname = 'named'"), "1")
        XCTAssertEqual(try value("SELECT count(*) FROM pg_constraint WHERE conrelid = 'notes'::regclass AND contype = 'f'"), "1")
        XCTAssertEqual(try value("SELECT count(*) FROM pg_trigger WHERE tgname = 'touched' AND tgrelid = 'n5m4_mism'::regclass"), "1")
        XCTAssertEqual(try value("SELECT obj_description('n5m4_mism'::regclass, 'pg_class')"), "nominations")
        XCTAssertEqual(try value("SELECT count(*) FROM pg_indexes WHERE tablename = 'n5m4_mism' AND indexname = '_socload_key_n5m4_mism'"), "1")
    }

    func testAViewThatCannotBeRebuiltIsReportedOrWithStrictFailsTheLoad() throws {
        try load(file: bundled("n5m4-mism"), id: "n5m4-mism")
        try database.connect().execute("CREATE VIEW holdovers AS SELECT name, holdover FROM n5m4_mism WHERE holdover")
        // The next copy has no holdover column (loaded as another table name's plan would be).
        let original = try String(contentsOfFile: bundled("n5m4-mism"), encoding: .utf8)
        let renamed = original.replacingOccurrences(of: #""fieldName":"holdover""#, with: #""fieldName":"held_over""#)
        XCTAssertNotEqual(renamed, original)
        let path = try write("renamed.json", renamed)
        XCTAssertThrowsError(try load(file: path, id: "n5m4-mism", table: "n5m4_mism", strict: true)) { error in
            XCTAssertTrue("\(error)".contains("your view public.holdovers on n5m4_mism could not be rebuilt"), "\(error)")
        }
        XCTAssertEqual(try value("SELECT count(*) FROM holdovers"), try value("SELECT count(*) FROM n5m4_mism WHERE holdover"))
        let summary = try load(file: path, id: "n5m4-mism", table: "n5m4_mism")
        XCTAssertEqual(summary.schemaChanges.map(\.line), ["column holdover renamed to held_over"])
        XCTAssertEqual(summary.notes.count, 2)
        XCTAssertTrue(summary.notes[1].hasPrefix("your view public.holdovers on n5m4_mism could not be rebuilt (column n5m4_mism.holdover does not exist"),
                      summary.notes[1])
        XCTAssertEqual(try value("SELECT to_regclass('holdovers')::text"), nil)
    }

    func testAValueTheServerRejectsStopsTheCopyAtOnce() throws {
        let connection = try database.connect()
        let destination = PostgreSQLDestination(connection: connection)
        let table = PlanTable(name: "rejects", columns: [PlanColumn(name: "n", type: .integer, source: .field(cell: 0)),
                                                         PlanColumn(name: "label", type: .text, source: .field(cell: 1))])
        var batchesSent = 0
        XCTAssertThrowsError(try destination.performLoad { transaction in
            let writer = try transaction.replaceTable(table, previous: nil)
            for number in 0..<20_000 {
                var batch = RowBatch(columnCount: 2, firstRowNumber: number * 100 + 1, expectedRows: 100)
                for row in 0..<100 {
                    batch.values.append(.integer(Int64(number * 100 + row)))
                    // Row 150: bytes that are not UTF-8, which the server refuses in text.
                    batch.appendBytes(number == 1 && row == 49 ? [0x66, 0xFF, 0xFE] : Array("label \(row)".utf8))
                }
                try writer.insert(batch)
                batchesSent += 1
            }
            return 0
        }) { error in
            let description = "\(error)"
            XCTAssertTrue(description.hasPrefix("PostgreSQL error 22021 (character_not_in_repertoire): invalid byte sequence"), description)
            XCTAssertTrue(description.contains("(row 150, column label)"), description)
        }
        XCTAssertLessThan(batchesSent, 2_000, "the upload went on long after the server refused row 150")
        XCTAssertEqual(try value("SELECT to_regclass('rejects')::text"), nil)
    }
}

final class LockedResult: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<LoadSummary, any Error>?
    func set(_ value: Result<LoadSummary, any Error>) { lock.withLock { result = value } }
    func get() -> Result<LoadSummary, any Error>? { lock.withLock { result } }
}
