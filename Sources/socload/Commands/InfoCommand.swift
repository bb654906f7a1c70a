import SocloadDatabase
import SocloadSocrata
import SocloadSQLite

/// `socload info TABLE_OR_ID`: what the catalog knows about a loaded table.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "info", abstract: "Show where a loaded table came from: dataset, source, time, row count, columns.")

    @Argument(name: "table-or-id", help: "A table name (n5m4_mism) or a dataset id (n5m4-mism).") var tableOrID: String?
    @OptionGroup var database = DatabaseOptions()
    @OptionGroup var output = FormatOptions()

    func run(context: CommandContext) throws {
        let key = tableOrID ?? ""
        let writer = try output.writer(context, command: Self.spec)
        let queue = try database.openExisting(context, command: Self.spec)
        let entry = try queue.read { db in try SQLiteCatalog(db: db).entry(for: key) }
        guard let entry else {
            throw CommandFailure("no table or dataset '\(TerminalText.escaped(key))' in the catalog of '\(queue.path)'",
                                 exitCode: .noInput)
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
            ("etag", entry.etag.map { .text($0) } ?? .null),
            ("last_modified", entry.lastModified.map { .text($0) } ?? .null),
            ("columns", .text(entry.columnMappingJSON)),
            ("key", entry.plan.map { .text($0.mainTable.primaryKey.joined(separator: ",")) } ?? .null),
            ("invalid_cells", .text(entry.invalidCells.isEmpty ? "none" : entry.invalidCells.map(\.summary).joined(separator: "\n"))),
        ]
        writer.begin(columns: ["field", "value"])
        for (name, value) in fields {
            writer.write([.text(name), value])
        }
        writer.finish()
    }
}
