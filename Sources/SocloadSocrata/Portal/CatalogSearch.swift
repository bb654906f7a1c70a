import Foundation
import SocloadCore

/// A search of the Socrata Discovery API (`/api/catalog/v1`): which datasets a portal, or every
/// public portal the catalog knows, has on a subject.
///
///     let search = CatalogSearch(words: "bus delays", domain: "data.cityofnewyork.us", limit: 5)
///     print(search.url(catalog: CatalogSearch.defaultCatalog))   // then search.run(catalog:)
///
/// The catalog gives no row counts; each result's id pastes into `fetch` and a project file.
public struct CatalogSearch: Sendable {
    /// The catalog of the US portals; the EU ones have their own (`api.eu.socrata.com`).
    public static let defaultCatalog = "https://api.us.socrata.com"

    public var words: String
    public var domain: String?
    public var category: String?
    public var limit: Int
    public var offset: Int
    /// Deep paging past the catalog's 10,000-result window: results ordered by id, those after
    /// this id (`""`: from the first). With it, `offset` is not sent.
    public var scrollID: String?

    public init(words: String, domain: String? = nil, category: String? = nil, limit: Int = 10, offset: Int = 0) {
        self.words = words
        self.domain = domain
        self.category = category
        self.limit = limit
        self.offset = offset
    }

    /// One dataset (or other asset) the catalog found.
    public struct Result: Sendable, Equatable {
        public var id: String
        public var name: String
        public var type: String
        /// When its data last changed (`data_updated_at`, else `updatedAt`).
        public var dataUpdatedAt: String?
        /// Its data columns, the computed regions (`:@computed_region_*`) among them, as a load makes them.
        public var columnCount: Int
        public var domain: String?
        /// Its page on the portal (`https://DOMAIN/d/ID`).
        public var page: String?
        /// Who publishes it (`attribution`), when the catalog says.
        public var attribution: String?
    }

    /// What the catalog answered: a page of results and how many match in all.
    public struct Answer: Sendable, Equatable {
        public var results: [Result]
        public var total: Int?
    }

    /// The request's URL on `catalog` (a host or a URL): `q`, then `domains` and
    /// `domain_category` with a domain, or `categories` without one, `limit`, and `offset` or
    /// `scroll_id`.
    public func url(catalog: String) -> String {
        var base = catalog.contains("://") ? catalog : "https://" + catalog
        while base.hasSuffix("/") { base.removeLast() }
        var items: [(String, String)] = []
        if !words.isEmpty { items.append(("q", words)) }
        if let domain { items.append(("domains", domain)) }
        if let category { items.append((domain == nil ? "categories" : "domain_category", category)) }
        items.append(("limit", String(limit)))
        if let scrollID { items.append(("scroll_id", scrollID)) } else { items.append(("offset", String(offset))) }
        return base + "/api/catalog/v1?" + items.map { "\($0.0)=\(Self.encoded($0.1))" }.joined(separator: "&")
    }

    /// Asks the catalog; a status or transport failure is an `HTTPError`, a body that is not a
    /// catalog answer a `CatalogError`.
    public func run(catalog: String, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy()) throws -> Answer {
        let url = url(catalog: catalog)
        let loader = DatasetLoader(destination: NoDestination(), http: http, retry: retry)
        return try Self.answer(loader.downloadDescription(url), url: url)
    }

    /// The results of a catalog response's bytes.
    public static func answer(_ body: [UInt8], url: String) throws -> Answer {
        guard let root = try? JSONValueParser.parse(body), case .array(let items)? = root["results"] else {
            throw CatalogError(url: CredentialRedaction.url(url), problem: "is not a catalog answer (no \"results\" list)")
        }
        let total: Int? = if case .number(let text)? = root["resultSetSize"] { Int(text) } else { nil }
        return Answer(results: items.compactMap(result), total: total)
    }

    private static func result(_ item: JSONValue) -> Result? {
        guard let resource = item["resource"], case .string(let id)? = resource["id"] else { return nil }
        func text(_ value: JSONValue?) -> String? {
            if case .string(let text)? = value, !text.isEmpty { return text }
            return nil
        }
        var columns = 0
        if case .array(let names)? = resource["columns_field_name"] {
            columns = names.filter { text($0).map(ColumnMetadata.isSystemField) != true }.count
        }
        let domain = text(item["metadata"]?["domain"])
        return Result(id: id, name: text(resource["name"]) ?? "", type: text(resource["type"]) ?? "",
                      dataUpdatedAt: text(resource["data_updated_at"]) ?? text(resource["updatedAt"]),
                      columnCount: columns, domain: domain,
                      page: text(item["permalink"]) ?? domain.map { "https://\($0)/d/\(id)" },
                      attribution: text(resource["attribution"]))
    }

    private static func encoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

/// A catalog answered with something socload cannot read as search results.
public struct CatalogError: CategorizedError, Equatable {
    public let url: String
    public let problem: String

    public init(url: String, problem: String) {
        (self.url, self.problem) = (url, problem)
    }
    public var kind: FailureKind { .unavailable }
    public var description: String { "The catalog's answer to \(url) \(problem)" }
}

extension CatalogSearch.Result {
    /// The rows the portal's own statistics count for this result (`socload search --rows`):
    /// one request, its description (`/api/views/ID.json`) on its portal. Nil when the portal
    /// does not describe it or states no counts; `portal` overrides the result's domain.
    public func statedRowCount(portal: String? = nil, http: HTTPOptions = HTTPOptions(),
                               retry: RetryPolicy = RetryPolicy()) throws -> Int? {
        guard let domain = portal ?? domain,
              let reference = try? DatasetReference.resolve(id, domain: domain, datasetsDirectories: []),
              let site = SocrataPortal(reference: reference) else { return nil }
        let loader = DatasetLoader(destination: NoDestination(), http: http, retry: retry)
        return try loader.viewIfAvailable(site)?.statedRowCount
    }
}
