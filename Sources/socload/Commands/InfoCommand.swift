import SocloadCore

/// `socload info TABLE_OR_ID`: what the catalog knows about a loaded table; `--columns`, one row
/// per column with the portal's statistics next to the table's.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "info", abstract: "Show where a loaded table came from: dataset, source, time, row count, columns.",
        discussion: """
            Without --columns: one row per fact (field, value). With --changes: one row per change of
            the table's shape a refresh made (see --on-schema-change). With --columns: one row per column
            — its logical type, the portal field it came from, the cells set in the table, and where
            the portal gave them its own counts and bounds, with the statements that disagree
            (see socload verify).
            """)

    @Argument(name: "table-or-id", help: "A table name (n5m4_mism) or a dataset id (n5m4-mism).") var tableOrID: String
    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()
    @Flag(help: "One row per column, with the portal's statistics beside the table's.") var columns: Bool
    @Flag(help: "One row per schema change refreshes made (time, kind, name, before, after), oldest first.") var changes: Bool
    @Flag(help: "One row per load, refresh and sync of the table (time, kind, source, version stamps, rows, schema "
              + "changes, rows synced and deleted, seconds), oldest first.")
    var refreshes: Bool
    @Flag(help: "The data dictionary: one row per column with the portal's display name, type, description and format "
              + "(with --format markdown, the dataset's description, attribution, license and tags above).")
    var dictionary: Bool

    func run(context: CommandContext) throws {
        let writer = output.writer(context)
        let loaded = try database.openLoaded(context, command: Self.spec)
        let tableOrID = try database.loadedName(tableOrID, in: loaded)
        let database = loaded
        guard let entry = try database.entry(for: tableOrID) else {
            throw CommandFailure.notInCatalog(tableOrID, in: database.place)
        }
        // The set cells of each column and the table against the portal's statistics.
        let measure = { (entry: CatalogEntry, table: PlanTable) throws -> ([String: DatabaseValue], PortalVerification?) in
            guard try database.tableExists(entry.tableName) else { throw LoadError.tableMissing(entry.tableName) }
            let counts = try database.nonNullCounts(of: entry.tableName, columns: table.columns.map(\.name))
            return (counts.mapValues { .integer(Int64($0)) }, try database.verify(entry.tableName))
        }
        if [columns, changes, dictionary, refreshes].filter({ $0 }).count > 1 {
            throw UsageError("--columns, --changes, --refreshes and --dictionary are views of their own: give one",
                             command: Self.spec)
        }
        if refreshes {
            return try writeRefreshes(of: entry.tableName, database: database, to: writer)
        }
        if dictionary {
            return try writeDictionary(of: entry, markdown: output.format == .markdown, context: context, to: writer)
        }
        if columns {
            try writeColumns(of: entry, measure: measure, to: writer)
            return
        }
        if changes {
            writer.begin(columns: ["changed_at", "kind", "name", "before", "after"])
            for recorded in try database.schemaChanges(of: entry.tableName) {
                let change = recorded.change
                writer.write([.text(recorded.changedAt), .text(change.kind.rawValue), .text(change.name),
                              change.before.map { .text($0) } ?? .null, change.after.map { .text($0) } ?? .null])
            }
            writer.finish()
            return
        }
        let fields: [(String, DatabaseValue)] = [
            ("table", .text(entry.tableName)),
            ("dataset_id", entry.datasetID.map { .text($0) } ?? .null),
            ("domain", entry.domain.map { .text($0) } ?? .null),
            ("name", entry.name.map { .text($0) } ?? .null),
            ("source", .text(entry.sourceURL)),
            ("fetched_at", .text(entry.fetchedAt)),
            ("rows_updated_at", entry.rowsUpdatedAt.map { .text($0) } ?? .null),
            ("rows", .integer(Int64(entry.rowCount))),
            ("columns", entry.plan.map { .integer(Int64($0.mainTable.storedColumns.count)) } ?? .null),
            ("etag", entry.etag.map { .text($0) } ?? .null),
            ("last_modified", entry.lastModified.map { .text($0) } ?? .null),
            ("key", entry.plan.map { .text($0.mainTable.primaryKey.joined(separator: ",")) } ?? .null),
            ("lookups", entry.plan.map { plan in .text(plan.mainTable.lookups.map { "\($0.foreignKey) → \($0.table)" }
                .joined(separator: ", ")) } ?? .null),
            ("invalid_cells", .text(entry.invalidCells.isEmpty ? "none" : entry.invalidCells.map(\.summary).joined(separator: "\n"))),
            ("partial", entry.partialReason.map { .text($0) } ?? .null),
        ] + Self.dictionaryFacts(entry.dictionary)
        if output.format == .json || output.format == .ndjson {
            // One object, field: value (a pipeline reads `.rows`, not a search of pairs).
            let members = fields.map { JSONWriter.quoted($0.0) + ":" + JSONWriter.literal($0.1) }
            context.output.write("{" + members.joined(separator: ",") + "}\n")
            return
        }
        writer.begin(columns: ["field", "value"])
        for (name, value) in fields {
            writer.write([.text(name), value])
        }
        writer.finish()
    }
}
