import Foundation
import SocloadCore
import SocloadPostgreSQL
import SocloadSocrata

/// `socload.json`: the database a project fills and the datasets `socload refresh` (or
/// `Project.refresh` from Swift) keeps fresh.
///
///     {"database": "open.sqlite", "domain": "data.example.org", "defaults": {"page-size": 10000},
///      "datasets": [{"id": "n5m4-mism", "table": "nominations", "extract": ["agency+count"]},
///                   {"url": "https://data.example.org/d/abcd-1234", "on-schema-change": "fail"}]}
///
/// An entry names its dataset by `id`, `url` or `file` and decodes into a `LoadSpec`: its other
/// keys are `fetch`'s options by their long names without the dashes (`defaults` gives them to
/// every entry; an entry's own value wins), a flag takes true or false, a repeatable option a
/// list. `app-token`, `retries`, `schema` and `geopackage` say how the portal and the database
/// are reached (`Connection`). An unknown key or a value of the wrong kind is a `ProjectError`
/// naming the file, the entry and the key.
///
///     let project = try Project.load("socload.json")
///     let results = try project.refresh()
public struct Project: Sendable {
    /// One dataset of the project: what to load and how to reach it.
    public struct Dataset: Sendable {
        /// How `refresh NAME` and messages name it: `name`, else `table`, else the id, URL or file.
        public let name: String
        public var spec: LoadSpec
        public var connection: Connection
        /// What else `refresh NAME` knows it by: its table and its id, URL or file as written.
        public var aliases: [String] = []
        /// The search entry that found it (`ProjectSearch`), when a search did.
        public var search: String?
        /// How often it should change (`"expect"`): what `status` and `refresh` call it stale by,
        /// before what the portal states or the refresh log shows (`DatasetWatch`).
        public var expected: UpdateInterval?
        /// `"export"`: the folder (relative to the project file's) a refresh that changed the
        /// table writes it to as Parquet (`TABLE.parquet`, GeoParquet for a table with a
        /// geometry), with its data package.
        public var export: String?
        /// When the catalog says its data last changed (`data_updated_at`), for a dataset a
        /// search found: a refresh compares it with the table's `rowsUpdatedAt` before asking
        /// the portal.
        public var catalogDataUpdatedAt: String?

        public func isCalled(_ text: String) -> Bool { name == text || aliases.contains(text) }
    }

    /// How a dataset's portal and database are reached: the entry keys that are no load option.
    public struct Connection: Sendable, Hashable {
        /// A Socrata app token (`"app-token"`); nil: `$SOCRATA_APP_TOKEN`, if set.
        public var appToken: String?
        /// Retries of a failed request (`"retries"`).
        public var retries: Int?
        /// The PostgreSQL schema (`"schema"`).
        public var schema: String?
        /// Make the SQLite file a GeoPackage (`"geopackage"`).
        public var geoPackage = false

        public init() {}

        /// The keys of a connection.
        public static let keys = ["app-token", "retries", "schema", "geopackage"]
    }

    public let path: String
    /// `"database"`: a SQLite file (relative to the project file's folder) or a PostgreSQL URL;
    /// nil: none named.
    public var database: String?
    /// `"cache"`, relative to the project file's folder: every version downloaded is kept there.
    public var cache: String?
    /// The entries that name one dataset each.
    public var datasets: [Dataset]
    /// The entries that name a catalog search (see `selection`).
    public var searches: [ProjectSearch] = []

    /// Entry keys that say how a dataset is watched or exported, not how it loads.
    public static let watchKeys = ["expect", "export"]

    /// The keys of the file itself.
    public static let fileKeys: Set<String> = ["database", "domain", "cache", "keep-versions", "defaults", "datasets"]
    /// Keys that name an entry's dataset.
    public static let referenceKeys = ["id", "url", "file"]

    /// The project at `path`, every entry decoded and checked.
    public static func load(_ path: String) throws(ProjectError) -> Project {
        try Project(path: path, members: members(ofFile: path))
    }

    /// The top-level members of the project file at `path` (`hint` is added to a "not JSON"
    /// message): what `load` reads, and what a command reads of a project it only opens the
    /// database of.
    public static func members(ofFile path: String, hint: String = "") throws(ProjectError) -> [JSONMember] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProjectError(path: path, problem: FileManager.default.fileExists(atPath: path) ? "cannot be read"
                               : "does not exist (a project file names the database and datasets; see socload refresh --help)",
                               isMissing: true)
        }
        let root: JSONValue
        do {
            root = try JSONValueParser.parse(Array(data))
        } catch {
            throw ProjectError(path: path, problem: "is not JSON: \(error.description)" + hint)
        }
        guard case .object(let members) = root else { throw ProjectError(path: path, problem: "must be a JSON object") }
        return members
    }

    private init(path: String, members: [JSONMember]) throws(ProjectError) {
        self.path = path
        var fields: [String: JSONValue] = [:]
        for member in members {
            guard Self.fileKeys.contains(member.key) else {
                throw ProjectError(path: path, key: member.key, problem: "is not a key of a project file ("
                                   + Self.fileKeys.sorted().joined(separator: ", ") + ")"
                                   + NearestName.hint(member.key, among: Self.fileKeys.sorted()))
            }
            guard fields.updateValue(member.value, forKey: member.key) == nil else {
                throw ProjectError(path: path, key: member.key, problem: "is given twice")
            }
        }
        let text = { (key: String) throws(ProjectError) -> String? in
            guard let value = fields[key] else { return nil }
            return try Self.text(value, path: path, place: nil, key: key)
        }
        database = try text("database").map { Self.relativeToProject($0, path) }
        cache = try text("cache").map { Self.relativeToProject($0, path) }
        let keepVersions = try text("keep-versions").map { (value: String) throws(ProjectError) -> Int in
            guard let number = Int(value), number > 0 else {
                throw ProjectError(path: path, key: "keep-versions", problem: "takes a number above 0, not '\(value)'")
            }
            return number
        }
        if keepVersions != nil, cache == nil {
            throw ProjectError(path: path, key: "keep-versions", problem: "says how many versions the cache keeps: give \"cache\": DIR too")
        }
        let context = EntryContext(path: path, domain: try text("domain"), cache: cache, keepVersions: keepVersions,
                                   defaults: try Self.defaults(fields, path))
        if let database, PostgreSQLConnectionString(database) == nil,
           let place = context.defaults.contains(where: { $0.key == "schema" }) ? "defaults" : nil {
            throw ProjectError(path: path, place: place, key: "schema",
                               problem: "is for a PostgreSQL database (\"database\": \"postgresql://...\"), not a SQLite file")
        }
        guard case .array(let entries)? = fields["datasets"] else {
            throw ProjectError(path: path, key: "datasets",
                               problem: fields["datasets"] == nil ? "is missing (a list of datasets)" : "must be a list of datasets")
        }
        datasets = []
        var tables: [String: Int] = [:] // a table named by an entry → the entry's number
        for (index, entry) in entries.enumerated() {
            let place = "dataset \(index + 1)"
            if case .object(let members) = entry, members.contains(where: { $0.key == "search" }) {
                let search = try ProjectSearch(members, number: index + 1, context: context)
                if searches.contains(where: { $0.name == search.name }) || datasets.contains(where: { $0.isCalled(search.name) }) {
                    throw ProjectError(path: path, place: place, key: "name", problem: "is '\(search.name)', which another entry is called")
                }
                searches.append(search)
                continue
            }
            let dataset = try context.dataset(entry, place: place)
            if dataset.connection.schema != nil, let database, PostgreSQLConnectionString(database) == nil {
                throw ProjectError(path: path, place: place, key: "schema",
                                   problem: "is for a PostgreSQL database (\"database\": \"postgresql://...\"), not a SQLite file")
            }
            if let table = dataset.spec.tableName?.lowercased(), let other = tables[table] {
                throw ProjectError(path: path, place: place, problem: "loads the table '\(dataset.spec.tableName ?? table)', as "
                                   + "dataset \(other) does (give one another \"table\")")
            }
            if let table = dataset.spec.tableName?.lowercased() { tables[table] = index + 1 }
            if let clash = datasets.first(where: { $0.isCalled(dataset.name) || dataset.isCalled($0.name) })?.name
                ?? searches.first(where: { dataset.isCalled($0.name) })?.name {
                throw ProjectError(path: path, place: place, problem: "is known as '\(clash)' (by its name, table, id, URL or file), "
                                   + "as another entry is (give one another \"name\" or \"table\")")
            }
            datasets.append(dataset)
        }
    }

    /// `"defaults"`, each key checked as an entry's would be.
    private static func defaults(_ fields: [String: JSONValue], _ path: String) throws(ProjectError) -> [JSONMember] {
        guard let value = fields["defaults"] else { return [] }
        guard case .object(let members) = value else {
            throw ProjectError(path: path, key: "defaults", problem: "must be an object of fetch options")
        }
        for member in members where referenceKeys.contains(member.key) || ["name", "table", "document"].contains(member.key) {
            throw ProjectError(path: path, place: "defaults", key: member.key, problem: "names one dataset: give it in its entry")
        }
        // Checked as an entry of this file would be: with its cache, if it has one.
        let cache = if case .string(let folder)? = fields["cache"] { folder } else { nil as String? }
        let context = EntryContext(path: path, domain: nil, cache: cache, defaults: [])
        _ = try context.dataset(.object([JSONMember(key: "id", value: .string("abcd-1234"))] + members), place: "defaults",
                                checkingDefaults: true)
        return members
    }

    /// A relative file path in the project is relative to the project file's folder, wherever
    /// the refresh runs from; a URL (`postgresql://...`, `file:...`) or an absolute path as written.
    public static func relativeToProject(_ location: String, _ projectPath: String) -> String {
        if location.hasPrefix("/") || location.contains("://") || location.lowercased().hasPrefix("file:") { return location }
        let folder = (projectPath as NSString).deletingLastPathComponent
        return folder.isEmpty ? location : (folder as NSString).appendingPathComponent(location)
    }

    /// A member's value as text: a string, or a number as written (else an error naming `key`).
    public static func text(_ value: JSONValue, path: String, place: String?, key: String) throws(ProjectError) -> String {
        switch value {
        case .string(let text) where !text.isEmpty: return text
        case .string: throw ProjectError(path: path, place: place, key: key, problem: "is empty")
        case .number(let text): return text
        default: throw ProjectError(path: path, place: place, key: key, problem: "must be a text")
        }
    }
}
