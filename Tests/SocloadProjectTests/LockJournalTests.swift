import Foundation
import SocloadProject
import XCTest

/// `socload.lock-journal`: a refresh's records as each dataset commits, one line each, applied
/// over the lock when it is read and folded into it when the lock is written.
final class LockJournalTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("socload-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func entry(_ table: String, rows: Int) throws -> SocloadLockFile.Entry {
        try JSONDecoder().decode(SocloadLockFile.Entry.self, from: Data("""
            {"table": "\(table)", "source_url": "https://example.org/\(table).json", "fetched_at": "2026-12-04T10:00:00Z",
             "schema_hash": "0123456789abcdef", "row_count": \(rows), "content_hash": "00000000000000000000000000000000"}
            """.utf8))
    }

    func testTheJournalIsReadOverTheLockAndFoldedInWhenTheLockIsWritten() throws {
        let path = folder.appendingPathComponent("socload.lock").path
        var lock = SocloadLockFile()
        lock.datasets = ["a": try entry("a", rows: 1), "b": try entry("b", rows: 2)]
        try lock.write(to: path)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))

        try SocloadLockFile.journal("b", try entry("b", rows: 20), lock: path)
        try SocloadLockFile.journal("c", try entry("c", rows: 3), lock: path)
        // A line a kill cut short is skipped; the line after it still counts.
        let journal = SocloadLockFile.journalPath(forLock: path)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: journal))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"dataset":"a","entry":{"table":"#.utf8))
        try handle.close()
        try SocloadLockFile.journal("b", try entry("b", rows: 200), lock: path)

        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), written, "the lock itself is not rewritten")
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 5, "three whole lines, the cut one ended, and the end: \(lines)")
        XCTAssertTrue(lines[0].hasPrefix(#"{"dataset":"b","entry":{"#), "\(lines[0])")
        let read = try SocloadLockFile.read(path)
        XCTAssertEqual(read.datasets.mapValues { $0.rowCount }, ["a": 1, "b": 200, "c": 3])
        XCTAssertTrue(SocloadLockFile.hasJournal(lock: path))

        try read.write(to: path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal))
        XCTAssertEqual(try SocloadLockFile.read(path), read)
    }

    private func pending(_ table: String, at time: String) -> SocloadLockFile.PendingLoad {
        SocloadLockFile.PendingLoad(table: table, datasetID: nil, source: table + ".json", schema: nil, search: nil, startedAt: time)
    }

    /// Loads noted as begun and never recorded as committed are handed to the reader, each
    /// dataset's first since its last entry (one refresh killed after a COMMIT, the next one
    /// killed before its own: the first load's time is what says whether one committed).
    func testLoadsThatBeganAreSettledFromTheFirstSinceTheLastEntry() throws {
        let path = folder.appendingPathComponent("socload.lock").path
        try SocloadLockFile.journal("a", pending: pending("a", at: "2026-12-04T10:00:01Z"), lock: path)
        try SocloadLockFile.journal("a", entry("a", rows: 10), lock: path)
        try SocloadLockFile.journal("b", pending: pending("b", at: "2026-12-04T10:00:02Z"), lock: path)
        try SocloadLockFile.journal("a", pending: pending("a", at: "2026-12-04T10:00:03Z"), lock: path)
        try SocloadLockFile.journal("a", pending: pending("a", at: "2026-12-04T10:00:09Z"), lock: path)
        try SocloadLockFile.journal("b", entry("b", rows: 20), lock: path)

        var handed: [String: String] = [:]
        let read = try SocloadLockFile.read(path) { name, load in
            handed[name] = load.startedAt
            return name == "a" ? try self.entry("a", rows: 11) : nil
        }
        XCTAssertEqual(handed, ["a": "2026-12-04T10:00:03Z"])
        XCTAssertEqual(read.datasets.mapValues { $0.rowCount }, ["a": 11, "b": 20])
        XCTAssertEqual(try SocloadLockFile.read(path).datasets.mapValues { $0.rowCount }, ["a": 10, "b": 20],
                       "read(_:) keeps the entry before the loads that began")
    }

    func testAJournalThatCannotBeWrittenSaysWhichFile() throws {
        let path = folder.appendingPathComponent("missing/socload.lock").path
        XCTAssertThrowsError(try SocloadLockFile.journal("a", try entry("a", rows: 1), lock: path)) { error in
            XCTAssertEqual("\(error)", "\(path)-journal cannot be written: No such file or directory")
        }
    }
}
