import Foundation
import SocloadCore

/// A project file's dataset entry made into the `fetch` command line it stands for, each key
/// checked on its own (so an error names it) and then the whole line (options that clash).
enum ProjectEntryArguments {
    static func dataset(_ entry: JSONValue, number: Int, defaults: [JSONMember], common: [String],
                        path: String) throws -> ProjectFile.Dataset {
        var place = "dataset \(number)"
        guard case .object(let members) = entry else {
            throw ProjectFileError(path: path, place: place, key: nil, problem: "must be an object such as {\"id\": \"abcd-1234\"}")
        }
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            throw ProjectFileError(path: path, place: place, key: member.key, problem: "is given twice")
        }
        let references = members.filter { ProjectFile.referenceKeys.contains($0.key) }
        guard references.count == 1, let referenceMember = references.first else {
            throw ProjectFileError(path: path, place: place, key: nil,
                                   problem: references.isEmpty ? "names no dataset: give \"id\", \"url\" or \"file\""
                                       : "names its dataset twice (\(references.map(\.key).joined(separator: ", "))): give one")
        }
        let written = try ProjectFile.text(referenceMember.value, path: path, place: place, key: referenceMember.key)
        place += " (\(written))"
        let reference = referenceMember.key == "file" ? ProjectFile.relativeToProject(written, path) : written
        let name = try members.first { $0.key == "name" }.map { try ProjectFile.text($0.value, path: path, place: place, key: "name") }
        let own = members.filter { !ProjectFile.referenceKeys.contains($0.key) && $0.key != "name" }
        let inherited = defaults.filter { option in !own.contains { $0.key == option.key } }
        let options = try self.options(inherited, path: path, place: "defaults") + self.options(own, path: path, place: place)
        let arguments = common + options + ["--", reference]
        do {
            _ = try FetchCommand.parsed(arguments)
        } catch let error as UsageError {
            throw ProjectFileError(path: path, place: place, key: nil, problem: "cannot be fetched as given: " + error.message)
        }
        let table = try own.first { $0.key == "table" }.map { try ProjectFile.text($0.value, path: path, place: place, key: "table") }
        return ProjectFile.Dataset(name: name ?? table ?? written, arguments: arguments,
                                   aliases: [table, written].compactMap { $0 })
    }

    /// `--key=value` for each member (the `=` form, so a value that starts with dashes stays a
    /// value), each checked by `fetch`'s parser alone.
    static func options(_ members: [JSONMember], path: String, place: String) throws -> [String] {
        let specs = FetchCommand.spec.options
        var arguments: [String] = []
        for member in members {
            let key = member.key
            if key == "db" {
                throw ProjectFileError(path: path, place: place, key: key, problem: "is the project's: give it once as \"database\"")
            }
            guard !ProjectFile.commandOnlyOptions.contains(key), let spec = specs.first(where: { $0.name == key }) else {
                throw ProjectFileError(path: path, place: place, key: key,
                                       problem: "is not an option of fetch" + (NearestName.to(key, among: specs.map(\.name)
                                            .filter { !ProjectFile.commandOnlyOptions.contains($0) }).map { " (did you mean \"\($0)\"?)" }
                                            ?? " (socload fetch --help lists them; write them without the dashes)"))
            }
            let these = try optionArguments(member, spec: spec, path: path, place: place)
            do {
                _ = try FetchCommand.parsed(these + ["--", "abcd-1234"])
            } catch let error as UsageError {
                throw ProjectFileError(path: path, place: place, key: key, problem: "is wrong: " + error.message)
            }
            arguments += these
        }
        return arguments
    }

    private static func optionArguments(_ member: JSONMember, spec: OptionSpec, path: String, place: String) throws -> [String] {
        let key = member.key
        if spec.isFlag {
            guard case .bool(let isSet) = member.value else {
                throw ProjectFileError(path: path, place: place, key: key, problem: "takes true or false")
            }
            return isSet ? ["--" + key] : []
        }
        if spec.isRepeatable {
            guard case .array(let values) = member.value else {
                throw ProjectFileError(path: path, place: place, key: key, problem: "takes a list, such as [\"a\", \"b\"]")
            }
            return try values.map { "--\(key)=" + (try scalar($0, key: key, path: path, place: place)) }
        }
        return ["--\(key)=" + (try scalar(member.value, key: key, path: path, place: place))]
    }

    private static func scalar(_ value: JSONValue, key: String, path: String, place: String) throws -> String {
        switch value {
        case .string(let text): return text
        case .number(let text): return text
        default: throw ProjectFileError(path: path, place: place, key: key, problem: "takes a text or a number")
        }
    }
}
