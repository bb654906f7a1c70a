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
            dataset id such as n5m4-mism. A CKAN resource or dataset page, an ArcGIS layer
            (.../FeatureServer/0) or an OpenDataSoft dataset (/explore/dataset/ID/) URL is loaded
            from that platform, typed from its own metadata (--platform says which where the URL
            does not). An id is fetched from --domain; without a domain the bundled
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
    @Option(valueName: "dir", help: "Keep every version downloaded (rows.json, or a whole dataset's query pages) as a BagIt bag with checksums, under its version (refresh --locked reads it).")
    var cache: String?
    @Option(valueName: "n", help: "With --cache: keep the last N versions of the dataset, each a BagIt bag (the oldest removed).")
    var keepVersions: Int?
    @Option(valueName: "n", help: "Load only the first N rows.") var limit: Int?
    @Option(valueName: "n", help: "Refuse a dataset of more than N rows (exit 65, nothing changed).") var maxRows: Int?
    @Flag(help: "Also keep _sid, _row_id, _position, _created_meta, _updated_meta and _meta.") var systemColumns: Bool
    @Option(valueName: "name", help: "The platform a URL is a dataset of: socrata, ckan, arcgis or ods.",
            default: "the one the URL's form says, else socrata")
    var platform: DataPlatform?
    @Option(valueName: "api", help: "auto, rows, soda2 or soda3.", default: "auto: soda3 with an app token or a login, else soda2")
    var api: DatasetAPI?
    @Option(name: "where", valueName: "soql", help: "Only rows matching this SoQL condition (SODA).") var whereClause: String?
    @Option(valueName: "soql", help: "Only these SoQL columns or expressions (SODA).") var select: String?
    @Option(valueName: "soql", help: "SoQL ordering; :id is always added last so pages are stable (SODA).") var order: String?
    @OptionGroup var paging = PagingOptions()
    @Flag(help: "Reload even when the portal says nothing changed.") var force: Bool
    @Flag(help: "Sync a table fetched before instead of reloading it (see socload sync); a first load, or one the sync cannot do (a new shape), loads whole.")
    var incremental: Bool
    @Option(valueName: "rows", help: "Sync instead of reloading once the table holds more than this many rows (as --incremental).")
    var incrementalAbove: Int?
    @OptionGroup var shape = TableShapeOptions()
    @Option(valueName: "column", help: "PostgreSQL with Citus: distribute the table by this column (part of its key).")
    var distributeBy: String?
    @Flag(help: "Fail on a cell that is not of its column's type, or a lost index or trigger of yours.") var strict: Bool
    @Flag(help: "Print the plan (table, columns, types, key, indexes) and load nothing.") var dryRun: Bool
    @Option(valueName: "n", help: "With several datasets, work on N at a time (SQLite writes one, downloading the others ahead).")
    var jobs: Int = DatasetBatch.defaultJobs
    @Flag(short: "q", help: "Print only errors and warnings: no progress, no summary.") var quiet: Bool
    @Flag(help: "Print one JSON object a dataset on standard output (status, table, rows, changes, error).") var json: Bool
    @Flag(help: "With several datasets, list the up-to-date ones in the closing table too.") var verbose: Bool

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
        if let keepVersions {
            if keepVersions < 1 { throw UsageError("--keep-versions needs a number above 0", command: Self.spec) }
            if cache == nil { throw UsageError("--keep-versions says how many versions --cache keeps: give --cache DIR too", command: Self.spec) }
        }
        if let incrementalAbove, incrementalAbove < 0 { throw UsageError("--incremental-above needs a number of rows, 0 or more", command: Self.spec) }
        if incremental || incrementalAbove != nil {
            if !shape.extract.isEmpty {
                throw UsageError("--extract shapes a load, and --incremental only syncs rows: run socload extract TABLE COLUMNS "
                                 + "to add a lookup to a table you sync", command: Self.spec)
            }
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
        try database.requireFolder(context, command: Self.spec)
        // The catalog read once, SQLite's one write connection (`BatchDatabase`).
        let batch = dryRun ? nil : BatchDatabase(database: database, context: context)
        defer { batch?.close() }
        try DatasetBatch.run(references.map { dataset in
            DatasetBatch.Entry(name: dataset) { job in try fetch(dataset, context: context, job: job, batch: batch) }
        }, jobs: dryRun ? 1 : jobs, oneWriter: database.capabilities(context).writers == .one, quiet: quiet, verbose: verbose,
           report: report)
    }

    /// Fetches one dataset with these options: what happened, for the closing table of several.
    func fetch(_ dataset: String, context: CommandContext, job: DatasetJob = .alone, batch: BatchDatabase? = nil) throws -> DatasetOutcome {
        try DatasetFetch(spec: try loadSpec(for: dataset, context: context), database: database, network: network,
                         geoPackage: shape.geopackage, quiet: quiet, dryRun: dryRun,
                         datasetsDirectories: DatasetFetch.datasetsDirectories(datasets, context.environment), batch: batch)
            .run(context: context, job: job)
    }

    /// The load these options ask for of one dataset.
    func loadSpec(for dataset: String, context: CommandContext) throws -> LoadSpec {
        var spec = LoadSpec(dataset: dataset, domain: domain ?? context.environment["SOCLOAD_DOMAIN"].flatMap { $0.isEmpty ? nil : $0 },
                            tableName: table)
        spec.limit = limit
        spec.maxRows = maxRows
        spec.includeSystemColumns = systemColumns
        spec.api = api ?? .auto
        spec.platform = platform
        spec.query = SoQLQuery(select: select, where: whereClause, order: order)
        spec.pageSize = paging.rows
        spec.force = force
        spec.incremental = incremental
        spec.incrementalAbove = incrementalAbove
        spec.cache = cache
        spec.keepVersions = keepVersions
        spec.tableOptions = try shape.tableOptions(distributeBy: distributeBy, strict: strict, command: Self.spec)
        return spec
    }
}
