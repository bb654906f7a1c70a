import SocloadDatabase
import SocloadPostgreSQL
import SocloadSQLite

/// `socload drop TABLE`: removes a loaded table and its catalog entry in one transaction.
struct DropCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "drop",
        abstract: "Remove a loaded table and its catalog entry.",
        discussion: """
            The table and its entry in _socload_datasets go in one transaction: both or neither.
            Use this rather than query --write 'drop table ...', which would leave the entry behind.
            """)

    @Argument(name: "table-or-id", help: "A table name (n5m4_mism) or a dataset id (n5m4-mism).") var tableOrID: String?
    @OptionGroup var database = DatabaseOptions()

    func run(context: CommandContext) throws {
        let key = tableOrID ?? ""
        if let (connectionString, schema) = try database.postgreSQL(context, command: Self.spec) {
            let database = PostgreSQLDatabase(connection: try database.connect(connectionString, context), schema: schema)
            let dropped: String?
            do {
                dropped = try database.drop(key)
            } catch let error as PostgreSQLDatabaseError {
                throw UsageError(error.description, command: Self.spec)
            }
            guard let dropped else {
                throw CommandFailure("no table or dataset '\(TerminalText.escaped(key))' in schema \(schema) of "
                                     + connectionString.redacted, exitCode: .noInput)
            }
            StandardError.line("Dropped \(TerminalText.escaped(dropped))")
            return
        }
        let queue = try database.openExisting(context, command: Self.spec, acceptsChanges: true)
        let dropped: String?
        do {
            dropped = try queue.write { db in try SQLiteCatalog(db: db).drop(key) }
            queue.checkpoint()
        } catch let error as SQLiteCatalogError {
            throw UsageError(error.description, command: Self.spec)
        }
        guard let dropped else {
            throw CommandFailure("no table or dataset '\(TerminalText.escaped(key))' in '\(queue.path)'", exitCode: .noInput)
        }
        StandardError.line("Dropped \(TerminalText.escaped(dropped))")
    }
}
