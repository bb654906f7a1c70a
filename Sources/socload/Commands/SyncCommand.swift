import SocloadDatabase
import SocloadSocrata

/// `socload sync TABLE_OR_ID`: only the rows changed upstream since the last fetch.
enum SyncCommand: Command {
    static let spec = CommandSpec(
        name: "sync",
        abstract: "Bring a fetched table up to date with only the rows changed since (SODA 2.1).",
        discussion: """
            Asks the portal for rows whose :updated_at is later than the newest _updated_at in the table
            and inserts or updates them by _id, in one transaction. Rows deleted upstream are not seen:
            run a full fetch to drop them. If the dataset's columns changed, sync stops and says how.
            """,
        arguments: [ArgumentSpec(name: "table-or-id", help: "A table fetched before (n5m4_mism), or its dataset id.")],
        options: [
            DatabaseOption.spec,
            .value("app-token", "token", help: "A Socrata app token, sent as X-App-Token.", default: "$SOCRATA_APP_TOKEN"),
            .value("page-size", "n", help: "Rows per SODA page.", default: "50000"),
            .value("index", "column[,column...]", help: "Also build an index over these columns (kept on refresh).",
                   repeatable: true),
            .value("retries", "n", help: "Retries of a failed request (429, 5xx, resets, timeouts).", default: "5"),
            .flag("quiet", short: "q", help: "Show no progress."),
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let pageSize = try LoadOptions.positiveInteger(arguments, "page-size", command: spec) ?? 50_000
        try DatabaseOption.requireExisting(arguments, context)
        let session = try LoadOptions.session(arguments, context, command: spec)
        defer { session.finish() }
        let indexes = arguments.values("index").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        try sync(arguments.positionals[0], session: session, pageSize: pageSize, indexes: indexes)
    }

    static func sync(_ tableOrID: String, session: LoadOptions.Session, pageSize: Int, indexes: [[String]] = []) throws {
        let summary: SyncSummary
        do {
            summary = try session.loader.sync(tableOrID, pageSize: pageSize, indexes: indexes)
        } catch let error as PlanError {
            session.meter.clear()
            throw UsageError(error.description, command: spec)
        } catch {
            session.meter.clear()
            throw FetchFailure(underlying: error, table: LoadPlan.tableName(forDatasetID: tableOrID))
        }
        session.meter.clear()
        let changed = summary.inserted + summary.updated
        StandardError.line("Synced \(summary.tableName): \(NumberText.grouped(changed)) changed row\(changed == 1 ? "" : "s") "
                           + "(\(NumberText.grouped(summary.inserted)) new, \(NumberText.grouped(summary.updated)) updated)"
                           + (summary.since.map { " since \($0)" } ?? "")
                           + ", \(NumberText.grouped(summary.rowCount)) rows in all, in \(NumberText.seconds(summary.elapsed))")
        FetchCommand.reportInvalidCells(summary.invalidCells)
    }
}
