import Foundation
import SocloadCore
import SocloadSocrata

/// A project entry that names a catalog search instead of one dataset:
///
///     {"search": {"domain": "data.example.org", "category": "Transportation", "q": "bus"},
///      "options": {"page-size": 10000}, "name": "transport"}
///
/// Each refresh asks the catalog (the Discovery API, `$SOCLOAD_CATALOG` or the search's own
/// `"catalog"`) and refreshes every dataset it lists (tables named by their ids) with the
/// entry's options. A dataset that was loaded through the search and is no longer listed is
/// reported at every refresh, its table kept as it was: never dropped silently.
struct ProjectSearch {
    /// How `refresh NAME`, the closing table and the lock call the search: `name`, else `search N`.
    let name: String
    let search: CatalogSearch
    let catalog: String?
    /// The `fetch` arguments of each dataset found, before `--domain`, `--` and its id.
    let arguments: [String]

    /// The keys of a search entry, and of its `search` object.
    static let entryKeys: Set<String> = ["search", "options", "name"]
    static let searchKeys: Set<String> = ["q", "domain", "category", "catalog"]
    /// The most datasets one search brings (the catalog pages 100 at a time).
    static let maximumResults = 10_000

    static func entry(_ members: [JSONMember], number: Int, defaults: [JSONMember], common: [String], domain: String?,
                      path: String) throws -> ProjectSearch {
        var place = "dataset \(number)"
        for member in members where !entryKeys.contains(member.key) {
            throw ProjectFileError(path: path, place: place, key: member.key,
                                   problem: "is not a key of a search entry (\(entryKeys.sorted().joined(separator: ", ")); "
                                       + "fetch options go in \"options\")")
        }
        guard case .object(let fields)? = members.first(where: { $0.key == "search" })?.value else {
            throw ProjectFileError(path: path, place: place, key: "search", problem: "must be an object such as {\"domain\": \"...\", \"q\": \"...\"}")
        }
        var values: [String: String] = [:]
        for field in fields {
            guard searchKeys.contains(field.key) else {
                throw ProjectFileError(path: path, place: place, key: "search." + field.key,
                                       problem: "is not a key of a search (\(searchKeys.sorted().joined(separator: ", ")))"
                                       + NearestName.hint(field.key, among: searchKeys.sorted()))
            }
            values[field.key] = try ProjectFile.text(field.value, path: path, place: place, key: "search." + field.key)
        }
        let searchDomain = values["domain"] ?? domain.map(Self.host)
        guard values["q"] != nil || values["category"] != nil || searchDomain != nil else {
            throw ProjectFileError(path: path, place: place, key: "search", problem: "says nothing to look for: give q, category or domain")
        }
        let name = try members.first { $0.key == "name" }.map { try ProjectFile.text($0.value, path: path, place: place, key: "name") }
            ?? "search \(number)"
        place += " (\(name))"
        var options: [JSONMember] = []
        if let value = members.first(where: { $0.key == "options" })?.value {
            guard case .object(let given) = value else {
                throw ProjectFileError(path: path, place: place, key: "options", problem: "must be an object of fetch options")
            }
            options = given
        }
        for option in options where ["table", "name"].contains(option.key) || ProjectFile.referenceKeys.contains(option.key) {
            throw ProjectFileError(path: path, place: place, key: "options." + option.key,
                                   problem: "names one dataset: the datasets of a search are named by their ids")
        }
        let inherited = defaults.filter { option in !options.contains { $0.key == option.key } }
        let arguments = common.filter { !$0.hasPrefix("--domain=") }
            + (try ProjectEntryArguments.options(inherited, path: path, place: "defaults"))
            + (try ProjectEntryArguments.options(options, path: path, place: place))
        do {
            _ = try FetchCommand.parsed(arguments + ["--", "abcd-1234"])
        } catch let error as UsageError {
            throw ProjectFileError(path: path, place: place, key: "options", problem: "cannot be fetched as given: " + error.message)
        }
        let search = CatalogSearch(words: values["q"] ?? "", domain: searchDomain, category: values["category"], limit: 100)
        return ProjectSearch(name: name, search: search, catalog: values["catalog"], arguments: arguments)
    }

    /// `data.example.org` of `https://data.example.org/`; a host as given.
    private static func host(_ domain: String) -> String {
        guard domain.contains("://"), let url = URL(string: domain), let host = url.host else { return domain }
        return host + (url.port.map { ":\($0)" } ?? "")
    }

    /// Every dataset the catalog lists for the search now, as project datasets, paging on.
    func expand(http: HTTPOptions, retry: RetryPolicy, context: CommandContext) throws -> [ProjectFile.Dataset] {
        let host = catalog ?? context.environment["SOCLOAD_CATALOG"].flatMap { $0.isEmpty ? nil : $0 } ?? CatalogSearch.defaultCatalog
        var page = search
        var found: [ProjectFile.Dataset] = []
        while found.count < Self.maximumResults {
            let answer = try page.run(catalog: host, http: http, retry: retry)
            for result in answer.results where result.type == "dataset" && !found.contains(where: { $0.name == result.id }) {
                let domain = result.domain ?? search.domain
                found.append(dataset(id: result.id, domain: domain))
            }
            page.offset += answer.results.count
            if answer.results.count < page.limit || answer.total.map({ page.offset >= $0 }) == true { break }
        }
        return found
    }

    /// The datasets of the search the lock records (`refresh --locked` asks no catalog: the
    /// lock says which datasets the build has).
    func lockedDatasets(_ lock: SocloadLockFile) -> [ProjectFile.Dataset] {
        lock.datasets.filter { $0.value.search == name }.sorted { $0.key < $1.key }.map { name, entry in
            dataset(id: entry.datasetID ?? name, domain: Self.origin(of: entry.sourceURL))
        }
    }

    /// `https://data.example.org` (with a port when there is one) of a source URL.
    private static func origin(of url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, let host = parsed.host else { return nil }
        return "\(scheme)://\(host)" + (parsed.port.map { ":\($0)" } ?? "")
    }

    private func dataset(id: String, domain: String?) -> ProjectFile.Dataset {
        var dataset = ProjectFile.Dataset(name: id, arguments: arguments + (domain.map { ["--domain=" + $0] } ?? []) + ["--", id],
                                          aliases: [LoadPlan.tableName(forDatasetID: id)])
        dataset.search = name
        return dataset
    }
}
