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
public struct ProjectSearch: Sendable {
    /// How `refresh NAME`, the closing table and the lock call the search: `name`, else `search N`.
    public let name: String
    public let search: CatalogSearch
    /// The catalog to ask; nil: `$SOCLOAD_CATALOG`, else `CatalogSearch.defaultCatalog`.
    public let catalog: String?
    /// The spec every dataset found is loaded with (its source and domain set per dataset).
    let spec: LoadSpec
    let connection: Project.Connection

    /// The keys of a search entry, and of its `search` object.
    static let entryKeys: Set<String> = ["search", "options", "name"]
    static let searchKeys: Set<String> = ["q", "domain", "category", "catalog"]
    /// The catalog answers `offset` paging only within its first 10,000 results; past them a
    /// search pages by `scroll_id` (ordered by id, after the last id seen).
    public static let offsetWindow = 10_000

    init(_ members: [JSONMember], number: Int, context: EntryContext) throws(ProjectError) {
        let path = context.path
        var place = "dataset \(number)"
        for member in members where !Self.entryKeys.contains(member.key) {
            throw ProjectError(path: path, place: place, key: member.key,
                               problem: "is not a key of a search entry (\(Self.entryKeys.sorted().joined(separator: ", "))); "
                                   + "fetch options go in \"options\")")
        }
        guard case .object(let fields)? = members.first(where: { $0.key == "search" })?.value else {
            throw ProjectError(path: path, place: place, key: "search", problem: "must be an object such as {\"domain\": \"...\", \"q\": \"...\"}")
        }
        var values: [String: String] = [:]
        for field in fields {
            guard Self.searchKeys.contains(field.key) else {
                throw ProjectError(path: path, place: place, key: "search." + field.key,
                                   problem: "is not a key of a search (\(Self.searchKeys.sorted().joined(separator: ", ")))"
                                       + NearestName.hint(field.key, among: Self.searchKeys.sorted()))
            }
            values[field.key] = try Project.text(field.value, path: path, place: place, key: "search." + field.key)
        }
        let searchDomain = values["domain"] ?? context.domain.map(Self.host)
        guard values["q"] != nil || values["category"] != nil || searchDomain != nil else {
            throw ProjectError(path: path, place: place, key: "search", problem: "says nothing to look for: give q, category or domain")
        }
        name = try members.first { $0.key == "name" }.map { member throws(ProjectError) in
            try Project.text(member.value, path: path, place: place, key: "name")
        } ?? "search \(number)"
        place += " (\(name))"
        var options: [JSONMember] = []
        if let value = members.first(where: { $0.key == "options" })?.value {
            guard case .object(let given) = value else {
                throw ProjectError(path: path, place: place, key: "options", problem: "must be an object of fetch options")
            }
            options = given
        }
        for option in options where ["table", "name", "document"].contains(option.key) || Project.referenceKeys.contains(option.key) {
            throw ProjectError(path: path, place: place, key: "options." + option.key,
                               problem: "names one dataset: the datasets of a search are named by their ids")
        }
        let entry = EntryContext(path: path, domain: nil, cache: context.cache, keepVersions: context.keepVersions, defaults: context.defaults)
        spec = try entry.spec([JSONMember(key: "id", value: .string("abcd-1234"))] + options, place: place)
        connection = try entry.connection(options, place: place)
        search = CatalogSearch(words: values["q"] ?? "", domain: searchDomain, category: values["category"], limit: 100)
        catalog = values["catalog"]
    }

    /// `data.example.org` of `https://data.example.org/`; a host as given.
    private static func host(_ domain: String) -> String {
        guard domain.contains("://"), let url = URL(string: domain), let host = url.host else { return domain }
        return host + (url.port.map { ":\($0)" } ?? "")
    }

    /// Every dataset the catalog lists for the search now, as project datasets, paging on: by
    /// `offset` within the catalog's first 10,000 results, by `scroll_id` past them (the whole
    /// search again, in id order). Each keeps the catalog's `data_updated_at`, so a refresh can
    /// settle an unchanged dataset without asking its portal. `environment`: where
    /// `$SOCLOAD_CATALOG` is read.
    public func expand(http: HTTPOptions, retry: RetryPolicy,
                       environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [Project.Dataset] {
        let host = catalog ?? environment["SOCLOAD_CATALOG"].flatMap { $0.isEmpty ? nil : $0 } ?? CatalogSearch.defaultCatalog
        var page = search
        var found: [Project.Dataset] = []
        var seen: Set<String> = []
        func take(_ answer: CatalogSearch.Answer) {
            for result in answer.results where result.type == "dataset" && seen.insert(result.id).inserted {
                var dataset = dataset(id: result.id, domain: result.domain ?? search.domain)
                dataset.catalogDataUpdatedAt = result.dataUpdatedAt
                found.append(dataset)
            }
        }
        let first = try page.run(catalog: host, http: http, retry: retry)
        guard let total = first.total, total > Self.offsetWindow else {
            take(first)
            page.offset += first.results.count
            var last = first
            while last.results.count == page.limit, first.total.map({ page.offset < $0 }) ?? true {
                last = try page.run(catalog: host, http: http, retry: retry)
                take(last)
                page.offset += last.results.count
            }
            return found
        }
        // Past the window: the whole search by id, each page after the last id of the one before.
        page.scrollID = ""
        while true {
            let answer = try page.run(catalog: host, http: http, retry: retry)
            let ids = answer.results.map(\.id)
            if let after = page.scrollID, !after.isEmpty, ids.contains(where: { $0 <= after }) {
                throw CatalogError(url: CredentialRedaction.url(page.url(catalog: host)),
                                   problem: "does not page by scroll_id (it listed ids not after \(after)), so the search cannot go past "
                                       + "its first \(Self.offsetWindow) results")
            }
            take(answer)
            guard answer.results.count == page.limit, let last = ids.max() else { break }
            page.scrollID = last
        }
        return found
    }

    /// The datasets of the search the lock records (`refresh --locked` asks no catalog: the
    /// lock says which datasets the build has).
    public func lockedDatasets(_ lock: SocloadLockFile) -> [Project.Dataset] {
        lock.datasets.filter { $0.value.search == name }.sorted { $0.key < $1.key }.map { name, entry in
            dataset(id: entry.datasetID ?? name, domain: Self.origin(of: entry.sourceURL))
        }
    }

    /// `https://data.example.org` (with a port when there is one) of a source URL.
    private static func origin(of url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, let host = parsed.host else { return nil }
        return "\(scheme)://\(host)" + (parsed.port.map { ":\($0)" } ?? "")
    }

    private func dataset(id: String, domain: String?) -> Project.Dataset {
        var spec = self.spec
        spec.source = .dataset(id)
        spec.domain = domain
        return Project.Dataset(name: id, spec: spec, connection: connection, aliases: [LoadPlan.tableName(forDatasetID: id)],
                               search: name)
    }
}
