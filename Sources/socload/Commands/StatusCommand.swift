import SocloadCore
import SocloadProject
import SocloadSocrata

/// `socload status [NAME...]`: what a refresh of the project would do, from metadata alone.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Say what a refresh of the project (socload.json) would do, without loading.",
        discussion: """
            For each dataset of the project: whether it is missing from the database, whether the
            portal changed its rows since the last load (its rowsUpdatedAt against the one
            recorded), and whether the plan a load would make now has other columns, types or key
            than the table has. Only metadata is read (a file's first bytes, a portal's
            description); nothing is written. A dataset whose metadata cannot be read is listed
            as failed, and the exit code is the largest of those failures'.
            The watch column says whether the dataset keeps its schedule: fresh, stale (the portal
            last changed its rows longer ago than 1.5 times the expected interval plus a day), gone
            (loaded before, the portal now answers 404 or 410: the table is kept), moved (gone, and
            the catalog lists the same name and publisher under another id: a suggestion, never
            followed) or unknown. The expected interval (the expect column) is the entry's
            "expect", else what the portal states, else the usual gap between the portal's updates
            in the refresh log (after four of them). --fail-on stale,gone,moved,changed exits 1
            when it finds one of them (failures keep their own codes).
            """)

    @Arguments(name: "name", help: "Only these datasets: their \"name\", table, or id, URL or file in the project.", minimum: 0)
    var names: [String]
    @Option(valueName: "file", help: "The project file.", default: "socload.json in the current directory") var project: String?
    @Option(valueName: "list", help: "Exit 1 when a dataset is one of these: stale, gone, moved, changed (comma-separated).")
    var failOn: String?
    @OptionGroup var output = FormatOptions()

    func validate() throws {
        _ = try WatchFindings(failOn, command: Self.spec)
    }

    func run(context: CommandContext) throws {
        let file = try Project.load(project ?? "socload.json")
        let lock = try SocloadLockFile.read(SocloadLockFile.path(forProject: file.path))
        let expansion = try ProjectSelection.of(file, names: names, lock: lock, fromLock: false, context: context, command: Self.spec)
        let chosen = expansion.datasets
        var database: (any LoadedDatabase)?
        if let first = chosen.first {
            database = try? DatasetFetch(project: file, dataset: first, context: context).database.openLoaded(context, command: FetchCommand.spec)
        }
        let writer = output.writer(context)
        writer.begin(columns: Self.columns)
        var failures: [(String, ExitCode)] = []
        var found: [(dataset: String, findings: [WatchFindings.Finding])] = []
        let findings = try WatchFindings(failOn, command: Self.spec)
        let watcher = DatasetWatcher(context: context)
        for dataset in chosen {
            do {
                let row = try status(of: dataset, project: file, database: database, watcher: watcher, context: context)
                writer.write([.text(dataset.name)] + row.values)
                found.append((dataset.name, findings.found(watch: row.watch, changed: row.changed)))
            } catch {
                let (message, code) = DatasetBatch.describe(error)
                failures.append((dataset.name, code))
                // A table loaded before is named, with its rows, though its metadata failed.
                let id = (try? DatasetFetch(project: file, dataset: dataset, context: context).request(context: context))?.reference.datasetID
                let entry = database.flatMap { database in
                    try? DatasetWatcher.loadedEntry(of: dataset, datasetID: id, lookup: { try database.entry(for: $0, withDescription: false) })
                }
                writer.write(Self.row(dataset.name, table: entry?.tableName, rows: entry?.rowCount, state: "failed",
                                      note: SocloadTool.oneLine(message)))
            }
        }
        for (name, error) in expansion.failedSearches {
            let (message, code) = DatasetBatch.describe(error)
            failures.append((name, code))
            writer.write(Self.row(name, state: "failed", note: SocloadTool.oneLine(message)))
        }
        for gone in expansion.left {
            writer.write(Self.row(gone.name, table: gone.table, state: "left_catalog", note: "no longer listed by search '\(gone.search)'"))
        }
        writer.finish()
        context.output.flush()
        if let worst = failures.map(\.1).max(by: { $0.rawValue < $1.rawValue }) {
            throw CommandFailure("the metadata of \(failures.count) of \(chosen.count) datasets could not be read: "
                                 + failures.map(\.0).shortList(), exitCode: worst)
        }
        try findings.check(found)
    }

    static let columns = ["dataset", "table", "state", "watch", "schema", "rows", "local_rows_updated_at", "portal_rows_updated_at",
                          "expect", "note"]

    /// A row of only a name, a state and a note (a failure, a dataset a search no longer lists).
    private static func row(_ name: String, table: String? = nil, rows: Int? = nil, state: String, note: String) -> [DatabaseValue] {
        [.text(name), table.map(DatabaseValue.text) ?? .null, .text(state), .null, .null, rows.map { .integer(Int64($0)) } ?? .null,
         .null, .null, .null, .text(note)]
    }

    /// One dataset's row after its name, its watch, and whether the portal changed it.
    struct Row {
        var values: [DatabaseValue]
        var watch: DatasetWatch.State?
        var changed: Bool
    }

    /// `table, state, watch, schema, rows, local stamp, portal stamp, expect, note` for one dataset.
    private func status(of dataset: Project.Dataset, project: Project, database: (any LoadedDatabase)?,
                        watcher: DatasetWatcher, context: CommandContext) throws -> Row {
        let fetch = try DatasetFetch(project: project, dataset: dataset, context: context)
        let platform = try fetch.platformRequest()
        let request = platform == nil ? try fetch.request(context: context) : nil
        let planned: DatasetLoader.PlannedLoad
        do {
            planned = try fetch.plannedLoad(context: context).planned
        } catch {
            // Loaded before and now 404 or 410: gone (or moved), its table kept; never loaded: a failure.
            guard let answer = DatasetWatcher.goneAnswer(in: error), let database,
                  let entry = try DatasetWatcher.loadedEntry(of: dataset, datasetID: request?.reference.datasetID,
                                                             lookup: { try database.entry(for: $0, withDescription: false) })
            else { throw error }
            let watch = watcher.gone(dataset, answer: answer, entry: entry,
                                     stamps: { ((try? database.refreshes(of: entry.tableName)) ?? []).compactMap(\.rowsUpdatedAt) })
            return Row(values: [.text(entry.tableName), .text("unknown"), .text(watch.state.rawValue), .null, .integer(Int64(entry.rowCount)),
                                Self.text(entry.rowsUpdatedAt), .null, Self.text(watch.expected?.text), Self.text(watch.note)],
                       watch: watch.state, changed: false)
        }
        let (plan, portalStamp, portalColumns) = (planned.plan, planned.rowsUpdatedAt, planned.columns)
        let table = plan.mainTable.name
        guard let entry = try database?.entry(for: table, withDescription: false), entry.tableName == table else {
            let watch = watcher.watch(dataset, portalStamp: portalStamp, stated: planned.dictionary?.updateFrequency, stamps: { [] })
            return Row(values: [.text(table), .text("missing"), .text(watch.state.rawValue), .text("new"), .null, .null, Self.text(portalStamp),
                                Self.text(watch.expected?.text), Self.text((["not loaded yet"] + [watch.note].compactMap { $0 }).joined(separator: "; "))],
                       watch: watch.state, changed: true)
        }
        let state: String
        var notes: [String] = []
        if case .file(let path)? = request?.reference.location {
            // A file's size, time and checksum at its last load are kept (`FileSignature`).
            state = try FileSignature.unchanged(path, since: entry.etag) ? "unchanged" : "changed"
            if state == "changed" { notes.append("the file's size, time or bytes are not those of its last load") }
        } else if let portalStamp, let local = entry.rowsUpdatedAt {
            state = portalStamp == local ? "unchanged" : "changed"
        } else {
            state = "unknown"
            // (Without a stamp the watch says so too: this note says what a refresh does.)
            notes.append(portalStamp == nil ? "a refresh reloads it"
                         : "the table's last load recorded no time of change (the source stated none then): a refresh reloads it")
        }
        let schema: String
        if let loaded = entry.plan {
            // The same comparison a load makes before --on-schema-change decides.
            let changes = plan.schemaChanges(from: loaded, previousColumns: entry.columns, columns: portalColumns)
            schema = changes.isEmpty ? "same" : "changed"
            notes += changes.map(\.line)
        } else {
            schema = "unknown"
        }
        let watch = watcher.watch(dataset, portalStamp: portalStamp ?? entry.rowsUpdatedAt,
                                  stated: planned.dictionary?.updateFrequency ?? entry.dictionary?.updateFrequency,
                                  stamps: { ((try? database?.refreshes(of: table)) ?? []).compactMap(\.rowsUpdatedAt) })
        notes += [watch.note].compactMap { $0 }
        return Row(values: [.text(table), .text(state), .text(watch.state.rawValue), .text(schema), .integer(Int64(entry.rowCount)),
                            Self.text(entry.rowsUpdatedAt), Self.text(portalStamp), Self.text(watch.expected?.text),
                            Self.text(notes.isEmpty ? nil : notes.joined(separator: "; "))],
                   watch: watch.state, changed: state == "changed" || schema == "changed")
    }

    private static func text(_ value: String?) -> DatabaseValue { value.map(DatabaseValue.text) ?? .null }

}
