import Foundation
import SocloadCore
import SocloadEngine
import Synchronization
import XCTest

/// The one pipeline every load runs its source in, on the engine alone (no HTTP, no database):
/// events arrive in order, a load that stops listening stops its source, a failure on either
/// side reaches the load's thread, and a signal ends the run.
final class RowPipelineTests: XCTestCase {
    final class SentCount: Sendable {
        private let count = Atomic(0)
        var value: Int { count.load(ordering: .relaxed) }
        func increment() { count.add(1, ordering: .relaxed) }
    }

    /// Counts `rows` rows of one text column, `perBatch` to a batch, after a description.
    struct CountingSource: RowSource {
        let rows: Int
        let perBatch: Int
        typealias Description = String
        /// How many batches the source managed to send (the load may stop listening first).
        let sent: SentCount
        var failAfter: Int?

        struct Failure: Error, Equatable {}

        func produce(into output: RowSourceOutput<Self>) throws -> Int {
            try output.describe("\(rows) rows")
            var batch = RowBatch(columnCount: 1, firstRowNumber: 1, expectedRows: perBatch)
            for number in 1...max(rows, 1) where rows > 0 {
                try output.cancellation.check()
                batch.appendText("row \(number)")
                if batch.rowCount == perBatch || number == rows {
                    if let failAfter, sent.value == failAfter { throw Failure() }
                    try output.send(batch, bytesRead: Int64(number))
                    sent.increment()
                    batch = RowBatch(columnCount: 1, firstRowNumber: number + 1, expectedRows: perBatch)
                }
            }
            return rows
        }
    }

    func testEventsArriveInOrderAndTheEndingCloses() throws {
        let sent = SentCount()
        var seen: [String] = []
        var texts: [String] = []
        let total = try RowPipeline(cancellation: nil).run(CountingSource(rows: 2_500, perBatch: 1_000, sent: sent)) { event -> Int? in
            switch event {
            case .described(let description):
                seen.append("described \(description)")
            case let .batch(table, batch, bytesRead, _):
                seen.append("batch \(table) \(batch.rowCount) \(bytesRead)")
                texts += (0..<batch.rowCount).map { "\(batch.row($0)[0])" }
            case .end(let rows):
                seen.append("end \(rows)")
                return rows
            }
            return nil
        }
        XCTAssertEqual(total, 2_500)
        XCTAssertEqual(seen, ["described 2500 rows", "batch 0 1000 1000", "batch 0 1000 2000", "batch 0 500 2500", "end 2500"])
        XCTAssertEqual(texts.count, 2_500)
        XCTAssertTrue(texts.last?.contains("row 2500") ?? false, texts.last ?? "")
    }

    /// A load that has what it wants (a file unchanged since its last load) returns early: the
    /// source, blocked on a full channel, stops, and `run` returns only once its thread has ended.
    func testALoadThatReturnsEarlyStopsItsSource() throws {
        let sent = SentCount()
        let source = CountingSource(rows: 1_000_000, perBatch: 10, sent: sent)
        let answer = try RowPipeline(cancellation: nil).run(source) { event -> String? in
            if case .batch = event { return "enough" }
            return nil
        }
        XCTAssertEqual(answer, "enough")
        let afterReturn = sent.value
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(sent.value, afterReturn, "the source kept sending after the load returned")
        XCTAssertLessThan(afterReturn, 10, "the channel holds a few batches, not the input")
    }

    func testAFailureOfTheSourceReachesTheLoad() {
        var batches = 0
        var source = CountingSource(rows: 100, perBatch: 10, sent: SentCount())
        source.failAfter = 3
        XCTAssertThrowsError(try RowPipeline(cancellation: nil).run(source) { event -> Int? in
            if case .batch = event { batches += 1 }
            return nil
        }) { error in
            XCTAssertEqual(error as? CountingSource.Failure, CountingSource.Failure())
        }
        XCTAssertEqual(batches, 3)
    }

    /// A failure of the load (an insert that failed) stops the source.
    func testAFailureOfTheLoadStopsTheSource() {
        struct InsertFailed: Error {}
        let sent = SentCount()
        XCTAssertThrowsError(try RowPipeline(cancellation: nil).run(CountingSource(rows: 1_000_000, perBatch: 10, sent: sent)) {
            event -> Int? in
            if case .batch = event { throw InsertFailed() }
            return nil
        }) { error in XCTAssertTrue(error is InsertFailed) }
        let afterFailure = sent.value
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(sent.value, afterFailure)
    }

    /// A signal while the load waits for the source ends the run with `interrupted`.
    func testASignalEndsTheRun() {
        struct SlowSource: RowSource {
            func produce(into output: RowSourceOutput<Self>) throws -> Int {
                while true {
                    try output.cancellation.check()
                    Thread.sleep(forTimeInterval: 0.01)
                }
            }
        }
        let cancellation = LoadCancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { cancellation.cancel(signal: 2) }
        let start = Date()
        XCTAssertThrowsError(try RowPipeline(cancellation: cancellation).run(SlowSource()) { _ -> Int? in nil }) { error in
            XCTAssertEqual("\(error)", "\(LoadError.interrupted(signal: 2))")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }
}
