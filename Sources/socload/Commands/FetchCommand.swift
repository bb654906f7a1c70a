import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite

/// `socload fetch DATASET`: a dataset into a typed table, in one transaction.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "fetch",
        abstract: "Download a dataset and load it into a table (replacing the previous copy).",
        discussion: """
            <dataset> is a local rows.json file, a portal URL (any form copied from the browser), or a
            dataset id such as n5m4-mism. An id is fetched from --domain; without a domain the bundled
            copy in the datasets directory is used. The whole load is one transaction: if anything
            fails, the previous copy of the table is left as it was. Several datasets are loaded with
            the same options, --jobs at a time, each its own transaction; one failing does not stop
            the others, and the exit code is the largest of the failed ones'.
            """)

    @Arguments(name: "dataset", help: "A file, a portal URL or a dataset id (abcd-1234); several load one after another.")
    var references: [String]
    @OptionGroup var database = DatabaseOptions()
    @Option(valueName: "name", help: "The table to load into.", default: "the dataset id with - as _") var table: String?
    @Option(valueName: "host", help: "The portal to fetch a dataset id from (also http://host:port).",
            default: "$SOCLOAD_DOMAIN") var domain: String?
    @Option(valueName: "dir", help: "Where bundled copies are looked up.", default: "$SOCLOAD_DATASETS, else ./Datasets, then PREFIX/share/socload/Datasets beside the binary")
    var datasets: String?
    @OptionGroup var network = NetworkOptions()
    @Option(valueName: "dir", help: "Keep a gzip copy of every rows.json downloaded, under its version (refresh --locked reads it).")
    var cache: String?
    @Option(valueName: "n", help: "Load only the first N rows.") var limit: Int?
    @Option(valueName: "n", help: "Refuse a dataset of more than N rows (exit 65, nothing changed).") var maxRows: Int?
    @Flag(help: "Also keep _sid, _row_id, _position, _created_meta, _updated_meta and _meta.") var systemColumns: Bool
    @Option(valueName: "api", help: "auto, rows, soda2 or soda3.", default: "auto: rows.json, or soda2 with SoQL options")
    var api: DatasetAPI?
    @Option(name: "where", valueName: "soql", help: "Only rows matching this SoQL condition (SODA).") var whereClause: String?
    @Option(valueName: "soql", help: "Only these SoQL columns or expressions (SODA).") var select: String?
    @Option(valueName: "soql", help: "SoQL ordering; :id is always added last so pages are stable (SODA).") var order: String?
    @OptionGroup var paging = PagingOptions()
    @Flag(help: "Reload even when the portal says nothing changed.") var force: Bool
    @Flag(help: "Sync a table fetched before instead of reloading it (see socload sync).") var incremental: Bool
    @OptionGroup var shape = TableShapeOptions()
    @Option(valueName: "column", help: "PostgreSQL with Citus: distribute the table by this column (part of its key).")
    var distributeBy: String?
    @Flag(help: "Fail on a cell that is not of its column's type, or a lost index or trigger of yours.") var strict: Bool
    @Flag(help: "Print the plan (table, columns, types, key, indexes) and load nothing.") var dryRun: Bool
    @Option(valueName: "n", help: "With several datasets, work on N at a time (SQLite writes one, downloading the others ahead).")
    var jobs: Int = DatasetBatch.defaultJobs
    @Flag(short: "q", help: "Print only errors and warnings: no progress, no summary.") var quiet: Bool
    @Flag(help: "Print one JSON object a dataset on standard output (status, table, rows, changes, error).") var json: Bool

    func validate() throws {
        if let table, table.isEmpty { throw UsageError("--table needs a name", command: Self.spec) }
        if jobs < 1 { throw UsageError("--jobs needs a number above 0", command: Self.spec) }
        if json, dryRun {
            throw UsageError("--dry-run prints the plan, not a result: leave out --json", command: Self.spec)
        }
        if table != nil, references.count > 1 {
            throw UsageError("--table names the table of one dataset; with \(references.count) datasets each is named by "
                             + "its id (fetch them one at a time, or name them in socload.json)", command: Self.spec)
        }
        if incremental, !shape.extract.isEmpty {
            throw UsageError("--extract shapes a load, and --incremental only syncs rows: run socload extract TABLE COLUMNS "
                             + "to add a lookup to a table you sync", command: Self.spec)
        }
    }

    func run(context: CommandContext) throws {
        let report = DatasetReport.printer(json, context)
        guard references.count > 1 else {
            let dataset = references.first ?? ""
            do {
                let outcome = try fetch(dataset, context: context)
                report?(DatasetReport(dataset: dataset, outcome: outcome))
            } catch {
                let (message, code) = DatasetBatch.describe(error)
                report?(DatasetReport(dataset: dataset, error: message, exitCode: code))
                throw error
            }
            return
        }
        try DatasetBatch.run(references.map { dataset in
            DatasetBatch.Entry(name: dataset) { job in try fetch(dataset, context: context, job: job) }
        }, jobs: dryRun ? 1 : jobs, oneWriter: database.capabilities(context).writers == .one, quiet: quiet, report: report)
    }

    /// Fetches one dataset with these options: what happened, for the closing table of several.
    /// In a batch of datasets side by side, `job` says when it may write (`DatasetJob`).
    /// `adjusting` changes the request first (`refresh --locked`: the version, a cached copy).
    func fetch(_ dataset: String, context: CommandContext, job: DatasetJob = .alone,
               adjusting: (inout LoadRequest) -> Void = { _ in }) throws -> DatasetOutcome {
        var request = try loadRequest(for: dataset, context: context)
        adjusting(&request)
        let reference = request.reference
        if reference.isBundledCopy, !quiet {
            StandardError.line("Using the bundled copy \(reference.displaySource) (pass --domain HOST to fetch it from a portal)")
        }
        let table = self.table ?? reference.datasetID.map { LoadPlan.tableName(forDatasetID: $0) }

        if dryRun {
            let plan: LoadPlan
            do {
                plan = try DatasetLoader.plan(for: request, http: LoadSetup.httpOptions(appToken: network.appToken, context))
            } catch let error as PlanError {
                throw UsageError(error.description, command: Self.spec)
            }
            context.output.write(PlanText.describe(plan))
            return DatasetOutcome(table: plan.mainTable.name, result: "planned (nothing loaded)", wroteTable: false, status: "planned")
        }

        if job.turn != nil, !incremental { request = try downloadingAhead(request, context: context, job: job) }
        defer { request.abandonPrefetch() }
        try request.waitForPrefetch(cancellation: job.stop)
        return try job.writing {
            try job.stop.check()
            return try load(request, dataset: dataset, table: table, context: context, showsProgress: job.showsProgress)
        }
    }

    /// The load of `request` into the database, once it may write.
    private func load(_ request: LoadRequest, dataset: String, table: String?, context: CommandContext,
                      showsProgress: Bool) throws -> DatasetOutcome {
        if distributeBy != nil, !database.capabilities(context).distributesTables {
            throw UsageError("--distribute-by needs a PostgreSQL database with Citus (--db postgresql://...)", command: Self.spec)
        }
        let (session, staged) = try LoadSetup.openForLoading(database, network: network, quiet: quiet, progress: showsProgress,
                                                              geoPackage: shape.geopackage, context, command: Self.spec) {
            if incremental { try database.requireExisting(context) }
        }
        defer { session.finish() }
        if incremental {
            let synced = try SyncCommand.sync(table ?? dataset, session: session, pageSize: request.pageSize,
                                              indexes: request.indexes, history: request.keepsHistory,
                                              schemaPolicy: try SyncCommand.policy(shape.onSchemaChange))
            let changed = synced.inserted + synced.updated
            return DatasetOutcome(table: synced.tableName, result: "synced, \(NumberText.grouped(changed)) changed", status: "synced",
                                  sync: synced)
        }
        let summary = try LoadSetup.perform(session, staged: staged, table: table, command: Self.spec) {
            try session.loader.load(request)
        }
        session.meter.clear()
        if summary.isUpToDate {
            session.inform("\(summary.tableName) is up to date (\(NumberText.counted(summary.rowCount, "row")), "
                               + "fetched \(summary.catalogEntry.fetchedAt); --force reloads it)")
            return DatasetOutcome(table: summary.tableName, result: "up to date, \(NumberText.counted(summary.rowCount, "row"))",
                                  wroteTable: false, status: "up_to_date", summary: summary)
        }
        let rows = "\(NumberText.grouped(summary.rowCount)) row\(summary.rowCount == 1 ? "" : "s")"
        session.inform("Loaded \(rows) into \(summary.tableName) "
                           + "(\(summary.columnCount) columns) from \(summary.source) in \(NumberText.seconds(summary.elapsed))")
        Self.reportRowChanges(summary, session: session)
        Self.reportInvalidCells(summary.invalidCells)
        for note in summary.notes {
            StandardError.line("Warning: " + SocloadTool.oneLine(note))
        }
        return DatasetOutcome(table: summary.tableName, result: "loaded \(rows)" + (summary.rowChanges.map { " (\($0.summary))" } ?? ""),
                              summary: summary)
    }

    /// `request` with its download started into a temporary file while it waits for its turn,
    /// conditionally as the load would ask (the table's catalog entry read, which needs no turn).
    private func downloadingAhead(_ request: LoadRequest, context: CommandContext, job: DatasetJob) throws -> LoadRequest {
        let loaded = try? database.openLoaded(context, command: Self.spec, watched: false)
        return try DatasetLoader.prefetch(request, previous: { try loaded?.entry(for: $0, withDescription: false) },
                                          http: LoadSetup.httpOptions(appToken: network.appToken, context),
                                          retry: LoadSetup.retryPolicy(retries: network.retries, context), cancellation: job.stop)
    }

    /// The load these options ask for of one dataset (a reference that is no dataset: exit 64).
    func loadRequest(for dataset: String, context: CommandContext) throws -> LoadRequest {
        let environment = context.environment
        let domain = self.domain ?? environment["SOCLOAD_DOMAIN"].flatMap { $0.isEmpty ? nil : $0 }
        let reference: DatasetReference
        do {
            reference = try DatasetReference.resolve(dataset, domain: domain,
                                                     datasetsDirectories: Self.datasetsDirectories(datasets, environment))
        } catch let error as DatasetReferenceError where error.kind == .usage {
            throw UsageError(error.description, command: Self.spec)
        }
        var request = LoadRequest(reference: reference, tableName: table, limit: limit, includeSystemColumns: systemColumns)
        request.query = SoQLQuery(select: select, where: whereClause, order: order)
        request.force = force
        request.cache = cache.map(DownloadCache.init(directory:))
        if let api { request.api = api }
        request.pageSize = paging.rows
        request.maxRows = maxRows
        request.tableOptions = try shape.tableOptions(distributeBy: distributeBy, strict: strict, command: Self.spec)
        return request
    }

    /// `Refreshed t: 12 added, 3 changed, 5 removed, 9,980 unchanged`, when the rows were counted.
    static func reportRowChanges(_ summary: LoadSummary, session: LoadSetup.Session) {
        guard let changes = summary.rowChanges else { return }
        session.inform("Refreshed \(TerminalText.escaped(summary.tableName)): \(changes.summary)")
    }

    /// One line per column that had cells not of its type, under the summary.
    static func reportInvalidCells(_ cells: [InvalidCells]) {
        for column in cells {
            StandardError.line(SocloadTool.oneLine(column.summary))
        }
    }

    /// `--datasets`, else `$SOCLOAD_DATASETS`, else `./Datasets` and the copy installed beside the binary.
    static func datasetsDirectories(_ option: String?, _ environment: [String: String]) -> [String] {
        if let directory = option ?? environment["SOCLOAD_DATASETS"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return [directory]
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/socload/Datasets").path
        return ["Datasets", installed]
    }
}
