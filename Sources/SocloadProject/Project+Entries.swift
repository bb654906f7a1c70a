import Foundation
import SocloadCore
import SocloadSocrata

/// What every entry of a project file shares: the file, its domain and cache, its defaults.
struct EntryContext {
    let path: String
    let domain: String?
    let cache: String?
    var keepVersions: Int? = nil
    let defaults: [JSONMember]

    /// A dataset entry decoded: its spec (the file's domain and cache unless it gives its own),
    /// its connection, and the names it is known by.
    func dataset(_ entry: JSONValue, place number: String, checkingDefaults: Bool = false) throws(ProjectError) -> Project.Dataset {
        var place = number
        guard case .object(let members) = entry else {
            throw ProjectError(path: path, place: place, problem: "must be an object such as {\"id\": \"abcd-1234\"}")
        }
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            throw ProjectError(path: path, place: place, key: member.key, problem: "is given twice")
        }
        let references = members.filter { Project.referenceKeys.contains($0.key) }
        if members.contains(where: { $0.key == "document" }) {
            throw ProjectError(path: path, place: place, key: "document",
                               problem: "is for socload load: a project's entries name datasets (\"id\", \"url\" or \"file\")")
        }
        guard references.count == 1, let reference = references.first else {
            throw ProjectError(path: path, place: place, problem: references.isEmpty ? "names no dataset: give \"id\", \"url\" or \"file\""
                               : "names its dataset twice (\(references.map(\.key).joined(separator: ", "))): give one")
        }
        let written = try Project.text(reference.value, path: path, place: place, key: reference.key)
        if !checkingDefaults { place += " (\(written))" }
        let name = try members.first { $0.key == "name" }.map { member throws(ProjectError) in
            try Project.text(member.value, path: path, place: place, key: "name")
        }
        let own = members.filter { $0.key != "name" }
        var spec = try self.spec(own, place: place)
        if reference.key == "file" {
            spec.source = .dataset(Project.relativeToProject(written, path))
            // A file is read whole: the query APIs' options have no portal to go to.
            if let portalOnly = (members + defaults).first(where: { ["where", "select", "order"].contains($0.key) })?.key
                ?? ([.soda2, .soda3].contains(spec.api) ? "api" : nil) {
                throw ProjectError(path: path, place: place, key: portalOnly,
                                   problem: "needs a dataset on a portal (an \"id\" with a domain, or a \"url\"), not a \"file\"")
            }
        }
        let connection = try self.connection(own, place: place)
        let expected = try self.expected(own, place: place)
        // Also known by the dataset id its file name or URL holds (`refresh abcd-1234`).
        let id = DatasetID.inFileName((written as NSString).lastPathComponent)
        var dataset = Project.Dataset(name: name ?? spec.tableName ?? written, spec: spec, connection: connection,
                                      aliases: [spec.tableName, written, id].compactMap { $0 })
        dataset.expected = expected
        dataset.export = try (own.first { $0.key == "export" } ?? defaults.first { $0.key == "export" }).map { member throws(ProjectError) in
            Project.relativeToProject(try Project.text(member.value, path: path, place: members.contains(member) ? place : "defaults",
                                                       key: "export"), path)
        }
        return dataset
    }

    /// `"expect"` of `members` over the defaults': how often the dataset should change.
    func expected(_ members: [JSONMember], place: String) throws(ProjectError) -> UpdateInterval? {
        guard let member = members.first(where: { $0.key == "expect" }) ?? defaults.first(where: { $0.key == "expect" }) else { return nil }
        let at = members.contains(member) ? place : "defaults"
        let text = try Project.text(member.value, path: path, place: at, key: member.key)
        guard let interval = UpdateInterval(exactly: text) else {
            throw ProjectError(path: path, place: at, key: member.key, problem: "is '\(text)', which is no update interval: write hourly, "
                               + "daily, weekly, monthly, quarterly, annually, \"every 2 weeks\" or an ISO 8601 duration such as P3D")
        }
        return interval
    }

    /// The spec of `members` (a source key and options) over the defaults.
    func spec(_ members: [JSONMember], place: String) throws(ProjectError) -> LoadSpec {
        if let database = members.first(where: { $0.key == "db" }) {
            throw ProjectError(path: path, place: place, key: database.key, problem: "is the project's: give it once as \"database\"")
        }
        try checkKeys(members, place: place)
        let options = { (members: [JSONMember]) in
            members.filter { !Project.Connection.keys.contains($0.key) && !Project.watchKeys.contains($0.key) }
        }
        var spec: LoadSpec
        do {
            spec = try LoadSpec(entry: options(members), defaults: options(defaults))
        } catch {
            throw ProjectError(path: path, place: place, key: error.key,
                               problem: error.key == nil ? "cannot be fetched as given: " + error.problem : error.problem)
        }
        if spec.domain == nil { spec.domain = domain }
        if spec.cache == nil { spec.cache = cache }
        if spec.keepVersions == nil { spec.keepVersions = keepVersions }
        if spec.keepVersions != nil, spec.cache == nil {
            throw ProjectError(path: path, place: place, key: "keep-versions",
                               problem: "says how many versions the cache keeps: give \"cache\": DIR too")
        }
        return spec
    }

    /// The options a command takes that say how it runs, not what it loads.
    static let commandKeys: Set<String> = ["jobs", "quiet", "json", "dry-run", "project", "help"]

    /// Every key of `members` is a load option or a connection key (a typo is named, with the
    /// key it was probably meant to be).
    private func checkKeys(_ members: [JSONMember], place: String) throws(ProjectError) {
        let known = LoadSpec.datasetKeys + Project.Connection.keys + Project.watchKeys
        for member in members where !LoadSpec.sourceKeys.contains(member.key) && !known.contains(member.key) {
            if Self.commandKeys.contains(member.key) {
                throw ProjectError(path: path, place: place, key: member.key,
                                   problem: "says how socload refresh runs: give --\(member.key) on its command line, not in the file")
            }
            throw ProjectError(path: path, place: place, key: member.key, problem: "is not an option of fetch" + (NearestName.to(
                member.key, among: known).map { " (did you mean \"\($0)\"?)" } ?? " (socload fetch --help lists them; write them "
                    + "without the dashes)"))
        }
    }

    /// The connection keys of `members` over the defaults'.
    func connection(_ members: [JSONMember], place: String) throws(ProjectError) -> Project.Connection {
        var connection = Project.Connection()
        for member in defaults + members where Project.Connection.keys.contains(member.key) {
            let at = members.contains(member) ? place : "defaults"
            if member.key == "geopackage" {
                guard case .bool(let isSet) = member.value else {
                    throw ProjectError(path: path, place: at, key: member.key, problem: "takes true or false")
                }
                connection.geoPackage = isSet
                continue
            }
            let text = try Project.text(member.value, path: path, place: at, key: member.key)
            switch member.key {
            case "app-token": connection.appToken = text
            case "schema": connection.schema = text
            default:
                guard let retries = Int(text), retries >= 0 else {
                    throw ProjectError(path: path, place: at, key: member.key, problem: "takes a whole number, not '\(text)'")
                }
                connection.retries = retries
            }
        }
        return connection
    }
}
