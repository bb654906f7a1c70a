import SocloadCore
import SocloadEngine
import XCTest

/// Syncs laid over a base by key, the way they changed the table: a later row replaces an
/// earlier one of its key, a listing (a sync with deletes) keeps only the keys it names, and a
/// key deleted by one sync and written again by a later one comes back.
final class KeyedReplayTests: XCTestCase {
    /// Rows of (key, value) text.
    private func batch(_ rows: [(String, String)]) -> RowBatch {
        var batch = RowBatch(columnCount: 2, firstRowNumber: 1, expectedRows: rows.count)
        for (key, value) in rows {
            batch.appendText(key)
            batch.appendText(value)
        }
        return batch
    }

    private func keys(_ keys: [String]) -> RowBatch {
        var batch = RowBatch(columnCount: 1, firstRowNumber: 1, expectedRows: keys.count)
        for key in keys { batch.appendText(key) }
        return batch
    }

    private func texts(_ batch: RowBatch?) -> [String] {
        guard let batch else { return [] }
        return (0..<batch.rowCount).map { batch.row($0).map { $0.description.filter { $0 != "\"" } }.joined(separator: "=") }
    }

    func testLaterRowsReplaceEarlierOnesAndListingsKeepOnlyTheKeysTheyName() {
        let replay = KeyedReplay(keyColumns: [0])
        replay.upsert(batch([("b", "b1"), ("e", "e1")]), stage: 1)
        replay.beginListing(stage: 1)
        replay.list(keys(["a", "b", "e"]), stage: 1)   // c and d deleted by sync 1
        replay.upsert(batch([("c", "c2"), ("b", "b2")]), stage: 2)   // c comes back, b changes again
        replay.upsert(batch([("f", "f3")]), stage: 3)
        replay.beginListing(stage: 3)
        replay.list(keys(["a", "b", "c", "f"]), stage: 3)   // e deleted by sync 3

        let base = replay.baseRows(of: batch([("a", "a0"), ("b", "b0"), ("c", "c0"), ("d", "d0")]))
        XCTAssertEqual(texts(base), ["a=a0"], "b and c written again, d not listed")
        XCTAssertEqual(replay.leftOut, 3)
        XCTAssertEqual(texts(replay.replayedRows()), ["c=c2", "b=b2", "f=f3"], "each key's latest, in the order they came; e deleted")
    }

    func testAListingOfNoKeysLeavesNoRowWrittenBeforeIt() {
        let replay = KeyedReplay(keyColumns: [0])
        replay.upsert(batch([("x", "x1")]), stage: 1)
        replay.beginListing(stage: 2)
        XCTAssertEqual(replay.baseRows(of: batch([("a", "a0")])).rowCount, 0)
        XCTAssertEqual(replay.replayedRows()?.rowCount, 0)
    }
}
