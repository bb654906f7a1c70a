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
            """)

    @Arguments(name: "name", help: "Only these datasets: their \"name\", table, or id, URL or file in the project.", minimum: 0)
    var names: [String]
    @Option(valueName: "file", help: "The project file.", default: "socload.json in the current directory") var project: String?
    @OptionGroup var output = FormatOptions()

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
        writer.begin(columns: ["dataset", "table", "state", "schema", "rows", "local_rows_updated_at", "portal_rows_updated_at", "note"])
        var failures: [(String, ExitCode)] = []
        for dataset in chosen {
            do {
                let row = try status(of: dataset, project: file, database: database, context: context)
                writer.write([.text(dataset.name)] + row)
            } catch {
                let (message, code) = DatasetBatch.describe(error)
                failures.append((dataset.name, code))
                writer.write([.text(dataset.name), .null, .text("failed"), .null, .null, .null, .null,
                              .text(SocloadTool.oneLine(message))])
            }
        }
        for (name, error) in expansion.failedSearches {
            let (message, code) = DatasetBatch.describe(error)
            failures.append((name, code))
            writer.write([.text(name), .null, .text("failed"), .null, .null, .null, .null, .text(SocloadTool.oneLine(message))])
        }
        for gone in expansion.left {
            writer.write([.text(gone.name), .text(gone.table), .text("left_catalog"), .null, .null, .null, .null,
                          .text("no longer listed by search '\(gone.search)'")])
        }
        writer.finish()
        context.output.flush()
        guard let worst = failures.map(\.1).max(by: { $0.rawValue < $1.rawValue }) else { return }
        throw CommandFailure("the metadata of \(failures.count) of \(chosen.count) datasets could not be read: "
                             + failures.map(\.0).shortList(), exitCode: worst)
    }

    /// `table, state, schema, rows, local stamp, portal stamp, note` for one dataset.
    private func status(of dataset: Project.Dataset, project: Project, database: (any LoadedDatabase)?,
                        context: CommandContext) throws -> [DatabaseValue] {
        let fetch = try DatasetFetch(project: project, dataset: dataset, context: context)
        let request = try fetch.request(context: context)
        let (plan, portalStamp, portalColumns, _) = try DatasetLoader.planAndStamp(
            for: request, http: try LoadSetup.httpOptions(appToken: fetch.network.appToken, context),
            retry: LoadSetup.retryPolicy(retries: fetch.network.retries, context), onRetry: LoadSetup.retryNotices(quiet: fetch.quiet),
            describedFirst: true)
        let table = plan.mainTable.name
        let text = { (value: String?) -> DatabaseValue in value.map(DatabaseValue.text) ?? .null }
        guard let entry = try database?.entry(for: table, withDescription: false), entry.tableName == table else {
            return [.text(table), .text("missing"), .text("new"), .null, .null, text(portalStamp), .text("not loaded yet")]
        }
        let state: String
        var note: String?
        if case .file(let path) = request.reference.location {
            // A file's size, time and checksum at its last load are kept (`FileSignature`).
            state = try FileSignature.unchanged(path, since: entry.etag) ? "unchanged" : "changed"
            if state == "changed" { note = "the file's size, time or bytes are not those of its last load" }
        } else if let portalStamp, let local = entry.rowsUpdatedAt {
            state = portalStamp == local ? "unchanged" : "changed"
        } else {
            state = "unknown"
            note = "the source states no rowsUpdatedAt: a refresh reloads it"
        }
        let schema: String
        if let loaded = entry.plan {
            // The same comparison a load makes before --on-schema-change decides.
            let changes = plan.schemaChanges(from: loaded, previousColumns: entry.columns, columns: portalColumns)
            schema = changes.isEmpty ? "same" : "changed"
            if !changes.isEmpty { note = ([note].compactMap { $0 } + changes.map(\.line)).joined(separator: "; ") }
        } else {
            schema = "unknown"
        }
        return [.text(table), .text(state), .text(schema), .integer(Int64(entry.rowCount)), text(entry.rowsUpdatedAt),
                text(portalStamp), text(note)]
    }
}
