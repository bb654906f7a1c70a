import SocloadDatabase
import SocloadSocrata

/// `socload sync TABLE_OR_ID`: only the rows changed upstream since the last fetch.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "sync",
        abstract: "Bring a fetched table up to date with only the rows changed since (SODA 2.1).",
        discussion: """
            Asks the portal for rows whose :updated_at is later than the newest _updated_at in the table
            and inserts or updates them by their key, in one transaction. With --deletes, the rows the
            portal no longer has are deleted too: only the keys the portal has now are listed (paged),
            never every row again; --max-deletes refuses a sync that would delete more (exit 65, nothing
            changed), and a portal that lists no rows at all never empties a table unless
            --max-deletes 100%. If the dataset's columns changed, sync stops and says how.
            """)

    @Argument(name: "table-or-id", help: "A table fetched before (n5m4_mism), or its dataset id.") var tableOrID: String
    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var network = NetworkOptions()
    @OptionGroup var paging = PagingOptions()
    @RepeatedOption(valueName: "column[,column...]", help: "Also build an index over these columns (kept on refresh).")
    var index: [IndexColumns]
    @Flag(help: "Also delete the rows the portal no longer has (by listing only its current keys).") var deletes: Bool
    @Option(valueName: "N|P%", help: "With --deletes: refuse to delete more than N rows, or P% of the table.")
    var maxDeletes: DeletionLimit?
    @Flag(help: "Keep every version of every row in TABLE_history from now on (kept by later refreshes).") var history: Bool
    @Option(valueName: "dir", help: "Keep the version the sync brings the table to in this download cache (as fetch --cache does): "
                + "the version it started from, linked, and the pages the sync received, as a BagIt bag.",
            default: "the project's \"cache\" when the database is the project's")
    var cache: String?
    @Option(valueName: "n", help: "With --cache: keep the last N versions of the dataset (the oldest removed).")
    var keepVersions: Int?
    @Option(valueName: "fail|evolve",
            help: "When the portal changed the table's columns: fail (change nothing, exit 65) or evolve (keep the table's "
                + "columns: new ones added, gone ones NULL in the synced rows, renamed ones under their old name).")
    var onSchemaChange: SchemaChangePolicy = .fail
    @Flag(short: "q", help: "Print only errors and warnings: no progress, no summary.") var quiet: Bool
    @Flag(help: "Print one JSON object on standard output (status, table, rows, changes, error).") var json: Bool

    func run(context: CommandContext) throws {
        let session = try LoadSetup.openExistingForLoading(database, network: network, quiet: quiet,
                                                             context, command: Self.spec)
        defer { session.finish() }
        if maxDeletes != nil, !deletes {
            throw UsageError("--max-deletes limits --deletes: give --deletes too", command: Self.spec)
        }
        if let keepVersions {
            if keepVersions < 1 { throw UsageError("--keep-versions needs a number above 0", command: Self.spec) }
            if cache == nil { throw UsageError("--keep-versions says how many versions --cache keeps: give --cache DIR too", command: Self.spec) }
        }
        try DatasetReport.reporting(json, dataset: tableOrID, context, {
            try Self.sync(tableOrID, session: session, pageSize: paging.rows, indexes: index.map(\.names), deletes: deletes,
                          maxDeletes: maxDeletes, history: history, schemaPolicy: try Self.policy(onSchemaChange),
                          cache: try cache.map { DownloadCache(directory: $0, keptVersions: keepVersions) } ?? database.projectCache(context))
        }) { DatasetReport(dataset: tableOrID, sync: $0) }
    }

    static func sync(_ tableOrID: String, session: LoadSetup.Session, pageSize: Int, indexes: [[String]] = [],
                     deletes: Bool = false, maxDeletes: DeletionLimit? = nil, history: Bool = false,
                     schemaPolicy: SchemaChangePolicy = .fail, cache: DownloadCache? = nil) throws -> SyncSummary {
        let summary: SyncSummary
        do {
            summary = try session.loader.sync(tableOrID, pageSize: pageSize, indexes: indexes, deletes: deletes,
                                              maxDeletes: maxDeletes, history: history, schemaPolicy: schemaPolicy, cache: cache)
        } catch let error as PlanError {
            session.meter.clear()
            throw UsageError(error.description, command: Self.spec)
        } catch {
            session.meter.clear()
            throw LoadFailure(underlying: error, table: LoadPlan.tableName(forDatasetID: tableOrID))
        }
        session.meter.clear()
        let changed = summary.inserted + summary.updated
        // What arrived: new keys, and keys the table had (whether their values differ is the
        // fingerprints' to say, on the "Refreshed" line: a portal that ignores $where sends
        // every row again, all of them unchanged).
        session.inform("Synced \(summary.tableName): \(NumberText.grouped(changed)) row\(changed == 1 ? "" : "s") received "
                           + "(\(NumberText.grouped(summary.inserted)) new, \(NumberText.grouped(summary.updated)) already there)"
                           + (summary.deleted.map { ", \(NumberText.grouped($0)) deleted" } ?? "")
                           + (summary.since.map { " since \($0)" } ?? "")
                           + ", \(NumberText.counted(summary.rowCount, "row")) in all, in \(NumberText.seconds(summary.elapsed))")
        if let changes = summary.rowChanges {
            session.inform("Refreshed \(TerminalText.escaped(summary.tableName)): \(changes.summary)")
        }
        DatasetFetch.reportInvalidCells(summary.invalidCells)
        for change in summary.schemaChanges {
            StandardError.line("Warning: " + SocloadTool.oneLine("\(change.table): \(change.evolvedLine)"))
        }
        for note in summary.notes {
            StandardError.line("Warning: " + SocloadTool.oneLine(note))
        }
        return summary
    }

    /// A sync cannot take a new shape on its own: `fail` or `evolve`.
    static func policy(_ policy: SchemaChangePolicy?) throws -> SchemaChangePolicy {
        guard policy != .warn else {
            throw UsageError("sync cannot take a new shape: --on-schema-change fail (the default) or evolve; "
                             + "a fetch takes the new shape", command: spec)
        }
        return policy ?? .fail
    }
}

extension DeletionLimit: ExpressibleByArgument {
    static var expectation: String { "a number of rows (500) or a percentage of the table (5%)" }
}
