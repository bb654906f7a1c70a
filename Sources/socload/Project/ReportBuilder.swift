import Foundation
import SocloadCore
import SocloadProject
import SocloadSocrata

/// The facts of `socload report`, from a database alone: its catalog's entries, each table's
/// refresh and schema change logs, its verification, and the watch the last refresh recorded
/// (`WatchLog`); with a project, each table is named as its entry is and judged by its
/// `"expect"` when no refresh recorded a watch.
struct ReportBuilder {
    let database: any LoadedDatabase
    let project: Project?
    let keep: Int

    func report(title: String, names: [String]) throws -> MirrorReport {
        var entries = try database.catalogEntries().sorted { $0.tableName.lowercased() < $1.tableName.lowercased() }
        let recorded = try recordedWatches()
        let datasets = project?.datasets ?? []
        func dataset(of entry: CatalogEntry) -> Project.Dataset? {
            datasets.first { dataset in
                dataset.spec.tableName?.lowercased() == entry.tableName.lowercased()
                    || dataset.aliases.contains { $0 == entry.datasetID || $0.lowercased() == entry.tableName.lowercased() }
            }
        }
        if !names.isEmpty {
            let unknown = names.filter { name in
                !entries.contains { $0.tableName == name || $0.datasetID == name || dataset(of: $0)?.isCalled(name) == true }
            }
            if let first = unknown.first { throw CommandFailure.notInCatalog(first, in: database.place) }
            entries = entries.filter { entry in
                names.contains { $0 == entry.tableName || $0 == entry.datasetID || dataset(of: entry)?.isCalled($0) == true }
            }
        }
        var report = MirrorReport(title: title, generatedAt: ISO8601Timestamp.nowToTheSecond(), database: Self.name(of: database))
        for entry in entries {
            let entryDataset = dataset(of: entry)
            let watches = recorded[entry.tableName.lowercased()] ?? []
            var built = MirrorReport.Dataset.build(
                entry: entry, name: entryDataset?.name, refreshes: try database.refreshes(of: entry.tableName),
                schemaChanges: try database.schemaChanges(of: entry.tableName), verification: try? database.verify(entry.tableName),
                recorded: watches.last, expected: entryDataset?.expected, keep: keep)
            built.earlierWatches = watches.dropLast().map { .init(checkedAt: $0.checkedAt, watch: $0.watch) }
            report.datasets.append(built)
        }
        return report
    }

    /// The database as the report names it: a SQLite file's path, or PostgreSQL's URL (without
    /// its password) and schema, without the quotes messages put around a path.
    static func name(of database: any LoadedDatabase) -> String {
        let place = database.place
        return place.count > 1 && place.hasPrefix("'") && place.hasSuffix("'") ? String(place.dropFirst().dropLast()) : place
    }

    /// The watches each table's refreshes recorded, the current one last, by lowercased table name.
    private func recordedWatches() throws -> [String: [(checkedAt: String, watch: DatasetWatch)]] {
        WatchLog.byTable(try database.recordedWatchRows())
    }
}
