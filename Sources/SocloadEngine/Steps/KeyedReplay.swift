import SocloadCore

/// Later rows laid over a table's rows by key, the way the syncs that followed a load changed
/// it: restoring a version the download cache keeps as a base plus syncs (`refresh --locked`).
/// Each sync (a stage, from 1; the base is stage 0) upserted its rows, then, with deletes,
/// kept only the keys the portal listed. A row survives when its key is in every listing from
/// the stage that last wrote it on; a base row is left out when a sync wrote its key again.
package final class KeyedReplay {
    /// The key's places among a batch's columns.
    package let keyColumns: [Int]
    private var rows: RowBatch?
    /// Each key's latest row in `rows` and the stage that wrote it.
    private var latest: [[CellValue]: (row: Int, stage: Int)] = [:]
    private var listings: [(stage: Int, keys: Set<[CellValue]>)] = []
    /// Base rows left out: written again by a sync, or not listed by one.
    package private(set) var leftOut = 0

    package init(keyColumns: [Int]) {
        self.keyColumns = keyColumns
    }

    private func key(of batch: RowBatch, row: Int, columns: [Int]) -> [CellValue] {
        columns.map { batch.cell(row: row, column: $0) }
    }

    /// The rows stage `stage` upserted, in the order they came.
    package func upsert(_ batch: RowBatch, stage: Int) {
        let shift = rows?.rowCount ?? 0
        for row in 0..<batch.rowCount { latest[key(of: batch, row: row, columns: keyColumns)] = (shift + row, stage) }
        if rows == nil { rows = batch } else { rows!.append(batch) }
    }

    /// Stage `stage` listed the keys the portal had, and kept only those (`list` gives them).
    package func beginListing(stage: Int) {
        listings.append((stage, []))
    }

    /// Keys stage `stage` found listed (a batch of the key's columns alone, in the key's order).
    package func list(_ keys: RowBatch, stage: Int) {
        if listings.last?.stage != stage { beginListing(stage: stage) }
        let columns = Array(0..<keys.columnCount)
        for row in 0..<keys.rowCount { listings[listings.count - 1].keys.insert(key(of: keys, row: row, columns: columns)) }
    }

    private func survives(_ key: [CellValue], writtenAt stage: Int) -> Bool {
        listings.allSatisfy { $0.stage < stage || $0.keys.contains(key) }
    }

    /// The base rows of `batch` that stay (stage 0).
    package func baseRows(of batch: RowBatch) -> RowBatch {
        var kept: [Int] = []
        for row in 0..<batch.rowCount {
            let key = key(of: batch, row: row, columns: keyColumns)
            if latest[key] == nil, survives(key, writtenAt: 0) { kept.append(row) } else { leftOut += 1 }
        }
        return kept.count == batch.rowCount ? batch : batch.selecting(rows: kept)
    }

    /// The syncs' rows that stay: each key's latest, in the order they came.
    package func replayedRows() -> RowBatch? {
        guard let rows else { return nil }
        let kept = latest.filter { survives($0.key, writtenAt: $0.value.stage) }.map(\.value.row).sorted()
        return rows.selecting(rows: kept)
    }
}

/// A table writer that lays a `KeyedReplay` over the rows it is given: base rows go through
/// `baseRows(of:)`, and the syncs' rows are written last, before the table is finished.
package final class ReplayingTableWriter: TableWriter {
    package let base: any TableWriter
    package let replay: KeyedReplay
    /// The syncs' rows written at the end.
    package private(set) var replayed = 0

    package init(base: any TableWriter, replay: KeyedReplay) {
        (self.base, self.replay) = (base, replay)
    }

    package func insert(_ batch: RowBatch) throws {
        let kept = replay.baseRows(of: batch)
        if kept.rowCount > 0 { try base.insert(kept) }
    }

    package func finish(strict: Bool) throws -> [String] {
        if let rows = replay.replayedRows(), rows.rowCount > 0 {
            try base.insert(rows)
            replayed = rows.rowCount
        }
        return try base.finish(strict: strict)
    }
}
