import Foundation
import SocloadDatabase
import SocloadProject
import SocloadSocrata

/// The `socload` command: finds the subcommand, parses its arguments, runs it, and turns any
/// error into one line on standard error and a sysexits exit code.
enum SocloadTool {
    static var commands: [any Command.Type] { [
        FetchCommand.self, RefreshCommand.self, StatusCommand.self, ReportCommand.self, ArchiveCommand.self, SearchCommand.self, LoadCommand.self, SyncCommand.self, QueryCommand.self, SelectCommand.self, ExportCommand.self, TablesCommand.self, DatasetteCommand.self, SchemaCommand.self,
        InfoCommand.self, ChangesCommand.self, VerifyCommand.self, ExtractCommand.self, RecountCommand.self, DropCommand.self,
        CompletionCommand.self,
    ] }

    static let rootSpec = CommandSpec(
        name: "",
        abstract: "Turn Socrata open-data portals into local SQLite databases and shared PostgreSQL ones.",
        discussion: """
            Fetch a dataset into a typed SQLite table, then ask it questions:

              socload fetch n5m4-mism
              socload query "select name, agency from n5m4_mism limit 5"
            """)

    private static let helpSpec = CommandSpec(
        name: "help", abstract: "Show help for a command.",
        arguments: [ArgumentSpec(name: "subcommand", help: "The command to show help for.", isOptional: true)],
        options: [.flag("markdown", help: "Print the reference of every command as Markdown (docs/cli.md).")])

    static func main(arguments: [String], environment: [String: String]) -> ExitCode {
        let output = OutputSink(descriptor: 1)
        defer { output.flush() }
        let context = CommandContext(output: output, environment: environment)
        do {
            let code = try dispatch(arguments, context: context)
            if let reason = context.statements.reason { return report(reason, output: output) }
            return code
        } catch let error as UsageError {
            reportUsageError(error)
            return .usage
        } catch {
            if let reason = context.statements.reason { return report(reason, output: output) }
            output.flush()
            let (message, code) = describe(error)
            StandardError.line("Error: " + oneLine(message))
            return code
        }
    }

    /// A statement stopped by a signal or `--timeout`: what was printed stays, the reason follows.
    private static func report(_ reason: StatementWatch.Reason, output: OutputSink) -> ExitCode {
        output.flush()
        let (message, code) = StatementWatch.failure(for: reason)
        StandardError.line("Error: " + message)
        return code
    }

    private static func dispatch(_ arguments: [String], context: CommandContext) throws -> ExitCode {
        guard let first = arguments.first else {
            context.output.write(rootHelp)
            return .success
        }
        switch first {
        case "-h", "--help":
            context.output.write(rootHelp)
            return .success
        case "--version":
            context.output.write("socload \(SocloadVersion.current)\n")
            return .success
        case "help":
            let rest = Array(arguments.dropFirst())
            if case .run(let parsed) = try ArgumentParser.parse(rest, for: helpSpec), parsed.flag("markdown") {
                context.output.write(CommandReference.markdown(root: rootSpec, commands: commands.map { $0.spec }))
                return .success
            }
            guard case .run(let parsed) = try ArgumentParser.parse(rest, for: helpSpec),
                  let name = parsed.positionals.first
            else {
                context.output.write(rest.isEmpty ? rootHelp : HelpFormatter.help(for: helpSpec))
                return .success
            }
            if name == "help" {
                context.output.write(HelpFormatter.help(for: helpSpec))
                return .success
            }
            guard let command = command(named: name) else {
                throw UsageError("Unknown command '\(name)'" + NearestName.hint(name, among: commands.map { $0.spec.name }), command: nil)
            }
            context.output.write(HelpFormatter.help(for: command.spec))
            return .success
        default:
            guard let command = command(named: first) else {
                throw UsageError(first.hasPrefix("-") ? "Unknown option '\(first)'"
                                 : "Unknown command '\(first)'" + NearestName.hint(first, among: commands.map { $0.spec.name }),
                                 command: nil)
            }
            switch try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.spec) {
            case .help:
                context.output.write(HelpFormatter.help(for: command.spec))
            case .run(let parsed):
                try command.run(parsed, context: context)
            }
            return .success
        }
    }

    private static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }

    static var rootHelp: String {
        HelpFormatter.help(for: rootSpec, subcommands: commands.map { $0.spec } + [helpSpec],
                           extraOptions: [("--version", "Show the version.")])
    }

    /// `Error: ...` and where to find help: two lines on standard error (the usage line of a
    /// command with many options is longer than the error; `--help` prints it).
    private static func reportUsageError(_ error: UsageError) {
        StandardError.line("Error: " + oneLine(error.message))
        StandardError.line("  See 'socload \(error.command.map { $0.name + " " } ?? "")--help' for more information.")
    }

    /// The message and exit code for an error from a command.
    static func describe(_ error: any Error) -> (String, ExitCode) {
        switch error {
        case let failure as CommandFailure:
            return (failure.message, failure.exitCode)
        case let error as DatabaseError:
            return (error.description, .ioError)
        case let error as RowDecodingError:
            return (error.description, .dataError)
        case let error as ProjectError:
            return (error.description, error.isMissing ? .noInput : .configuration)
        case let error as CredentialsFileError:
            return (error.description, .configuration)
        case let error as UnknownDatasetName:
            return (error.description, .usage)
        case let failure as LoadFailure:
            return (failure.description, describe(failure.underlying).1)
        case let error as any CategorizedError:
            return (error.description, exitCode(for: error.kind))
        default:
            return (String(describing: error), .software)
        }
    }

    static func exitCode(for kind: FailureKind) -> ExitCode {
        switch kind {
        case .usage: return .usage
        case .badData: return .dataError
        case .missingInput: return .noInput
        case .unavailable: return .unavailable
        case .database: return .ioError
        case .interrupted(let signal): return signal == SIGTERM ? .terminated : .interrupted
        case .notPermitted: return .noPermission
        case .timedOut: return .timedOut
        case .fileSystem: return .ioError
        }
    }

    /// The longest message, in characters: a longer one keeps its start and its end (which says
    /// what became of the database) around " ... ", cut between words.
    static let longestMessage = 300

    /// Messages are one line: runs of white space (newlines in SQL, say) become one space, and any
    /// other control character is shown escaped; at most `longestMessage` characters.
    static func oneLine(_ message: String) -> String {
        let collapsed = message.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\t" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        let escaped = TerminalText.escaped(collapsed)
        guard escaped.count > longestMessage else { return escaped }
        let tail = 80
        var start = escaped.prefix(longestMessage - tail - 5)
        var end = escaped.suffix(tail)
        // Between words, unless a word is too long for that to keep anything of it.
        if let space = start.lastIndex(of: " "), start.distance(from: space, to: start.endIndex) < 40 { start = start[..<space] }
        if let space = end.firstIndex(of: " "), end.distance(from: end.startIndex, to: space) < 40 {
            end = end[end.index(after: space)...]
        }
        return String(start) + " ... " + String(end)
    }
}
