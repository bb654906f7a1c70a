import Foundation
import SocloadCore
import SocloadParquet
import SocloadProject

/// A project entry's `"export": "DIR"`: after a refresh that wrote the table (or when the file is
/// not there yet), the table is written to `DIR/TABLE.parquet` (GeoParquet for a table with a
/// geometry), with its data package, whole or not at all (`ParquetExport`). An export that fails
/// fails its dataset; the table stays as the refresh left it.
enum ProjectExport {
    static func after(_ outcome: DatasetOutcome, of dataset: Project.Dataset, fetch: DatasetFetch,
                      context: CommandContext) throws -> DatasetOutcome {
        guard let folder = dataset.export, outcome.status != "kept", outcome.status != "planned" else { return outcome }
        let path = (folder as NSString).appendingPathComponent(outcome.table + ".parquet")
        guard outcome.wroteTable || !FileManager.default.fileExists(atPath: path) else { return outcome }
        let loaded = try fetch.database.openLoaded(context, command: RefreshCommand.spec)
        let summary = try ParquetExport(database: loaded, table: outcome.table, qualifiedTable: loaded.sqlDialect.table(outcome.table))
            .write(to: path)
        for note in summary.notes { StandardError.line("Warning: " + SocloadTool.oneLine("\(outcome.table): \(note)")) }
        var exported = outcome
        exported.exported = path
        exported.result += "; exported to \(path)"
        return exported
    }
}
