import Foundation
import SocloadCore
import SocloadSocrata

/// `--json`: one JSON object a dataset on standard output, a line each, for a pipeline to act
/// on with jq: `{"dataset":"n5m4-mism","status":"loaded","table":"n5m4_mism","rows":300,...}`.
///
/// `status` is `loaded`, `up_to_date`, `synced`, `planned` or `failed`; the counts of added,
/// changed, removed and unchanged rows are there when the load compared with the copy it
/// replaced; `error` and `exit_code` when it failed. Keys that do not apply are left out.
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
    var warnings: [String]?
    var schemaChanges: [String]?
    var seconds: Double?
    var error: String?
    var exitCode: Int32?

    enum CodingKeys: String, CodingKey {
        case dataset, status, table, rows, columns, added, changed, removed, unchanged, warnings, seconds, error
        case invalidCells = "invalid_cells", schemaChanges = "schema_changes", exitCode = "exit_code"
    }

    init(dataset: String, outcome: DatasetOutcome) {
        self.dataset = dataset
        status = outcome.status
        table = outcome.table
        guard let summary = outcome.summary else { return }
        rows = summary.rowCount
        if outcome.wroteTable {
            columns = summary.columnCount
            seconds = (summary.elapsed * 1000).rounded() / 1000
            invalidCells = Dictionary(summary.invalidCells.map { ($0.column, $0.count) }, uniquingKeysWith: +)
            warnings = summary.notes
            schemaChanges = summary.schemaChanges.map(\.line)
        }
        if let changes = summary.rowChanges {
            (added, changed, removed, unchanged) = (changes.added, changes.changed, changes.removed, changes.unchanged)
        }
    }

    init(dataset: String, error message: String, exitCode: ExitCode) {
        self.dataset = dataset
        status = "failed"
        error = message
        self.exitCode = exitCode.rawValue
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
