/// Formats help in the layout of swift-argument-parser: OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS, with labels in a 26-column gutter.
enum HelpFormatter {
    private static let gutter = 26

    static func help(for spec: CommandSpec, subcommands: [CommandSpec] = [], extraOptions: [(String, String)] = []) -> String {
        var text = "OVERVIEW: \(spec.abstract)\n"
        if let discussion = spec.discussion {
            text += "\n\(discussion)\n"
        }
        text += "\nUSAGE: \(subcommands.isEmpty ? spec.usage : "\(spec.commandPath) <subcommand>")\n"
        if !spec.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in spec.arguments {
                text += row("<\(argument.name)>", argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in spec.options {
            var label = option.short.map { "-\($0), " } ?? ""
            label += "--\(option.name)"
            if let valueName = option.valueName { label += " <\(valueName)>" }
            var help = option.help
            if let defaultDescription = option.defaultDescription { help += " (default: \(defaultDescription))" }
            text += row(label, help)
        }
        for (label, help) in extraOptions {
            text += row(label, help)
        }
        text += row("-h, --help", "Show help information.")
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for subcommand in subcommands {
                text += row(subcommand.name, subcommand.abstract)
            }
            text += "\n  See 'socload help <subcommand>' for detailed help.\n"
        }
        return text
    }

    /// One `  label   help` line; a label too long for the gutter puts the help on the next line.
    private static func row(_ label: String, _ help: String) -> String {
        let indented = "  " + label
        if indented.count <= gutter - 2 {
            return indented + String(repeating: " ", count: gutter - indented.count) + help + "\n"
        }
        return indented + "\n" + String(repeating: " ", count: gutter) + help + "\n"
    }
}
