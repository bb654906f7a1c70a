import Foundation
import SocloadCore
import SocloadTransport

/// `socload search --platform ckan|arcgis|ods --domain HOST WORDS`: a portal's own catalog.
/// CKAN's `package_search`, an ArcGIS Hub site's DCAT `data.json` (filtered here: it lists
/// every dataset at once), OpenDataSoft's `/api/explore/v2.1/catalog/datasets`. Each result's
/// page is a URL `socload fetch` takes.
package struct PlatformCatalogSearch {
    package struct Result: Sendable, Equatable {
        package var id: String
        package var name: String
        package var dataUpdatedAt: String?
        package var columnCount: Int?
        package var rowCount: Int?
        package var page: String
    }

    package var platform: DataPlatform
    package var words: String
    /// The portal: `HOST` (https), or `http://HOST:PORT`.
    package var domain: String
    package var category: String?
    package var limit = 10
    package var offset = 0

    package init(platform: DataPlatform, words: String, domain: String) {
        self.platform = platform
        self.words = words
        self.domain = domain
    }

    private var base: String {
        let trimmed = domain.hasSuffix("/") ? String(domain.dropLast()) : domain
        return trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://") ? trimmed : "https://" + trimmed
    }

    /// The results of this page and how many the catalog has in all (when it says).
    package func run(http options: HTTPOptions, retry: RetryPolicy) throws -> (results: [Result], total: Int?) {
        let http = PlatformHTTP(http: options, retry: retry, cancellation: nil, onRetry: nil, platform: platform)
        switch platform {
        case .ckan: return try ckan(http)
        case .ods: return try ods(http)
        case .arcgis: return try arcgisHub(http)
        case .socrata: return ([], nil)
        }
    }

    private func ckan(_ http: PlatformHTTP) throws -> (results: [Result], total: Int?) {
        var items = [("q", words), ("rows", String(limit)), ("start", String(offset))]
        if let category { items.append(("fq", "groups:\"\(category)\"")) }
        let url = platformURL(base + "/api/3/action/package_search", items)
        let answer = try http.json(url)
        guard answer["success"]?.boolValue != false, let result = answer["result"], let packages = result["results"]?.arrayValue else {
            throw PlatformError(.ckan, url: url, .unexpected("no \"result.results\" list (not a CKAN action API answer)"))
        }
        let results = packages.compactMap { package -> Result? in
            guard let name = package.text("name") else { return nil }
            return Result(id: name, name: package.text("title") ?? name,
                          dataUpdatedAt: CKANDataStore.lastChange(resource: .null, package: package), columnCount: nil, rowCount: nil,
                          page: base + "/dataset/" + name)
        }
        return (results, result["count"]?.intValue)
    }

    private func ods(_ http: PlatformHTTP) throws -> (results: [Result], total: Int?) {
        var items = [("limit", String(min(limit, 100))), ("offset", String(offset))]
        if !words.isEmpty { items.append(("where", JSONValue.quoted(words))) }
        if let category { items.append(("refine", "theme:" + category)) }
        let url = platformURL(base + "/api/explore/v2.1/catalog/datasets", items)
        let answer = try http.json(url)
        guard let datasets = answer["results"]?.arrayValue else {
            throw PlatformError(.ods, url: url, .unexpected("no \"results\" list (not an Explore API v2.1 catalog answer)"))
        }
        let results = datasets.compactMap { dataset -> Result? in
            guard let id = dataset.text("dataset_id") else { return nil }
            let metas = dataset["metas"]?["default"] ?? .null
            return Result(id: id, name: metas.text("title") ?? id, dataUpdatedAt: metas.text("data_processed") ?? metas.text("modified"),
                          columnCount: dataset["fields"]?.arrayValue?.count, rowCount: metas["records_count"]?.intValue,
                          page: base + "/explore/dataset/" + id + "/")
        }
        return (results, answer["total_count"]?.intValue)
    }

    /// An ArcGIS Hub site lists every dataset in `data.json` (DCAT-US): the ones whose title,
    /// description or keywords hold every word (and whose theme is `category`), with an ArcGIS
    /// layer among their distributions.
    private func arcgisHub(_ http: PlatformHTTP) throws -> (results: [Result], total: Int?) {
        let url = base + "/data.json"
        let answer = try http.json(url)
        guard let datasets = answer["dataset"]?.arrayValue else {
            throw PlatformError(.arcgis, url: url, .unexpected("no \"dataset\" list (not a DCAT data.json)"))
        }
        let wanted = words.lowercased().split(separator: " ").map(String.init)
        let matching = datasets.compactMap { dataset -> Result? in
            let keywords = (dataset["keyword"]?.arrayValue ?? []).compactMap(\.stringValue)
            let text = ([dataset.text("title"), dataset.text("description")].compactMap { $0 } + keywords).joined(separator: " ").lowercased()
            guard wanted.allSatisfy(text.contains) else { return nil }
            if let category {
                let themes = (dataset["theme"]?.arrayValue ?? []).compactMap(\.stringValue).map { $0.lowercased() }
                guard themes.contains(category.lowercased()) else { return nil }
            }
            let layers = (dataset["distribution"]?.arrayValue ?? []).flatMap { [$0.text("accessURL"), $0.text("downloadURL")] }
                .compactMap { $0 }.filter { url in (try? PlatformLocator(url: url, platform: .arcgis)) != nil }
            guard let layer = layers.first, case .arcgis(let layerURL, _, _)? = try? PlatformLocator(url: layer, platform: .arcgis) else {
                return nil
            }
            let title = dataset.text("title") ?? layerURL
            return Result(id: dataset.text("identifier") ?? layerURL, name: title, dataUpdatedAt: dataset.text("modified"),
                          columnCount: nil, rowCount: nil, page: layerURL)
        }
        return (Array(matching.dropFirst(offset).prefix(limit)), matching.count)
    }
}
