import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite

/// `socload fetch DATASET`: a dataset into a typed table, in one transaction.
enum FetchCommand: Command {
    static let spec = CommandSpec(
        name: "fetch",
        abstract: "Download a dataset and load it into a table (replacing the previous copy).",
        discussion: """
            <dataset> is a local rows.json file, a portal URL (any form copied from the browser), or a
            dataset id such as n5m4-mism. An id is fetched from --domain; without a domain the bundled
            copy in the datasets directory is used. The whole load is one transaction: if anything
            fails, the previous copy of the table is left as it was.
            """,
        arguments: [ArgumentSpec(name: "dataset", help: "A file, a portal URL or a dataset id (abcd-1234).")],
        options: [
            DatabaseOption.spec,
            .value("table", "name", help: "The table to load into.", default: "the dataset id with - as _"),
            .value("domain", "host", help: "The portal to fetch a dataset id from (also http://host:port).",
                   default: "$SOCLOAD_DOMAIN"),
            .value("datasets", "dir", help: "Where bundled copies are looked up.", default: "$SOCLOAD_DATASETS, else ./Datasets"),
            .value("app-token", "token", help: "A Socrata app token, sent as X-App-Token.", default: "$SOCRATA_APP_TOKEN"),
            .value("limit", "n", help: "Load only the first N rows."),
            .flag("system-columns", help: "Also keep _sid, _row_id, _position, _created_meta, _updated_meta and _meta."),
            .value("api", "api", help: "auto, rows, soda2 or soda3.", default: "auto: rows.json, or soda2 with SoQL options"),
            .value("where", "soql", help: "Only rows matching this SoQL condition (SODA)."),
            .value("select", "soql", help: "Only these SoQL columns or expressions (SODA)."),
            .value("order", "soql", help: "SoQL ordering; :id is always added last so pages are stable (SODA)."),
            .value("page-size", "n", help: "Rows per SODA page.", default: "50000"),
            .value("retries", "n", help: "Retries of a failed request (429, 5xx, resets, timeouts).", default: "5"),
            .flag("force", help: "Reload even when the portal says nothing changed."),
            .flag("incremental", help: "Sync a table fetched before instead of reloading it (see socload sync)."),
            .value("type", "column=type", help: "Load a column as this type: \(LogicalType.allCases.map(\.rawValue).joined(separator: ", ")).",
                   repeatable: true),
            .value("index", "column[,column...]", help: "Build an index over these columns after the rows (kept on refresh).",
                   repeatable: true),
            .flag("strict", help: "Fail on a cell that is not of its column's type, or a lost index or trigger of yours."),
            .flag("dry-run", help: "Print the plan (table, columns, types, key, indexes) and load nothing."),
            .flag("quiet", short: "q", help: "Show no progress."),
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let environment = context.environment
        let domain = arguments.value("domain") ?? environment["SOCLOAD_DOMAIN"].flatMap { $0.isEmpty ? nil : $0 }
        var limit: Int?
        if let text = arguments.value("limit") {
            guard let value = Int(text), value >= 0 else {
                throw UsageError("--limit takes a whole number of rows, not '\(text)'", command: spec)
            }
            limit = value
        }
        if let table = arguments.value("table"), table.isEmpty {
            throw UsageError("--table needs a name", command: spec)
        }
        let reference: DatasetReference
        do {
            reference = try DatasetReference.resolve(arguments.positionals[0], domain: domain,
                                                     datasetsDirectories: datasetsDirectories(arguments, environment))
        } catch let error as DatasetReferenceError where error.kind == .usage {
            throw UsageError(error.description, command: spec)
        }
        if reference.isBundledCopy {
            StandardError.line("Using the bundled copy \(reference.displaySource) (pass --domain HOST to fetch it from a portal)")
        }
        var request = LoadRequest(reference: reference, tableName: arguments.value("table"), limit: limit,
                                  includeSystemColumns: arguments.flag("system-columns"))
        request.query = SoQLQuery(select: arguments.value("select"), where: arguments.value("where"),
                                  order: arguments.value("order"))
        request.force = arguments.flag("force")
        if let name = arguments.value("api") {
            guard let api = DatasetAPI(rawValue: name) else {
                throw UsageError("--api takes auto, rows, soda2 or soda3, not '\(name)'", command: spec)
            }
            request.api = api
        }
        if let size = try LoadOptions.positiveInteger(arguments, "page-size", command: spec) { request.pageSize = size }
        request.typeOverrides = try typeOverrides(arguments.values("type"))
        request.indexes = arguments.values("index").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        request.strict = arguments.flag("strict")
        let table = arguments.value("table") ?? reference.datasetID.map { LoadPlan.tableName(forDatasetID: $0) }

        if arguments.flag("dry-run") {
            let plan: LoadPlan
            do {
                plan = try DatasetLoader.plan(for: request, http: LoadOptions.httpOptions(arguments, context))
            } catch let error as PlanError {
                throw UsageError(error.description, command: spec)
            }
            context.output.write(PlanText.describe(plan))
            return
        }

        let databasePath = DatabaseOption.path(arguments, context)
        let databaseExisted = FileManager.default.fileExists(atPath: databasePath)
        let session = try LoadOptions.session(arguments, context, command: spec)
        defer { session.finish() }
        if arguments.flag("incremental") {
            try SyncCommand.sync(table ?? arguments.positionals[0], session: session, pageSize: request.pageSize,
                                 indexes: request.indexes)
            return
        }
        let summary: LoadSummary
        do {
            summary = try session.loader.load(request)
        } catch let error as PlanError {
            session.meter.clear()
            if !databaseExisted { removeIfEmpty(databasePath, queue: session.queue) }
            throw UsageError(error.description, command: spec)
        } catch {
            session.meter.clear()
            if !databaseExisted { removeIfEmpty(databasePath, queue: session.queue) }
            throw FetchFailure(underlying: error, table: table)
        }
        session.meter.clear()
        if summary.isUpToDate {
            StandardError.line("\(summary.tableName) is up to date (\(NumberText.grouped(summary.rowCount)) rows, "
                               + "fetched \(summary.catalogEntry.fetchedAt); --force reloads it)")
            return
        }
        StandardError.line("Loaded \(NumberText.grouped(summary.rowCount)) row\(summary.rowCount == 1 ? "" : "s") into \(summary.tableName) "
                           + "(\(summary.columnCount) columns) from \(summary.source) in \(NumberText.seconds(summary.elapsed))")
        reportInvalidCells(summary.invalidCells)
        for note in summary.notes {
            StandardError.line("Warning: " + SocloadTool.oneLine(note))
        }
    }

    /// One line per column that had cells not of its type, under the summary.
    static func reportInvalidCells(_ cells: [InvalidCells]) {
        for column in cells {
            StandardError.line(SocloadTool.oneLine(column.summary))
        }
    }

    /// `--type column=type` values as a map; a bad one is a usage error.
    static func typeOverrides(_ values: [String]) throws -> [String: LogicalType] {
        var overrides: [String: LogicalType] = [:]
        for value in values {
            guard let equals = value.lastIndex(of: "="), equals != value.startIndex,
                  let type = LogicalType(name: String(value[value.index(after: equals)...])) else {
                throw UsageError("--type takes COLUMN=TYPE with a type among "
                                 + LogicalType.allCases.map(\.rawValue).joined(separator: ", ") + ", not '\(value)'",
                                 command: spec)
            }
            overrides[String(value[..<equals])] = type
        }
        return overrides
    }

    /// A database file this fetch created and then failed to fill is removed, not left empty.
    static func removeIfEmpty(_ path: String, queue: DatabaseQueue) {
        let isEmpty = (try? queue.inDatabase { db in try db.fetchValue(sql: "SELECT count(*) FROM sqlite_schema") }) == .integer(0)
        guard isEmpty else { return }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// `--datasets`, else `$SOCLOAD_DATASETS`, else `./Datasets` and the copy installed beside the binary.
    static func datasetsDirectories(_ arguments: ParsedArguments, _ environment: [String: String]) -> [String] {
        if let directory = arguments.value("datasets") ?? environment["SOCLOAD_DATASETS"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return [directory]
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/socload/Datasets").path
        return ["Datasets", installed]
    }
}

/// A failed fetch: the cause, and the reassurance that nothing was changed.
struct FetchFailure: Error, CustomStringConvertible {
    let underlying: any Error
    let table: String?

    var description: String {
        let (message, _) = SocloadTool.describe(underlying)
        if case LoadError.reservedTableName = underlying { return message }
        let unchanged = table.map { "; \($0) was not changed" } ?? "; the database was not changed"
        return message + unchanged
    }
}
