/// A mistake in how the command was called: reported with the usage line and exit 64.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    let command: CommandSpec?

    init(_ message: String, command: CommandSpec?) {
        self.message = message
        self.command = command
    }

    var description: String { message }
}
