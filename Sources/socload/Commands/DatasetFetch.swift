import Foundation
import SocloadDatabase
import SocloadProject
import SocloadCore
import SocloadSocrata
import SocloadSQLite

/// One dataset fetched as `socload fetch` fetches it: what to load (a `LoadSpec`), the database
/// and network it goes through, and how it prints. `fetch` makes one per dataset from its
/// options; `refresh` and `status` one per dataset of the project (`init(project:dataset:...)`).
struct DatasetFetch {
    var spec: LoadSpec
    let database: DatabaseOptions
    let network: NetworkOptions
    var geoPackage = false
    var quiet = false
    var dryRun = false
    /// Where a dataset id without a domain finds its bundled copy.
    var datasetsDirectories: [String]
    /// When the catalog search that found the dataset says its data last changed: equal to the
    /// table's, the dataset is up to date without a request (`refresh` of a search entry).
    var catalogDataUpdatedAt: String?
    /// The database as the batch shares it: its catalog read once, SQLite's one write connection
    /// (nil: a fetch alone, which opens its own).
    var batch: BatchDatabase?

    /// The load this fetch asks for (a reference that is no dataset: exit 64).
    func request(context: CommandContext) throws -> LoadRequest {
        do {
            return spec.datasetRequest(try spec.reference(datasetsDirectories: datasetsDirectories))
        } catch let error as DatasetReferenceError where error.kind == .usage {
            throw UsageError(error.description, command: FetchCommand.spec)
        }
    }

    /// What a load of `request` would make, from the source's metadata alone (its description
    /// first), through this fetch's network settings: what `status` and `refresh --locked` compare.
    func planned(_ request: LoadRequest, context: CommandContext) throws -> DatasetLoader.PlannedLoad {
        try DatasetLoader.planAndStamp(for: request, http: try LoadSetup.httpOptions(appToken: network.appToken, context),
                                       retry: LoadSetup.retryPolicy(retries: network.retries, context),
                                       onRetry: LoadSetup.retryNotices(quiet: quiet), describedFirst: true)
    }

    /// Fetches the dataset: what happened, for the closing table of several. In a batch of
    /// datasets side by side, `job` says when it may write (`DatasetJob`). `adjusting` changes
    /// the request first (`refresh --locked`: the version, a cached copy). `whenCommitted` runs
    /// after a load that wrote its table, still in the writer's turn (`refresh` records the lock
    /// entry there, reading through the batch's connection); `whenWriting` runs in that turn
    /// before the load begins (`refresh` notes in the lock's journal that it may commit).
    func run(context: CommandContext, job: DatasetJob = .alone, adjusting: (inout LoadRequest) -> Void = { _ in },
             whenWriting: (LoadRequest) throws -> Void = { _ in },
             whenCommitted: (DatasetOutcome) throws -> Void = { _ in }) throws -> DatasetOutcome {
        if let platform = try platformRequest() {
            return try runPlatform(platform, context: context, job: job, whenCommitted: whenCommitted)
        }
        var request = try self.request(context: context)
        adjusting(&request)
        let reference = request.reference
        if reference.isBundledCopy, !quiet {
            StandardError.line("Using the bundled copy \(reference.displaySource) (pass --domain HOST to fetch it from a portal)")
        }
        if dryRun {
            let http = try LoadSetup.httpOptions(appToken: network.appToken, context)
            var (api, why) = try request.apiChoice(hasCredentials: http.hasCredentials)
            let plan: LoadPlan
            do {
                let planned = try DatasetLoader.planAndAPI(for: request, http: http,
                                                           retry: LoadSetup.retryPolicy(retries: network.retries, context),
                                                           onRetry: LoadSetup.retryNotices(quiet: quiet))
                plan = planned.plan
                if planned.api != api {
                    why = "the portal refuses \(api.displayName) for this dataset, so the load would read its rows.json export"
                    api = planned.api
                }
            } catch let error as PlanError {
                throw UsageError(error.description, command: FetchCommand.spec)
            }
            context.output.write("api \(api.displayName) (\(why))\n" + PlanText.describe(plan))
            return DatasetOutcome(table: plan.mainTable.name, result: "planned (nothing loaded)", wroteTable: false, status: "planned")
        }
        let syncing = syncs(request, context: context)
        if let batch {
            // In a batch, what can be settled without writing is settled without the writer's turn.
            let previous = batch.previousEntry(for: request)
            if let settled = settledByCatalog(since: previous, request: request) { return settled }
            request = downloadsAhead(job: job, syncing: syncing, previous: previous)
                ? try failingAsALoad(request) { try downloadingAhead(request, context: context, job: job) }
                : DatasetLoader.describedAhead(request, since: previous, http: try LoadSetup.httpOptions(appToken: network.appToken, context),
                                               retry: LoadSetup.retryPolicy(retries: network.retries, context), cancellation: job.stop,
                                               onRetry: LoadSetup.retryNotices(quiet: quiet))
            if let previous, request.isSettled(since: previous) { return upToDate(previous, source: request.reference.displaySource) }
        } else if downloadsAhead(job: job, syncing: syncing, previous: nil) {
            request = try failingAsALoad(request) { try downloadingAhead(request, context: context, job: job) }
        }
        defer { request.abandonPrefetch() }
        try request.waitForPrefetch(cancellation: job.stop)
        return try job.writing {
            try job.stop.check()
            try whenWriting(request)
            let outcome = try load(request, syncing: syncing, context: context, showsProgress: job.showsProgress)
            if outcome.wroteTable {
                StepPause.at("committed")
                try whenCommitted(outcome)
            }
            return outcome
        }
    }

    /// Whether the rows are downloaded ahead of the load, so that what the download waits for
    /// (retries, slow responses) holds no turn and no connection and lends its job slot: on
    /// SQLite always with `--jobs` (one dataset writes at a time); on PostgreSQL, where loads run
    /// side by side, a dataset whose last load fit in one page (most of a portal's), while a
    /// bigger one streams its pages into its COPY as they come.
    private func downloadsAhead(job: DatasetJob, syncing: Bool, previous: CatalogEntry?) -> Bool {
        guard job.sideBySide, !syncing else { return false }
        return job.turn != nil || previous.map { $0.rowCount < spec.pageSize } ?? false
    }

    /// A download ahead of the load fails as the load would: naming the table it left unchanged.
    private func failingAsALoad(_ request: LoadRequest, _ body: () throws -> LoadRequest) throws -> LoadRequest {
        do {
            return try body()
        } catch let error as LoadError {
            if case .interrupted = error { throw error }
            throw LoadFailure(underlying: error, table: tableName(of: request))
        } catch let error as UsageError {
            throw error
        } catch {
            throw LoadFailure(underlying: error, table: tableName(of: request))
        }
    }

    /// The table the load of `request` writes: `--table`, else the dataset id's.
    private func tableName(of request: LoadRequest) -> String? {
        spec.tableName ?? request.reference.datasetID.map { LoadPlan.tableName(forDatasetID: $0) }
    }

    /// Whether this fetch syncs its table rather than reloading it: `--incremental`, or a table
    /// of more rows than `--incremental-above`; never a table not loaded yet (a first load is whole).
    private func syncs(_ request: LoadRequest, context: CommandContext) -> Bool {
        guard spec.incremental || spec.incrementalAbove != nil else { return false }
        return spec.syncs(tableRows: lastLoad(of: tableName(of: request) ?? spec.sourceText, context: context)?.rowCount)
    }

    /// The catalog entry of a table (or a dataset id): the batch's, read once for all its
    /// datasets, or for a fetch alone its own lookup (nil when there is none, or no database).
    private func lastLoad(of table: String, context: CommandContext) -> CatalogEntry? {
        if let batch { return batch.entry(for: table) }
        return (try? database.openLoaded(context, command: FetchCommand.spec, watched: false).entry(for: table, withDescription: false)) ?? nil
    }

    /// The load of `request` into the database, once it may write: a sync when `syncing`, and a
    /// whole load when the sync cannot be done (a new shape, no key, a table not from a portal).
    private func load(_ request: LoadRequest, syncing: Bool, context: CommandContext, showsProgress: Bool) throws -> DatasetOutcome {
        if spec.tableOptions.distributeBy != nil, !database.capabilities(context).distributesTables {
            throw UsageError("--distribute-by needs a PostgreSQL database with Citus (--db postgresql://...)", command: FetchCommand.spec)
        }
        let (session, staged) = try LoadSetup.openForLoading(database, network: network, quiet: quiet, progress: showsProgress,
                                                              geoPackage: geoPackage, context, command: FetchCommand.spec,
                                                              batch: batch) {
            if syncing { try database.requireExisting(context) }
        }
        defer {
            session.finish()
            session.close()
        }
        let table = tableName(of: request)
        if syncing {
            do {
                let synced = try SyncCommand.sync(table ?? spec.sourceText, session: session, pageSize: spec.pageSize,
                                                  indexes: spec.tableOptions.indexes, history: spec.tableOptions.keepsHistory,
                                                  schemaPolicy: spec.tableOptions.onSchemaChange == .evolve ? .evolve : .fail,
                                                  cache: request.cache)
                // What the rows did to the table, as the "Refreshed" line and --json say (by their
                // fingerprints); without fingerprints, how many rows came.
                let result = synced.rowChanges.map { "synced (\($0.summary))" }
                    ?? "synced, \(NumberText.counted(synced.inserted + synced.updated, "row")) received"
                return DatasetOutcome(table: synced.tableName, result: result, status: "synced",
                                      sync: synced)
            } catch let failure as LoadFailure where LoadSpec.reloadsWhole(afterSyncFailure: failure.underlying) {
                StandardError.line("Warning: " + SocloadTool.oneLine("\(table ?? spec.sourceText) cannot be synced "
                                   + "(\(failure.underlying)), so it is reloaded whole"))
            }
        }
        let summary = try LoadSetup.perform(session, staged: staged, table: table, command: FetchCommand.spec) {
            try session.loader.load(request)
        }
        session.meter.clear()
        // In a batch an unchanged dataset prints no line of its own, whenever it was found so.
        return Self.report(summary, session: session, upToDateLine: batch == nil)
    }

    /// Up to date by the catalog search's `data_updated_at`: the instant the table's last load
    /// recorded as the portal's `rowsUpdatedAt`. Nil when either is missing or they differ.
    private func settledByCatalog(since previous: CatalogEntry?, request: LoadRequest) -> DatasetOutcome? {
        guard let previous, let stated = catalogDataUpdatedAt.flatMap(ISO8601Timestamp.parse),
              let recorded = previous.rowsUpdatedAt.flatMap(ISO8601Timestamp.parse),
              stated.timeIntervalSince1970.rounded(.down) == recorded.timeIntervalSince1970.rounded(.down) else { return nil }
        return upToDate(previous, source: request.reference.displaySource)
    }

    /// The outcome of a dataset of a batch found up to date before its load began: no line of its
    /// own (the batch's closing table counts it, `--verbose` lists it), so a nightly refresh of a
    /// thousand unchanged datasets prints one line.
    private func upToDate(_ entry: CatalogEntry, source: String) -> DatasetOutcome {
        Self.upToDateOutcome(LoadSummary(tableName: entry.tableName, rowCount: entry.rowCount, columnCount: 0, source: source,
                                         elapsed: 0, catalogEntry: entry, isUpToDate: true))
    }

    static func upToDateLine(_ summary: LoadSummary) -> String {
        "\(summary.tableName) is up to date (\(NumberText.counted(summary.rowCount, "row")), "
            + "fetched \(summary.catalogEntry.fetchedAt); --force reloads it)"
    }

    static func upToDateOutcome(_ summary: LoadSummary) -> DatasetOutcome {
        DatasetOutcome(table: summary.tableName, result: "up to date, \(NumberText.counted(summary.rowCount, "row"))",
                       wroteTable: false, status: "up_to_date", summary: summary)
    }

    /// The summary lines of a load, and its outcome for the closing table.
    /// From a portal, the summary says which API the rows came through.
    static func report(_ summary: LoadSummary, session: LoadSetup.Session, upToDateLine printsUpToDate: Bool = true) -> DatasetOutcome {
        if summary.isUpToDate {
            if printsUpToDate { session.inform(upToDateLine(summary)) }
            return upToDateOutcome(summary)
        }
        let rows = "\(NumberText.grouped(summary.rowCount)) row\(summary.rowCount == 1 ? "" : "s")"
        session.inform("Loaded \(rows) into \(summary.tableName) "
                           + "(\(summary.columnCount) columns) from \(summary.source)"
                           + (summary.readThrough.map { " through \($0)" } ?? "") + " in \(NumberText.seconds(summary.elapsed))")
        DatasetFetch.reportRowChanges(summary, session: session)
        DatasetFetch.reportInvalidCells(summary.invalidCells)
        for note in summary.notes {
            StandardError.line("Warning: " + SocloadTool.oneLine(note))
        }
        return DatasetOutcome(table: summary.tableName, result: "loaded \(rows)" + (summary.rowChanges.map { " (\($0.summary))" } ?? ""),
                              summary: summary)
    }

    /// `request` with its download started into a temporary file while it waits for its turn,
    /// conditionally as the load would ask (the table's catalog entry read, which needs no turn).
    private func downloadingAhead(_ request: LoadRequest, context: CommandContext, job: DatasetJob) throws -> LoadRequest {
        try DatasetLoader.prefetch(request, previous: { lastLoad(of: $0, context: context) },
                                          http: try LoadSetup.httpOptions(appToken: network.appToken, context),
                                          retry: LoadSetup.retryPolicy(retries: network.retries, context), cancellation: job.stop,
                                          onRetry: LoadSetup.retryNotices(quiet: quiet))
    }
}
