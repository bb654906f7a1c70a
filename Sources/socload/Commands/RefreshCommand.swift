import Foundation
import SocloadProject
import SocloadSocrata

/// `socload refresh [NAME...]`: every dataset of the project file (or the named ones) brought
/// up to date, one after another, each as `fetch` would with the entry's options.
struct RefreshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "refresh",
        abstract: "Bring every dataset of the project (socload.json) up to date.",
        discussion: """
            Each dataset of the project file is fetched as `socload fetch` would with the entry's
            options: conditionally (a dataset the portal says is unchanged costs one metadata
            request), in its own transaction. One dataset's failure does not stop the others; the
            closing table says which failed and why, and the exit code is the largest of their codes.
            Two refreshes of one project never overlap: the second waits for the first, or with
            --no-wait exits 75. A project file that is not right exits 78 naming the entry and key.
            socload.lock, beside the project file, then records what each dataset loaded: its
            source, the portal's version stamps, the schema hash, the row count and a hash of its rows.
            --jobs N works on N datasets at a time: PostgreSQL loads them side by side; SQLite writes
            one at a time while the others download into temporary files. --locked loads exactly the
            locked versions, from the portal or the cache ("cache": DIR keeps every version
            downloaded), or fails (65) naming what differs, changing nothing. An entry may name a
            catalog search ({"search": {...}, "options": {...}}): every dataset it lists is refreshed.
            Each dataset's watch (see socload status) is in the closing table when it is stale, gone
            or moved, and in --json. A dataset loaded before that the portal no longer has (404,
            410) is gone: its table is kept and the refresh does not fail for it; --fail-on
            stale,gone,moved,changed exits 1 when one of them is found (changed: rows or columns changed).
            """)

    @Arguments(name: "name", help: "Only these datasets: their \"name\", table, or id, URL or file in the project.", minimum: 0)
    var names: [String]
    @Option(valueName: "file", help: "The project file.", default: "socload.json in the current directory") var project: String?
    @Flag(help: "Reload every dataset even when the portal says nothing changed.") var force: Bool
    @Flag(help: "Exit 75 at once when another refresh of this project is running, instead of waiting.") var noWait: Bool
    @Option(valueName: "n", help: "Work on N datasets at a time (SQLite writes one, downloading the others ahead).")
    var jobs: Int = DatasetBatch.defaultJobs
    @Option(valueName: "dir", help: "Keep every version downloaded here, each a BagIt bag with checksums.", default: "the project's \"cache\"")
    var cache: String?
    @Flag(help: "Load exactly the versions socload.lock records (from the portal, else the cache), or fail (65) changing nothing.")
    var locked: Bool
    @Flag(short: "q", help: "Print only errors and warnings: no progress, no summaries, no closing table.") var quiet: Bool
    @Flag(help: "Print one JSON object a dataset on standard output (status, table, rows, changes, error).") var json: Bool
    @Flag(help: "List the up-to-date datasets in the closing table too (it lists those that failed or changed).")
    var verbose: Bool
    @Option(valueName: "list", help: "Exit 1 when a dataset is one of these: stale, gone, moved, changed (comma-separated).")
    var failOn: String?

    func validate() throws {
        if jobs < 1 { throw UsageError("--jobs needs a number above 0", command: Self.spec) }
        _ = try WatchFindings(failOn, command: Self.spec)
    }

    func run(context: CommandContext) throws {
        let path = project ?? "socload.json"
        let file = try Project.load(path)
        let lock = try ProjectLock(path: path, wait: !noWait) {
            if !quiet { StandardError.line("Waiting for another refresh of \(path) to finish") }
        }
        defer { lock.release() }
        let lockFile = try ProjectLockReading.read(file, context: context)
        let selection = try ProjectSelection.of(file, names: names, lock: lockFile, fromLock: locked, context: context,
                                                command: Self.spec)
        let chosen = selection.datasets
        var batches: [String: BatchDatabase] = [:]
        let fetches = try chosen.map { dataset in
            var fetch = try DatasetFetch(project: file, dataset: dataset, quiet: quiet, force: force || locked, cache: cache, context: context)
            // One catalog read and one SQLite write connection per database (and schema) for the whole refresh.
            let key = "\(fetch.database.db ?? "")\u{0}\(fetch.database.schema ?? "")\u{0}\(fetch.database.project ?? "")"
            fetch.batch = batches[key] ?? BatchDatabase(database: fetch.database, context: context)
            batches[key] = fetch.batch
            return fetch
        }
        defer { batches.values.forEach { $0.close() } }
        try fetches.first?.database.requireFolder(context, command: Self.spec)
        let oneWriter = fetches.first.map { $0.database.capabilities(context).writers == .one } ?? true
        if locked {
            return try refreshLocked(chosen, fetches: fetches, project: file, lockFile: lockFile, oneWriter: oneWriter,
                                     failedSearches: selection.reportedEntries, context: context)
        }
        let recorder = try LockFileRecorder(project: file, previous: lockFile, chosen: chosen, fetches: fetches, context: context)
        let watcher = DatasetWatcher(context: context)
        var finished: [(name: String, result: DatasetBatch.Result)] = []
        try DatasetBatch.run(zip(chosen, fetches).map { dataset, fetch in
            DatasetBatch.Entry(name: dataset.name) { job in
                let outcome = try watcher.refreshing(dataset, datasetID: { (try? fetch.request(context: context))?.reference.datasetID },
                                                     batch: fetch.batch) {
                    try fetch.run(context: context, job: job, whenWriting: { request in try recorder.loading(dataset.name, request) },
                                  whenCommitted: { outcome in try recorder.committed(dataset.name, outcome) })
                }
                return try ProjectExport.after(outcome, of: dataset, fetch: fetch, context: context)
            }
        } + selection.reportedEntries, jobs: jobs, oneWriter: oneWriter, quiet: quiet, verbose: verbose,
           report: DatasetReport.printer(json, context)) { results in
            finished = results
            try recorder.finish(results)
            WatchLogWriter.record(results, fetches: Dictionary(zip(chosen.map(\.name), fetches), uniquingKeysWith: { first, _ in first }),
                                  context: context)
        }
        let findings = try WatchFindings(failOn, command: Self.spec)
        try findings.check(finished.compactMap { item in
            guard case .done(let outcome) = item.result else { return nil }
            return (item.name, findings.found(watch: outcome.watch?.state, changed: outcome.changedSomething))
        })
    }

    /// `--locked`: every difference from the lock found before anything loads; then each
    /// dataset not at its locked version loaded at it. The lock file stays as it is.
    private func refreshLocked(_ chosen: [Project.Dataset], fetches: [DatasetFetch], project: Project,
                               lockFile: SocloadLockFile, oneWriter: Bool, failedSearches: [DatasetBatch.Entry],
                               context: CommandContext) throws {
        let lockPath = SocloadLockFile.path(forProject: project.path)
        guard !lockFile.datasets.isEmpty else {
            throw CommandFailure("\(lockPath) locks no dataset: a refresh without --locked writes it", exitCode: .noInput)
        }
        let refresh = LockedRefresh(project: project, lock: lockFile, cache: (cache ?? project.cache).map { DownloadCache(directory: $0) })
        let database = try? fetches.first?.database.openLoaded(context, command: FetchCommand.spec, watched: false)
        let (ways, differences) = refresh.ways(for: chosen, fetches: fetches, database: database, context: context)
        guard differences.isEmpty else {
            throw CommandFailure("\(differences.count) of \(chosen.count) datasets cannot be loaded at their locked version, so "
                                 + "nothing was changed: " + differences.shortList(separator: "; "), exitCode: .dataError)
        }
        try DatasetBatch.run(chosen.indices.map { index in
            DatasetBatch.Entry(name: chosen[index].name) { job in
                try refresh.load(chosen[index], fetch: fetches[index], way: ways[index] ?? .fromSource, context: context, job: job)
            }
        } + failedSearches, jobs: jobs, oneWriter: oneWriter, quiet: quiet, verbose: verbose,
           report: DatasetReport.printer(json, context))
    }
}
