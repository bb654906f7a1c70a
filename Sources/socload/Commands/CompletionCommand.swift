/// `socload completion SHELL`: prints a completion script for bash, zsh or fish, made from the
/// same declarations as the help (`CompletionScript`).
struct CompletionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "completion",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        discussion: """
            bash:  source <(socload completion bash)   (or save it in /etc/bash_completion.d/socload)
            zsh:   socload completion zsh > "${fpath[1]}/_socload"   (or: source <(socload completion zsh))
            fish:  socload completion fish > ~/.config/fish/completions/socload.fish
            """)

    @Argument(name: "shell", help: "bash, zsh or fish.") var shell: String

    func run(context: CommandContext) throws {
        guard let which = CompletionScript.Shell(rawValue: shell.lowercased()) else {
            throw UsageError("completion takes bash, zsh or fish, not '\(shell)'", command: Self.spec)
        }
        context.output.write(CompletionScript.script(for: which, commands: SocloadTool.commands.map { $0.spec }))
    }
}
