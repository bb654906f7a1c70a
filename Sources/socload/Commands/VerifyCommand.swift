import SocloadCore

/// `socload verify TABLE`: the loaded table against the portal's own column statistics.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "verify",
        abstract: "Check a loaded table against the portal's own column statistics.",
        discussion: """
            The portal's metadata states, per column, how many cells are set and the smallest and
            largest value at export time. verify prints each statement with what the table holds
            and exits 0 when all agree, 65 listing the differences otherwise: a pipeline can gate
            on it. Counts include the cells stored as NULL because they were not of their type;
            text bounds are checked by membership (the portal orders text its own way). A table
            that is not the whole dataset (--limit, --where, --select, a sync) is not comparable:
            exit 0 with the reason, 65 with --strict. The counts kept on the table's lookups are
            checked against its rows too (65 when they drifted; socload recount repairs them).
            """)

    @Arguments(name: "table-or-id", help: "A table name (n5m4_mism) or a dataset id (n5m4-mism); with --locked, project dataset names.",
               minimum: 0)
    var names: [String]
    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()
    @Flag(help: "Fail (exit 65) when the table cannot be compared with the portal's statistics.") var strict: Bool
    @Flag(help: "Check the project's database against socload.lock instead, without the network.") var locked: Bool

    func validate() throws {
        if !locked, names.count != 1 {
            throw UsageError(names.isEmpty ? "verify needs a table or dataset id (or --locked)" : "verify checks one table (or --locked)",
                             command: Self.spec)
        }
        if locked, database.db != nil { throw UsageError("--locked checks the project's database: leave out --db", command: Self.spec) }
    }

    func run(context: CommandContext) throws {
        if locked { return try LockedVerification.run(project: database.project ?? ProjectDatabase.defaultFile, names: names, output: output, context: context) }
        let writer = output.writer(context)
        let loaded = try database.openLoaded(context, command: Self.spec)
        let tableOrID = try database.loadedName(names[0], in: loaded)
        let database = loaded
        guard let verification = try database.verify(tableOrID) else {
            throw CommandFailure.notInCatalog(tableOrID, in: database.place)
        }
        writer.begin(columns: ["column", "field", "statement", "portal", "table", "agrees"])
        // A table that is not the whole dataset has no statement to hold against: its rows
        // would all differ (said once below instead).
        for result in verification.partialReason == nil ? verification.results : [] {
            writer.write([.text(result.check.columns.joined(separator: ",")), .text(result.check.field),
                          .text(result.check.statement.rawValue), .text(result.check.stated), .text(result.measured),
                          .text(result.agrees ? "yes" : "NO")])
        }
        // The counts its lookups keep, against its rows (not a portal's statement: socload's own).
        for drift in verification.driftedCounts {
            writer.write([.text(drift.countColumn), .text(drift.lookupTable), .text("kept_count"), .text(""),
                          .text("\(drift.rows) lookup row\(drift.rows == 1 ? "" : "s") off"), .text("NO")])
        }
        writer.finish()
        context.output.flush()
        if !verification.driftedCounts.isEmpty {
            let list = verification.driftedCounts.map { "\($0.lookupTable).\($0.countColumn) on \($0.rows) row\($0.rows == 1 ? "" : "s")" }
            throw CommandFailure("the counts kept for \(verification.tableName) drifted from its rows (\(list.shortList())): "
                                 + "socload recount \(verification.tableName) makes them again", exitCode: .dataError)
        }
        if let reason = verification.partialReason {
            let message = "\(verification.tableName) is not comparable with the portal's statistics: \(reason)"
            if strict { throw CommandFailure(message, exitCode: .dataError) }
            StandardError.line("Not comparable: " + message)
            return
        }
        if verification.results.isEmpty {
            let reason = verification.hasPortalDescription
                ? "the portal's metadata for \(verification.tableName) states no column statistics"
                : "\(verification.tableName) was loaded without the portal's metadata (load --metadata VIEW.json gives it)"
            // A gate that asked for a check must not pass on none.
            if strict { throw CommandFailure("nothing to compare: " + reason, exitCode: .dataError) }
            StandardError.line("Nothing to compare: " + reason)
            return
        }
        let differences = verification.differenceLines
        guard differences.isEmpty else {
            throw CommandFailure("\(differences.count) of \(verification.results.count) statements of the portal differ from "
                                 + "\(verification.tableName): " + differences.joined(separator: "; "), exitCode: .dataError)
        }
    }
}
