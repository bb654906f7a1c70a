import Foundation
import SocloadCore

/// Records what a `refresh` judged of each dataset's watch in its database (`WatchLog`), one
/// transaction a database once every load is done, so `socload report` shows it from the
/// database alone. A dataset that failed keeps the watch an earlier refresh recorded.
enum WatchLogWriter {
    static func record(_ results: [(name: String, result: DatasetBatch.Result)], fetches: [String: DatasetFetch],
                       context: CommandContext) {
        var byBatch: [ObjectIdentifier: (batch: BatchDatabase, rows: [[String]])] = [:]
        let checkedAt = ISO8601Timestamp.nowToTheSecond()
        for case let (name, .done(outcome)) in results {
            guard let watch = outcome.watch, let batch = fetches[name]?.batch else { continue }
            let key = ObjectIdentifier(batch)
            byBatch[key, default: (batch, [])].rows.append(WatchLog.arguments(table: outcome.table, checkedAt: checkedAt, watch: watch))
        }
        for (batch, rows) in byBatch.values {
            do {
                let log = WatchLog(dialect: try batch.dialect)
                try batch.writing([(log.createStatement, [])] + rows.flatMap { row in
                    [(log.deleteStatement, [row[0]]), (log.insertStatement, row)]
                })
            } catch {
                StandardError.line("Warning: the datasets' watch could not be recorded for socload report: "
                                   + SocloadTool.oneLine(SocloadTool.describe(error).0))
            }
        }
    }
}
