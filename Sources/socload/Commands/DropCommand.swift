import SocloadCore

/// `socload drop TABLE`: removes a loaded table and its catalog entry in one transaction.
struct DropCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "drop",
        abstract: "Remove a loaded table and its catalog entry.",
        discussion: """
            The table and its entry in _socload_datasets go in one transaction: both or neither.
            Use this rather than query --write 'drop table ...', which would leave the entry behind.
            """)

    @Argument(name: "table-or-id", help: "A table name (n5m4_mism) or a dataset id (n5m4-mism).") var tableOrID: String
    @OptionGroup var database = DatabaseOptions()

    func run(context: CommandContext) throws {
        let database = try database.openLoaded(context, command: Self.spec, acceptsChanges: true)
        let dropped: String?
        do {
            dropped = try database.drop(tableOrID)
        } catch let error as ReadError {
            throw UsageError(error.description, command: Self.spec)
        }
        guard let dropped else {
            throw CommandFailure("no table or dataset '\(TerminalText.escaped(tableOrID))' in \(database.place)", exitCode: .noInput)
        }
        StandardError.line("Dropped \(TerminalText.escaped(dropped))")
    }
}
