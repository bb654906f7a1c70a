import Foundation
import SocloadCore

/// Records what a `refresh` judged of each dataset's watch in its database (`WatchLog`), one
/// transaction a database once every load is done, so `socload report` shows it from the
/// database alone. A dataset that failed keeps the watch an earlier refresh recorded, and one
/// judged as it was recorded keeps its row (and its time: since when it is so).
enum WatchLogWriter {
    static func record(_ results: [(name: String, result: DatasetBatch.Result)], fetches: [String: DatasetFetch],
                       context: CommandContext) {
        var byBatch: [ObjectIdentifier: (batch: BatchDatabase, rows: [[String]])] = [:]
        let checkedAt = ISO8601Timestamp.nowToTheSecond()
        for case let (name, .done(outcome)) in results {
            guard let watch = outcome.watch, let batch = fetches[name]?.batch else { continue }
            let row = WatchLog.arguments(table: outcome.table, checkedAt: checkedAt, watch: watch)
            // A watch as it was recorded stays as it is, with the time it was first judged so: a
            // refresh that changed nothing writes nothing.
            if let recorded = batch.recordedWatch(of: outcome.table), recorded.count == row.count,
               Array(recorded.dropFirst(2)) == Array(row.dropFirst(2)), recorded[0] == row[0] { continue }
            byBatch[ObjectIdentifier(batch), default: (batch, [])].rows.append(row)
        }
        for (batch, rows) in byBatch.values {
            do {
                let log = WatchLog(dialect: try batch.dialect)
                try batch.writing([(log.createStatement, [])] + rows.flatMap { row in log.recording(row).map { ($0.sql, $0.arguments) } })
            } catch {
                StandardError.line("Warning: the datasets' watch could not be recorded for socload report: "
                                   + SocloadTool.oneLine(SocloadTool.describe(error).0))
            }
        }
    }
}
