/// The command reference as Markdown (`socload help --markdown`, kept as `docs/cli.md`): made
/// from the commands' own declarations, as `--help` and the completion scripts are, so the three
/// cannot say different things. A test fails when `docs/cli.md` is not this text.
enum CommandReference {
    static func markdown(root: CommandSpec, commands: [CommandSpec]) -> String {
        var text = """
            # socload command reference

            Made by `socload help --markdown` from the commands' own declarations, the source of
            `--help` and of the completion scripts too (a test holds this file to them). The
            [guide](guide.md) says which command serves which task; this page says what each takes.

            \(root.abstract)

            | command | what it does |
            |---|---|

            """
        for command in commands {
            text += "| [`\(command.name)`](#socload-\(command.name)) | \(cell(command.abstract)) |\n"
        }
        for command in commands {
            text += "\n" + section(command)
        }
        text += "\nEvery command takes `-h` / `--help`; `socload help <command>` prints the same, and "
            + "`socload --version` the version.\n"
        return text
    }

    private static func section(_ command: CommandSpec) -> String {
        var text = "## socload \(command.name)\n\n\(command.abstract)\n\n```text\n\(command.usage)\n```\n"
        if let discussion = command.discussion {
            text += "\n```text\n\(discussion)\n```\n"
        }
        if !command.arguments.isEmpty {
            text += "\n| argument | what it is |\n|---|---|\n"
            for argument in command.arguments {
                let name = "<\(argument.name)>" + (argument.isVariadic ? " ..." : "")
                text += "| `\(name)`\(argument.isOptional ? " (optional)" : "") | \(cell(argument.help)) |\n"
            }
        }
        if !command.options.isEmpty {
            text += "\n| option | what it does | default |\n|---|---|---|\n"
            for option in command.options {
                var label = option.short.map { "`-\($0)`, " } ?? ""
                label += "`--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "") + "`"
                if option.isRepeatable { label += " (repeatable)" }
                text += "| \(label) | \(cell(option.help)) | \(option.defaultDescription.map(cell) ?? "") |\n"
            }
        }
        return text
    }

    /// Text for a table cell: `|` escaped, on one line.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
