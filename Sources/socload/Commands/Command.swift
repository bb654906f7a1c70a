import Foundation
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import SocloadSQLite

/// A subcommand of socload: its interface, and what it does with parsed arguments.
protocol Command {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws
}

/// What a command may use from the process: standard output and the environment.
struct CommandContext {
    let output: OutputSink
    let environment: [String: String]
    /// Cancels the running statement on a signal or a `--timeout`; every database a read
    /// command opens is handed to it.
    let statements = StatementWatch()
}

/// The `--db` option shared by every command that reads or writes the database.
struct DatabaseOptions: ParsableArguments {
    @Option(valueName: "path|url",
            help: "A SQLite file, or postgresql://user@host/db (postgres: alone: the PG* variables).",
            default: "$SOCLOAD_DB, else the project's \"database\" (socload.json here, or --project), else socload.sqlite")
    var db: String?
    @Option(valueName: "name", help: "The PostgreSQL schema for tables and the catalog.", default: "public")
    var schema: String?
    @Option(valueName: "file", help: "The project file whose database to use when there is no --db.",
            default: "socload.json in the current directory, if any")
    var project: String?

    /// The PostgreSQL database `--db` (or `$SOCLOAD_DB`) names, with the schema to use; nil
    /// for a SQLite file. `--schema` with a SQLite file is a usage error.
    func postgreSQL(_ context: CommandContext, command: CommandSpec) throws -> (PostgreSQLConnectionString, String)? {
        let fromProject = db == nil && environmentDatabase(context) == nil
        if fromProject {
            _ = try ProjectDatabase.path(project: project) // a project file that cannot be read says so
        }
        guard let connectionString = PostgreSQLConnectionString(path(context)) else {
            if schema != nil {
                throw UsageError("--schema is for a PostgreSQL --db (postgresql://...), not a SQLite file", command: command)
            }
            return nil
        }
        // The project's database is read in the project's schema, unless --schema says another.
        let schema = try self.schema ?? (fromProject ? ProjectDatabase.schema(project: project) : nil)
        if let schema, schema.isEmpty || schema.contains("\u{0}") {
            throw UsageError("--schema needs a name", command: command)
        }
        return (connectionString, schema ?? "public")
    }

    /// The path from `--db`, else `$SOCLOAD_DB`, else the project's database (`ProjectDatabase`),
    /// else `socload.sqlite` in the working directory.
    func path(_ context: CommandContext) -> String {
        db ?? environmentDatabase(context) ?? ((try? ProjectDatabase.path(project: project)) ?? nil) ?? "socload.sqlite"
    }

    /// The project's download cache (`"cache"`, with its `"keep-versions"`) when the database is
    /// the project's (no `--db`, no `$SOCLOAD_DB`), so a command in the project's folder keeps
    /// versions where `refresh` keeps them.
    func projectCache(_ context: CommandContext) throws -> DownloadCache? {
        guard db == nil, environmentDatabase(context) == nil else { return nil }
        return try ProjectDatabase.cache(project: project)
    }

    private func environmentDatabase(_ context: CommandContext) -> String? {
        context.environment["SOCLOAD_DB"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The database path, checked: a `--db` value (or `$SOCLOAD_DB`) is a plain file path. SQLite
    /// would read `file:...` as a URI (`?mode=memory`, `?vfs=...`), and an empty name or
    /// `:memory:` as a database that is never saved: for a command that writes, both are usage
    /// errors. A file whose name starts with `file:` is given as `./file:...`.
    func checkedPath(_ context: CommandContext, writing: Bool, command: CommandSpec) throws -> String {
        let path = path(context)
        if path.lowercased().hasPrefix("file:") {
            throw UsageError("--db takes a file path, not a URI ('\(path)'); write ./\(path) for a file named so",
                             command: command)
        }
        if writing, path.isEmpty || path == ":memory:" {
            throw UsageError("--db needs a database file to write to, not '\(path)' (nothing would be saved)",
                             command: command)
        }
        return path
    }

    /// Fails once, before a batch of datasets starts, when the SQLite file cannot be created
    /// because its folder does not exist (each dataset would fail alike, after its download).
    func requireFolder(_ context: CommandContext, command: CommandSpec) throws {
        guard try postgreSQL(context, command: command) == nil else { return }
        let path = path(context)
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: path),
              !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) || !isDirectory.boolValue else { return }
        throw StagedDatabaseError.cannotCreate(target: path, reason: "its folder '\(folder)' does not exist")
    }

    /// Fails unless the database file exists: only `fetch` creates one.
    func requireExisting(_ context: CommandContext) throws {
        let path = path(context)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("no database at '\(path)' (fetch a dataset first, or pass --db PATH)",
                                 exitCode: .noInput)
        }
    }

    /// Opens a database that must already exist: reading commands never create an empty file.
    /// Unless `acceptsChanges`, the connection refuses every statement that would change anything
    /// (see `DatabaseConfiguration.acceptsChanges`), so a read command cannot write.
    func openExisting(_ context: CommandContext, command: CommandSpec, acceptsChanges: Bool = false) throws -> DatabaseQueue {
        _ = try checkedPath(context, writing: acceptsChanges, command: command)
        try requireExisting(context)
        // Reading needs no write access: a database on a read-only mount can be queried.
        var configuration = DatabaseConfiguration.forReading(path(context))
        if acceptsChanges {
            try WritableFile.check(path(context))
            configuration = DatabaseConfiguration()
            configuration.createIfMissing = false
        }
        let queue = try DatabaseQueue(path: path(context), configuration: configuration)
        SQLLogFile.attach(to: queue, environment: context.environment)
        return queue
    }
}

/// The options every command that downloads shares (`fetch`, `load`, `sync`): the app token and
/// the retries, each default defined once.
struct NetworkOptions: ParsableArguments {
    @Option(valueName: "token", help: "A Socrata app token, sent as X-App-Token.", default: "$SOCRATA_APP_TOKEN")
    var appToken: String?
    @Option(valueName: "n", help: "Retries of a failed request (429, 5xx, resets, timeouts).")
    var retries: Int = RetryPolicy.defaultMaximumRetries
}

/// `--page-size`, shared by the commands that page through SODA (`fetch`, `sync`).
struct PagingOptions: ParsableArguments {
    @Option(valueName: "n", help: "Rows per SODA page.") var pageSize = PageSize(rows: LoadSpec.defaultPageSize)

    /// The rows per page asked for.
    var rows: Int { pageSize.rows }
}

/// The options that shape the table a load makes, shared by `fetch` and `load`: the types, the
/// key, the indexes and the lookups, each declared once.
struct TableShapeOptions: ParsableArguments {
    @RepeatedOption(valueName: "column=type",
                    help: "Load a column as this type: \(LogicalType.allCases.map(\.rawValue).joined(separator: ", ")).")
    var type: [TypeAssignment]
    @RepeatedOption(valueName: "column[,column...]", help: "Build an index over these columns after the rows (kept on refresh).")
    var index: [IndexColumns]
    @Option(valueName: "column[,column...]",
            help: "Build a full-text index over these columns, for select --search (SQLite FTS5 table T_fts, PostgreSQL "
                + "tsvector column _search; kept on refresh).")
    var fts: IndexColumns?
    @Option(valueName: "column[,column...]",
            help: "The table's key instead of _id: one column or a compound; sync upserts by it (kept on refresh).")
    var pk: IndexColumns?
    @RepeatedOption(valueName: "spec",
                    help: "Extract columns into a lookup table: COLUMN[,COLUMN...][:LOOKUP][+count][+distinct=OTHER][+prune] "
                        + "(see socload extract; kept on refresh).")
    var extract: [String]
    @Option(valueName: "warn|fail|evolve",
            help: "When a refresh finds the columns, key, lookups or child tables changed: warn (take the new shape and "
                + "print each change), fail (change nothing, exit 65) or evolve (keep the old columns: new ones added, "
                + "gone ones NULL, renamed ones under their old name). Every change is logged (info TABLE --changes).",
            default: "warn; fail for load --mode append|upsert")
    var onSchemaChange: SchemaChangePolicy?
    @Option(valueName: "n", help: "The change log keeps the row changes of the table's last N refreshes (socload changes; "
                                + "kept on refresh).", default: String(RowChangeLog.defaultKeptRefreshes))
    var keepChanges: Int?
    @Flag(help: "Keep every version of every row in TABLE_history, with _valid_from and _valid_to (kept on refresh).")
    var history: Bool
    @Flag(help: "Make the SQLite file a GeoPackage that GIS programs open (also: a --db path ending in .gpkg; kept after).")
    var geopackage: Bool
    @Option(valueName: "column", help: "In a GeoPackage: the location, point, line or polygon column that is the table's "
                                + "geometry (kept on refresh).", default: "the first")
    var geometry: String?

    /// `--keep-changes`, checked.
    func keptChangeRefreshes(command: CommandSpec) throws -> Int? {
        guard let keepChanges else { return nil }
        guard keepChanges >= 0 else {
            throw UsageError("--keep-changes needs a number of refreshes (0 keeps none), not \(keepChanges)", command: command)
        }
        return keepChanges
    }

    /// `--type`s by column (the last one given for a column wins).
    var typeOverrides: [String: LogicalType] {
        Dictionary(type.map { ($0.column, $0.type) }, uniquingKeysWith: { _, last in last })
    }

    /// The `--extract` specs, read (a `PlanError` for a bad one).
    func extractions() throws -> [Extraction] {
        try extract.map(Extraction.init(spec:))
    }

    /// These options as the load's `TableOptions`, with the command's own `--distribute-by` and
    /// `--strict`; `policy` is what no `--on-schema-change` means for it. A bad `--extract` or
    /// `--keep-changes` is a usage error of `command`.
    func tableOptions(distributeBy: String?, strict: Bool, policy: SchemaChangePolicy = .warn,
                      command: CommandSpec) throws -> TableOptions {
        var options = TableOptions()
        options.typeOverrides = typeOverrides
        options.primaryKey = pk?.names
        options.indexes = index.map(\.names)
        options.fullTextColumns = fts?.names
        options.distributeBy = distributeBy
        options.geometryColumn = geometry
        options.onSchemaChange = onSchemaChange ?? policy
        options.keptChangeRefreshes = try keptChangeRefreshes(command: command)
        options.keepsHistory = history
        options.strict = strict
        do {
            options.extractions = try extractions()
        } catch let error as PlanError {
            throw UsageError(error.description, command: command)
        }
        return options
    }
}

/// The `--format` option shared by the commands that print results.
struct FormatOptions: ParsableArguments {
    @Option(valueName: "format", help: "Output format: \(OutputFormat.names).", default: "table on a terminal, csv otherwise")
    var format: OutputFormat?

    func writer(_ context: CommandContext) -> any ResultWriter {
        OutputFormat.resolve(format, output: context.output).makeWriter(output: context.output)
    }
}
