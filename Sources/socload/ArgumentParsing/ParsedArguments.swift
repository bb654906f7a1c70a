import SocloadCore
/// What the user typed, checked against a `CommandSpec`.
struct ParsedArguments {
    var positionals: [String] = []
    var optionValues: [String: [String]] = [:]
    var flags: Set<String> = []

    /// The last value given for an option (a later `--db` overrides an earlier one).
    func value(_ name: String) -> String? { optionValues[name]?.last }

    /// Every value given for a repeatable option, in order.
    func values(_ name: String) -> [String] { optionValues[name] ?? [] }

    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// The outcome of parsing one command's arguments.
enum ParseResult {
    case run(ParsedArguments)
    case help
}

/// Parses `--opt value`, `--opt=value`, `-h`, flags, positionals and the `--` terminator.
enum ArgumentParser {
    static func parse(_ arguments: [String], for spec: CommandSpec) throws -> ParseResult {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                return .help
            }
            let option: OptionSpec
            var inlineValue: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name: Substring
                if let equals = body.firstIndex(of: "=") {
                    name = body[..<equals]
                    inlineValue = String(body[body.index(after: equals)...])
                } else {
                    name = body
                }
                guard let found = spec.option(named: String(name)) else {
                    throw UsageError("Unknown option '--\(name)'" + NearestName.hint(String(name), among: spec.options.map(\.name), prefix: "--"),
                                     command: spec)
                }
                option = found
            } else if argument.count == 2, let found = spec.option(short: argument.last ?? " ") {
                option = found
            } else if Double(argument) != nil {
                // A negative number such as -5 is a value, not an option.
                parsed.positionals.append(argument)
                continue
            } else {
                throw UsageError("Unknown option '\(argument)'", command: spec)
            }
            if option.isFlag {
                guard inlineValue == nil else {
                    throw UsageError("Option '--\(option.name)' takes no value", command: spec)
                }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("Missing value for '--\(option.name) <\(option.valueName ?? "value")>'", command: spec)
            }
            if !option.isRepeatable, parsed.optionValues[option.name] != nil {
                throw UsageError("Option '--\(option.name)' can only be given once", command: spec)
            }
            parsed.optionValues[option.name, default: []].append(value)
        }
        try checkPositionals(parsed.positionals, for: spec)
        return .run(parsed)
    }

    private static func checkPositionals(_ positionals: [String], for spec: CommandSpec) throws {
        let required = spec.arguments.filter { !$0.isOptional }
        if positionals.count < required.count {
            let missing = required[positionals.count]
            throw UsageError("Missing expected argument '<\(missing.name)>'", command: spec)
        }
        let isVariadic = spec.arguments.last?.isVariadic ?? false
        if !isVariadic, positionals.count > spec.arguments.count {
            throw UsageError("Unexpected argument '\(positionals[spec.arguments.count])'", command: spec)
        }
    }
}
