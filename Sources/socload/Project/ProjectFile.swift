import Foundation
import SocloadCore

/// `socload.json`: the database a project fills and the datasets `socload refresh` keeps fresh.
///
///     {"database": "open.sqlite", "domain": "data.example.org", "defaults": {"page-size": 10000},
///      "datasets": [{"id": "n5m4-mism", "table": "nominations", "extract": ["agency+count"]},
///                   {"url": "https://data.example.org/d/abcd-1234", "on-schema-change": "fail"}]}
///
/// An entry names its dataset by `id`, `url` or `file`, and takes `fetch`'s options by their long
/// names without the dashes (`defaults` gives them to every entry; an entry's own value wins). A
/// flag takes true or false, a repeatable option a list. Each entry becomes the `fetch` command
/// line it stands for, checked by the same parser, so a value means in the file what it means on
/// the command line; an unknown key or a value of the wrong kind is an error naming the file,
/// the entry and the key (exit 78).
struct ProjectFile {
    /// One dataset of the project, as the `fetch` arguments it stands for.
    struct Dataset {
        /// How `refresh NAME` and messages name it: `name`, else `table`, else the id, URL or file.
        let name: String
        /// The arguments after `fetch`: the options, then `--` and the reference.
        let arguments: [String]
        /// What else `refresh NAME` knows it by: its table and its id, URL or file as written.
        var aliases: [String] = []
        /// The search entry that found it (`ProjectSearch`), when a search did.
        var search: String?

        func isCalled(_ text: String) -> Bool { name == text || aliases.contains(text) }
    }

    let path: String
    /// The entries that name one dataset each.
    let datasets: [Dataset]
    /// The entries that name a catalog search (expanded by `ProjectExpansion`).
    var searches: [ProjectSearch] = []
    /// `"cache": DIR`, relative to the project file's folder: every version downloaded is kept there.
    var cache: String?

    /// The keys of the file itself.
    static let fileKeys: Set<String> = ["database", "domain", "cache", "defaults", "datasets"]
    /// Keys that name an entry's dataset, and its own name.
    static let referenceKeys = ["id", "url", "file"]
    /// `fetch` options an entry may not set: the file's `database` names the database for all,
    /// and how a refresh prints is the command's.
    static let commandOnlyOptions: Set<String> = ["db", "project", "quiet", "dry-run", "help", "json"]

    /// The project at `path`, every entry checked as the `fetch` it stands for.
    static func load(_ path: String) throws -> ProjectFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(FileManager.default.fileExists(atPath: path)
                                 ? "\(path) cannot be read" : "\(path) does not exist (a project file names the database "
                                   + "and datasets; see socload refresh --help)", exitCode: .noInput)
        }
        let root: JSONValue
        do {
            root = try JSONValueParser.parse(Array(data))
        } catch {
            throw ProjectFileError(path: path, place: nil, key: nil, problem: "is not JSON: \(error.description)")
        }
        guard case .object(let members) = root else {
            throw ProjectFileError(path: path, place: nil, key: nil, problem: "must be a JSON object")
        }
        var fields: [String: JSONValue] = [:]
        for member in members {
            guard fileKeys.contains(member.key) else {
                throw ProjectFileError(path: path, place: nil, key: member.key,
                                       problem: "is not a key of a project file (\(fileKeys.sorted().joined(separator: ", ")))"
                                           + NearestName.hint(member.key, among: fileKeys.sorted()))
            }
            guard fields.updateValue(member.value, forKey: member.key) == nil else {
                throw ProjectFileError(path: path, place: nil, key: member.key, problem: "is given twice")
            }
        }
        var common: [String] = []
        if let database = fields["database"] {
            common += ["--db=" + relativeToProject(try text(database, path: path, place: nil, key: "database"), path)]
        }
        if let domain = fields["domain"] {
            common += ["--domain=" + (try text(domain, path: path, place: nil, key: "domain"))]
        }
        let cache = try fields["cache"].map { relativeToProject(try text($0, path: path, place: nil, key: "cache"), path) }
        if let cache { common += ["--cache=" + cache] }
        var defaults: [JSONMember] = []
        if let value = fields["defaults"] {
            guard case .object(let members) = value else {
                throw ProjectFileError(path: path, place: nil, key: "defaults", problem: "must be an object of fetch options")
            }
            defaults = members
            for member in members where referenceKeys.contains(member.key) || member.key == "name" || member.key == "table" {
                throw ProjectFileError(path: path, place: "defaults", key: member.key, problem: "names one dataset: give it in its entry")
            }
            _ = try ProjectEntryArguments.options(members, path: path, place: "defaults")
        }
        guard case .array(let entries)? = fields["datasets"] else {
            throw ProjectFileError(path: path, place: nil, key: "datasets",
                                   problem: fields["datasets"] == nil ? "is missing (a list of datasets)" : "must be a list of datasets")
        }
        var datasets: [Dataset] = []
        var searches: [ProjectSearch] = []
        let domain = try fields["domain"].map { try text($0, path: path, place: nil, key: "domain") }
        for (index, entry) in entries.enumerated() {
            if case .object(let members) = entry, members.contains(where: { $0.key == "search" }) {
                let search = try ProjectSearch.entry(members, number: index + 1, defaults: defaults, common: common, domain: domain,
                                                     path: path)
                if searches.contains(where: { $0.name == search.name }) || datasets.contains(where: { $0.isCalled(search.name) }) {
                    throw ProjectFileError(path: path, place: "dataset \(index + 1)", key: "name",
                                           problem: "is '\(search.name)', which another entry is called")
                }
                searches.append(search)
                continue
            }
            let dataset = try ProjectEntryArguments.dataset(entry, number: index + 1, defaults: defaults, common: common, path: path)
            if let clash = datasets.first(where: { $0.isCalled(dataset.name) || dataset.isCalled($0.name) })
                ?? searches.first(where: { dataset.isCalled($0.name) }).map({ Dataset(name: $0.name, arguments: []) }) {
                throw ProjectFileError(path: path, place: "dataset \(index + 1)", key: nil,
                                       problem: "has the name '\(clash.name)' another entry has (give one a \"name\" or \"table\")")
            }
            datasets.append(dataset)
        }
        return ProjectFile(path: path, datasets: datasets, searches: searches, cache: cache)
    }

    /// A relative file path in the project is relative to the project file's folder, wherever
    /// `refresh` runs from; a URL (`postgresql://...`, `file:...`) or an absolute path as written.
    static func relativeToProject(_ location: String, _ projectPath: String) -> String {
        if location.hasPrefix("/") || location.contains("://") || location.lowercased().hasPrefix("file:") { return location }
        let folder = (projectPath as NSString).deletingLastPathComponent
        return folder.isEmpty ? location : (folder as NSString).appendingPathComponent(location)
    }

    /// A string, or a number as written.
    static func text(_ value: JSONValue, path: String, place: String?, key: String) throws -> String {
        switch value {
        case .string(let text) where !text.isEmpty: return text
        case .number(let text): return text
        default: throw ProjectFileError(path: path, place: place, key: key, problem: "must be a text")
        }
    }
}

/// What is wrong with a project file, and where: `socload.json: dataset 2 (n5m4-mism), key
/// "page-size": --page-size takes a whole number from 1, not 'x'`.
struct ProjectFileError: Error, CustomStringConvertible {
    let path: String
    /// `dataset 2 (n5m4-mism)`, `defaults`; nil for the file's own keys.
    let place: String?
    let key: String?
    let problem: String

    var description: String {
        var text = path
        if let place { text += ": " + place }
        if let key { text += (place == nil ? ": " : ", ") + "key \"\(key)\"" }
        return text + " " + problem
    }
}
