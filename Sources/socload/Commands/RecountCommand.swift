import SocloadCore

/// `socload recount TABLE`: the counts a table's lookups keep, made again from its rows.
struct RecountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "recount",
        abstract: "Make the counts a table's lookups keep again from its rows.",
        discussion: """
            socload keeps lookup counts (extract --count, --count-distinct) right with triggers.
            A write those triggers cannot see — another client's INSERT OR REPLACE without
            PRAGMA recursive_triggers, say — leaves them off, and verify says so. recount sets
            every count from the rows again (and prunes a +prune lookup), in one transaction.
            """)

    @Argument(name: "table", help: "A table with lookups (n5m4_mism), or its dataset id.") var table: String
    @OptionGroup var database = DatabaseOptions()

    func run(context: CommandContext) throws {
        let database = try database.openLoaded(context, command: Self.spec, acceptsChanges: true)
        guard let entry = try database.entry(for: table, withDescription: false), let plan = entry.plan else {
            throw CommandFailure.notInCatalog(table, in: database.place)
        }
        guard try database.tableExists(entry.tableName) else { throw LoadError.tableMissing(entry.tableName) }
        try Self.requireLookups(plan.mainTable)
        let name = entry.tableName
        let repaired = try database.recount(plan.mainTable)
        let rows = repaired.reduce(0) { $0 + $1.rows }
        StandardError.line(TerminalText.escaped("Recounted the lookups of \(name): "
                                                + (rows == 0 ? "every count was right" : "\(rows) count\(rows == 1 ? "" : "s") corrected")))
    }

    private static func requireLookups(_ table: PlanTable) throws {
        guard table.lookups.contains(where: { !$0.keptCounts.isEmpty || $0.prune }) else {
            throw CommandFailure("\(table.name) keeps no counts: it has no lookup with --count, --count-distinct or --prune",
                                 exitCode: .usage)
        }
    }
}
