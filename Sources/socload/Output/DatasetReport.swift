import Foundation
import SocloadCore
import SocloadSocrata

/// `--json`: one JSON object a dataset on standard output, a line each, for a pipeline to act
/// on with jq: `{"dataset":"n5m4-mism","status":"loaded","table":"n5m4_mism","rows":300,...}`.
///
/// `status` is `loaded`, `up_to_date`, `synced`, `appended`, `upserted`, `extracted`, `planned`,
/// `kept` (`refresh` of a dataset the portal no longer has: its table kept, `watch` `gone` or
/// `moved`) or `failed` (an append or upsert also says its `records`, and of them the rows `inserted` and
/// `updated`); the counts
/// of added, changed, removed and unchanged rows are there when the load compared with the copy
/// it replaced (a sync: as its rows' fingerprints tell, as the "Refreshed" line does; without
/// fingerprints, added and changed are the rows it inserted and updated, removed those
/// `--deletes` deleted); `error` and `exit_code` when it failed. Keys that do not apply are left out.
struct DatasetReport: Encodable, Equatable {
    var dataset: String
    var status: String
    var table: String?
    var rows: Int?
    var columns: Int?
    var added: Int?
    var changed: Int?
    var removed: Int?
    var unchanged: Int?
    var invalidCells: [String: Int]?
    /// Per column, the numbers stored rounded (more digits than SQLite keeps).
    var roundedCells: [String: Int]?
    var warnings: [String]?
    var schemaChanges: [String]?
    var childTables: [String: Int]?
    /// `load --mode append|upsert`: the records written, and of them the new and updated rows.
    var records: Int?
    var inserted: Int?
    var updated: Int?
    /// `extract`: the lookup table made, and the column the table has in place of the values.
    var lookup: String?
    var foreignKey: String?
    var seconds: Double?
    /// The API a load from a portal read through (`SODA3`, `SODA 2.1`, `rows.json`).
    var api: String?
    var error: String?
    var exitCode: Int32?
    /// `refresh`: whether the dataset keeps its schedule (`fresh`, `stale`, `gone`, `moved`,
    /// `unknown`), the interval it is expected to change by and where it came from, why, and
    /// for `moved` the ids the catalog lists under its name and publisher.
    var watch: String?
    var expect: String?
    var watchNote: String?
    var movedTo: [String]?
    /// `refresh` with an entry's `"export"`: the Parquet file the table was written to.
    var exported: String?

    enum CodingKeys: String, CodingKey {
        case dataset, status, table, rows, columns, added, changed, removed, unchanged, warnings, seconds, error, api
        case invalidCells = "invalid_cells", roundedCells = "rounded_cells", schemaChanges = "schema_changes", exitCode = "exit_code", lookup
        case childTables = "child_tables", foreignKey = "foreign_key", records, inserted, updated
        case watch, expect, watchNote = "watch_note", movedTo = "moved_to", exported
    }

    init(dataset: String, outcome: DatasetOutcome) {
        if let sync = outcome.sync {
            self.init(dataset: dataset, sync: sync)
            add(outcome.watch)
            exported = outcome.exported
            return
        }
        self.init(dataset: dataset, status: outcome.status)
        table = outcome.table
        add(outcome.watch)
        exported = outcome.exported
        guard let summary = outcome.summary else {
            if outcome.status == "kept", let kept = outcome.keptRows { rows = kept }
            return
        }
        rows = summary.rowCount
        if outcome.wroteTable {
            columns = summary.columnCount
            seconds = (summary.elapsed * 1000).rounded() / 1000
            (invalidCells, roundedCells) = Self.cellCounts(summary.invalidCells)
            warnings = summary.notes
            api = summary.readThrough
            schemaChanges = summary.schemaChanges.map(\.line)
            if !summary.childTables.isEmpty {
                childTables = Dictionary(summary.childTables.map { ($0.tableName, $0.rowCount) }, uniquingKeysWith: +)
            }
        }
        if let changes = summary.rowChanges {
            (added, changed, removed, unchanged) = (changes.added, changes.changed, changes.removed, changes.unchanged)
        }
        if let merged = summary.merged {
            status = merged.mode == .upsert ? "upserted" : "appended"
            (records, inserted, updated) = (merged.records, merged.inserted, merged.updated)
        }
    }

    private mutating func add(_ watch: DatasetWatch?) {
        guard let watch else { return }
        self.watch = watch.state.rawValue
        expect = watch.expected?.text
        watchNote = watch.note
        movedTo = watch.movedTo.isEmpty ? nil : watch.movedTo
    }

    init(dataset: String, status: String) {
        self.dataset = dataset
        self.status = status
    }

    init(dataset: String, sync summary: SyncSummary) {
        self.init(dataset: dataset, status: "synced")
        table = summary.tableName
        rows = summary.rowCount
        seconds = (summary.elapsed * 1000).rounded() / 1000
        (added, changed, removed) = (summary.inserted, summary.updated, summary.deleted)
        // By their fingerprints when kept, as the "Refreshed" line says: a row sent again as it
        // was is unchanged, not changed.
        if let changes = summary.rowChanges {
            (added, changed, removed, unchanged) = (changes.added, changes.changed, changes.removed, changes.unchanged)
        }
        (invalidCells, roundedCells) = Self.cellCounts(summary.invalidCells)
        schemaChanges = summary.schemaChanges.map { "\($0.table): \($0.evolvedLine)" }
        if !summary.notes.isEmpty { warnings = summary.notes }
    }

    /// Per column, the cells stored as NULL and those stored rounded (nil: none).
    private static func cellCounts(_ cells: [InvalidCells]) -> (invalid: [String: Int], rounded: [String: Int]?) {
        let rounded = Dictionary(cells.filter(\.areRounded).map { ($0.column, $0.count) }, uniquingKeysWith: +)
        return (Dictionary(cells.filter { !$0.areRounded }.map { ($0.column, $0.count) }, uniquingKeysWith: +),
                rounded.isEmpty ? nil : rounded)
    }

    init(dataset: String, extract summary: ExtractSummary) {
        self.init(dataset: dataset, status: "extracted")
        table = summary.tableName
        lookup = summary.lookup.table
        foreignKey = summary.lookup.foreignKey
        warnings = summary.notes
    }

    init(dataset: String, error message: String, exitCode: ExitCode) {
        self.init(dataset: dataset, status: "failed")
        error = message
        self.exitCode = exitCode.rawValue
    }

    /// `body`'s report on standard output with `--json`, or its failure's (rethrown).
    static func reporting<T>(_ json: Bool, dataset: String, _ context: CommandContext, _ body: () throws -> T,
                             report: (T) -> DatasetReport) throws {
        do {
            let result = try body()
            if json { printer(true, context)?(report(result)) }
        } catch {
            if json {
                let (message, code) = DatasetBatch.describe(error)
                printer(true, context)?(DatasetReport(dataset: dataset, error: message, exitCode: code))
            }
            throw error
        }
    }

    /// `--json`: each report a line on standard output, flushed as it comes (nil without it).
    static func printer(_ json: Bool, _ context: CommandContext) -> ((DatasetReport) -> Void)? {
        guard json else { return nil }
        return { report in
            context.output.write(report.line + "\n")
            context.output.flush()
        }
    }

    /// The object as one line of compact JSON, keys in a fixed order (sorted).
    var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return CredentialRedaction.text(String(decoding: data, as: UTF8.self))
    }
}
