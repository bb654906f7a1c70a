/// A value an argument or option can be converted to. A text that does not convert is a usage
/// error naming the option and `expectation`: `--limit takes a whole number, not 'x'`.
protocol ExpressibleByArgument {
    init?(argument: String)
    /// What the option takes, in words.
    static var expectation: String { get }
}

extension String: ExpressibleByArgument {
    init?(argument: String) { self = argument }
    static var expectation: String { "a text" }
}

extension Int: ExpressibleByArgument {
    /// Counts: whole numbers from 0.
    init?(argument: String) {
        guard let value = Int(argument), value >= 0 else { return nil }
        self = value
    }

    static var expectation: String { "a whole number" }
}

/// A duration in seconds (`--timeout 2.5`): a number above 0, at most a year.
struct Seconds: ExpressibleByArgument {
    let value: Double

    init?(argument: String) {
        guard let value = Double(argument), value.isFinite, value > 0, value <= 366 * 86_400 else { return nil }
        self.value = value
    }

    static var expectation: String { "a number of seconds above 0" }
}

/// How one slot appears in help and usage.
enum SlotDeclaration {
    case option(OptionSpec)
    case argument(ArgumentSpec)
}

/// The storage behind one typed property: its declaration, then its parsed value.
protocol ArgumentSlot: AnyObject {
    var name: String { get set }
    var declaration: SlotDeclaration { get }
    func assign(from arguments: ParsedArguments, positionals: inout ArraySlice<String>, command: CommandSpec) throws
}

protocol SlotWrapper {
    var slot: any ArgumentSlot { get }
}

protocol OptionGroupWrapper {
    var group: any ParsableArguments { get }
}

/// Converts option text to a value, or throws the usage error that names the option.
func convert<Value: ExpressibleByArgument>(_ text: String, option: String, command: CommandSpec) throws -> Value {
    guard let value = Value(argument: text) else {
        throw UsageError("\(option) takes \(Value.expectation), not '\(text)'", command: command)
    }
    return value
}

final class OptionSlot<Value: ExpressibleByArgument>: ArgumentSlot {
    var name: String
    let short: Character?
    let valueName: String
    let help: String
    let defaultDescription: String?
    let isRepeatable: Bool
    var values: [Value] = []

    init(name: String, short: Character?, valueName: String, help: String, defaultDescription: String?, isRepeatable: Bool) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.defaultDescription = defaultDescription
        self.isRepeatable = isRepeatable
    }

    var declaration: SlotDeclaration {
        .option(OptionSpec(name: name, short: short, valueName: valueName, help: help,
                           defaultDescription: defaultDescription, isRepeatable: isRepeatable))
    }

    func assign(from arguments: ParsedArguments, positionals: inout ArraySlice<String>, command: CommandSpec) throws {
        values = try arguments.values(name).map { try convert($0, option: "--\(name)", command: command) }
    }
}

final class FlagSlot: ArgumentSlot {
    var name: String
    let short: Character?
    let help: String
    var isSet = false

    init(name: String, short: Character?, help: String) {
        self.name = name
        self.short = short
        self.help = help
    }

    var declaration: SlotDeclaration { .option(OptionSpec(name: name, short: short, valueName: nil, help: help)) }

    func assign(from arguments: ParsedArguments, positionals: inout ArraySlice<String>, command: CommandSpec) throws {
        isSet = arguments.flag(name)
    }
}

final class PositionalSlot<Value: ExpressibleByArgument>: ArgumentSlot {
    var name: String
    let help: String
    let isOptional: Bool
    var value: Value?

    init(name: String, help: String, isOptional: Bool) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
    }

    var declaration: SlotDeclaration { .argument(ArgumentSpec(name: name, help: help, isOptional: isOptional)) }

    func assign(from arguments: ParsedArguments, positionals: inout ArraySlice<String>, command: CommandSpec) throws {
        guard let text = positionals.popFirst() else { return }
        value = try convert(text, option: "<\(name)>", command: command)
    }
}

/// An option with a value: `--db <path>`; nil when not given.
///
/// Its default is typed where it is one value, as swift-argument-parser has it: the value and
/// `--help`'s `(default: 4)` come from the one declaration,
///
///     @Option(valueName: "n", help: "Datasets loaded at once.") var jobs: Int = 4
///
/// and is prose only where it depends on the context (`var db: String?` with
/// `default: "$SOCLOAD_DB, else socload.sqlite"`), the command deciding when it is nil.
@propertyWrapper
struct Option<Value: ExpressibleByArgument>: SlotWrapper {
    private let storage: OptionSlot<Value>
    private let initial: Value
    var slot: any ArgumentSlot { storage }
    var wrappedValue: Value { storage.values.last ?? initial }

    /// An option with a typed default, shown in help.
    init(wrappedValue: Value, name: String = "", short: Character? = nil, valueName: String, help: String) {
        initial = wrappedValue
        storage = OptionSlot(name: name, short: short, valueName: valueName, help: help,
                             defaultDescription: wrappedValue.argumentText, isRepeatable: false)
    }

    /// An option that is nil when not given; `defaultDescription` says in words what that means.
    init<Wrapped>(name: String = "", short: Character? = nil, valueName: String, help: String,
                  default defaultDescription: String? = nil) where Value == Wrapped? {
        initial = nil
        storage = OptionSlot(name: name, short: short, valueName: valueName, help: help, defaultDescription: defaultDescription,
                             isRepeatable: false)
    }
}

extension Optional: ExpressibleByArgument where Wrapped: ExpressibleByArgument {
    init?(argument: String) {
        guard let value = Wrapped(argument: argument) else { return nil }
        self = .some(value)
    }

    static var expectation: String { Wrapped.expectation }
}

extension ExpressibleByArgument {
    /// The value as the command line writes it (an enum's raw value): how help shows a default.
    var argumentText: String {
        if let raw = self as? any RawRepresentable { return "\(raw.rawValue)" }
        return "\(self)"
    }
}

/// An option that may be given several times: `--param <value> ...`; in the order given.
@propertyWrapper
struct RepeatedOption<Value: ExpressibleByArgument>: SlotWrapper {
    private let storage: OptionSlot<Value>
    var slot: any ArgumentSlot { storage }
    var wrappedValue: [Value] { storage.values }

    init(name: String = "", valueName: String, help: String) {
        storage = OptionSlot(name: name, short: nil, valueName: valueName, help: help, defaultDescription: nil, isRepeatable: true)
    }
}

/// A flag: `--force`, true when given.
@propertyWrapper
struct Flag: SlotWrapper {
    private let storage: FlagSlot
    var slot: any ArgumentSlot { storage }
    var wrappedValue: Bool { storage.isSet }

    init(name: String = "", short: Character? = nil, help: String) {
        storage = FlagSlot(name: name, short: short, help: help)
    }
}

/// A required positional argument: `<table>`. The parser checks that it was given before `run`
/// is called, so it is a plain `String`, never optional (the empty text only before parsing).
@propertyWrapper
struct Argument: SlotWrapper {
    private let storage: PositionalSlot<String>
    var slot: any ArgumentSlot { storage }
    var wrappedValue: String { storage.value ?? "" }

    init(name: String, help: String) {
        storage = PositionalSlot(name: name, help: help, isOptional: false)
    }
}

/// The last positional arguments, any number of them: `<dataset> ...`. With `minimum` 1 the
/// parser requires the first.
@propertyWrapper
struct Arguments: SlotWrapper {
    private let storage: VariadicSlot
    var slot: any ArgumentSlot { storage }
    var wrappedValue: [String] { storage.values }

    init(name: String, help: String, minimum: Int = 1) {
        storage = VariadicSlot(name: name, help: help, isOptional: minimum == 0)
    }
}

final class VariadicSlot: ArgumentSlot {
    var name: String
    let help: String
    let isOptional: Bool
    var values: [String] = []

    init(name: String, help: String, isOptional: Bool) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
    }

    var declaration: SlotDeclaration {
        .argument(ArgumentSpec(name: name, help: help, isOptional: isOptional, isVariadic: true))
    }

    func assign(from arguments: ParsedArguments, positionals: inout ArraySlice<String>, command: CommandSpec) throws {
        values = Array(positionals)
        positionals = []
    }
}

/// A group of options shared by several commands (`DatabaseOptions`, `NetworkOptions`).
@propertyWrapper
struct OptionGroup<Group: ParsableArguments>: OptionGroupWrapper {
    var wrappedValue: Group
    var group: any ParsableArguments { wrappedValue }

    init(wrappedValue: Group) {
        self.wrappedValue = wrappedValue
    }
}
