/// Commands declare their arguments and options as typed properties, in swift-argument-parser's
/// style:
///
///     struct TablesCommand: ParsableCommand {
///         static let configuration = CommandConfiguration(name: "tables", abstract: "List the tables.")
///         @OptionGroup var database = DatabaseOptions()
///         @Option(valueName: "format", help: "Output format.") var format: OutputFormat?
///         func run(context: CommandContext) throws { ... }
///     }
///
/// The properties are found by reflection, in declaration order (names from the property:
/// `pageSize` is `--page-size`); the help text and the parser come from them, each value is
/// converted to its type in one place (`ExpressibleByArgument`), and `validate()` checks what
/// depends on several options. No command reads a value by name.
protocol ParsableCommand: Command, ParsableArguments {
    static var configuration: CommandConfiguration { get }
    /// Checks across options, after every value is converted; throw `UsageError` (exit 64).
    mutating func validate() throws
    func run(context: CommandContext) throws
}

/// A set of options that can stand alone in a command (`@OptionGroup`) or be a command.
protocol ParsableArguments {
    init()
}

/// What a command is, apart from its options.
struct CommandConfiguration {
    let name: String
    let abstract: String
    var discussion: String?
}

extension ParsableCommand {
    mutating func validate() throws {}

    static var spec: CommandSpec {
        var spec = CommandSpec(name: configuration.name, abstract: configuration.abstract,
                               discussion: configuration.discussion)
        for slot in ArgumentSlots.slots(of: Self()) {
            switch slot.declaration {
            case .option(let option): spec.options.append(option)
            case .argument(let argument): spec.arguments.append(argument)
            }
        }
        return spec
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        try make(arguments).run(context: context)
    }

    /// The command these parsed arguments make, each value converted and `validate()` passed.
    static func make(_ arguments: ParsedArguments) throws -> Self {
        var command = Self()
        let spec = Self.spec
        var positionals = arguments.positionals[...]
        for slot in ArgumentSlots.slots(of: command) {
            try slot.assign(from: arguments, positionals: &positionals, command: spec)
        }
        try command.validate()
        return command
    }

    /// The command as these arguments (those after its name) make it, checked, not run: how a
    /// project file's entry becomes the command line it stands for.
    static func parsed(_ arguments: [String]) throws -> Self {
        guard case .run(let parsed) = try ArgumentParser.parse(arguments, for: spec) else {
            throw UsageError("--help is not an option here", command: spec)
        }
        return try make(parsed)
    }
}

/// Finds the argument and option slots of a command, options groups included, in order.
enum ArgumentSlots {
    static func slots(of value: Any) -> [any ArgumentSlot] {
        var found: [any ArgumentSlot] = []
        for child in Mirror(reflecting: value).children {
            if let wrapper = child.value as? any SlotWrapper {
                let slot = wrapper.slot
                if slot.name.isEmpty, let label = child.label {
                    slot.name = optionName(fromProperty: label.hasPrefix("_") ? String(label.dropFirst()) : label)
                }
                found.append(slot)
            } else if let group = child.value as? any OptionGroupWrapper {
                found += slots(of: group.group)
            }
        }
        return found
    }

    /// `pageSize` → `page-size`.
    static func optionName(fromProperty property: String) -> String {
        var name = ""
        for character in property {
            if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }
}
