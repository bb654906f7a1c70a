/// A command's declared interface: what it is for, its positional arguments and its options.
/// Help text and parsing both come from this one description.
struct CommandSpec {
    let name: String
    let abstract: String
    var discussion: String?
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []

    /// The full invocation, such as `socload query`.
    var commandPath: String { name.isEmpty ? "socload" : "socload \(name)" }

    /// `socload query <sql> [--db <path>] [--format <format>] [--param <value> ...]`
    var usage: String {
        var parts = [commandPath]
        for argument in arguments {
            var text = "<\(argument.name)>"
            if argument.isVariadic { text += " ..." }
            parts.append(argument.isOptional ? "[\(text)]" : text)
        }
        for option in options {
            var text = "--\(option.name)"
            if let valueName = option.valueName { text += " <\(valueName)>" }
            if option.isRepeatable { text += " ..." }
            parts.append("[\(text)]")
        }
        return parts.joined(separator: " ")
    }

    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }
}

/// A positional argument.
struct ArgumentSpec {
    let name: String
    let help: String
    var isOptional = false
    var isVariadic = false
}

/// A `--name value` option, or a `--name` flag when it takes no value.
struct OptionSpec {
    let name: String
    var short: Character?
    /// The placeholder shown in help (`<path>`); nil for a flag.
    var valueName: String?
    let help: String
    /// Shown in help as `(default: ...)`.
    var defaultDescription: String?
    var isRepeatable = false

    var isFlag: Bool { valueName == nil }

    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    static func value(_ name: String, _ valueName: String, help: String, default defaultDescription: String? = nil,
                      repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, defaultDescription: defaultDescription,
                   isRepeatable: repeatable)
    }
}
