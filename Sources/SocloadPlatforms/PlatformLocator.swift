import Foundation
import SocloadCore

/// Where a dataset of a platform other than Socrata is, read from the URL a user copied from the
/// browser or an API answer. The platform is known from the URL's form; `--platform` says it
/// where the form does not (a CKAN dataset page at `/dataset/NAME` is also how Socrata pages
/// begin, so without the flag a 4x4 id at its end keeps it Socrata's).
///
///     let locator = try PlatformLocator(url: "https://demo.ckan.org/dataset/frictionless/resource/66cac6ef", platform: nil)
///     // locator == .ckan(CKANLocator(base: "https://demo.ckan.org", package: "frictionless", resource: "66cac6ef"))
package enum PlatformLocator: Sendable, Equatable {
    case ckan(CKANLocator)
    /// An ArcGIS layer: its URL (`.../FeatureServer/0`) and its service's name.
    case arcgis(layer: String, service: String, number: Int)
    /// An OpenDataSoft dataset: the portal (`https://HOST`) and the dataset id.
    case ods(base: String, datasetID: String)

    package var platform: DataPlatform {
        switch self {
        case .ckan: return .ckan
        case .arcgis: return .arcgis
        case .ods: return .ods
        }
    }

    /// The dataset `url` names on `platform` (nil: whichever its form says). Nil when the URL is
    /// no dataset of these platforms (a Socrata URL, a file); a URL that `platform` does not take
    /// is a `PlatformError`.
    package init?(url: String, platform: DataPlatform?) throws {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), let components = URLComponents(string: url),
              let host = components.host, !host.isEmpty else {
            if let platform, platform != .socrata { throw PlatformError.notADataset(url, platform: platform) }
            return nil
        }
        let origin = "\(components.scheme ?? "https")://\(components.percentEncodedHost ?? host)"
            + (components.port.map { ":\($0)" } ?? "")
        let parts = components.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        func base(before index: Int) -> String { origin + parts.prefix(index).map { "/" + $0 }.joined() }
        let found: PlatformLocator?
        switch platform {
        case .socrata?: return nil
        case .arcgis?: found = Self.arcgis(parts, base: base)
        case .ods?: found = Self.ods(parts, query: query, base: base)
        case .ckan?: found = Self.ckan(parts, query: query, base: base, sure: true)
        case nil:
            found = Self.arcgis(parts, base: base) ?? Self.ods(parts, query: query, base: base)
                ?? Self.ckan(parts, query: query, base: base, sure: false)
        }
        if let found { self = found; return }
        if let platform = platform ?? Self.nearMiss(parts) { throw PlatformError.notADataset(url, platform: platform) }
        return nil
    }

    /// The platform a URL that names none of its datasets is still clearly of (a service
    /// without its layer's number, `/explore/dataset/` without an id, an action without its
    /// resource): said as that platform's forms, not as a Socrata URL without a 4x4 id.
    private static func nearMiss(_ parts: [String]) -> DataPlatform? {
        let lowered = parts.map { $0.lowercased() }
        if lowered.contains("featureserver") || lowered.contains("mapserver") { return .arcgis }
        if lowered.contains("explore") || (lowered.contains("catalog") && lowered.contains("datasets"))
            || (lowered.contains("api") && lowered.contains("records")) { return .ods }
        if lowered.contains("datastore") || lowered.contains("action") && lowered.contains("api") { return .ckan }
        return nil
    }

    /// `.../FeatureServer/N` or `.../MapServer/N`, with anything after the layer's number.
    private static func arcgis(_ parts: [String], base: (Int) -> String) -> PlatformLocator? {
        for index in parts.indices.dropFirst() where ["featureserver", "mapserver"].contains(parts[index].lowercased()) {
            guard index + 1 < parts.count, let number = Int(parts[index + 1]), number >= 0 else { continue }
            return .arcgis(layer: base(index + 2), service: parts[index - 1], number: number)
        }
        return nil
    }

    /// `/explore/dataset/ID`, `/api/explore/v2.x/catalog/datasets/ID`, `/api/v2/catalog/datasets/ID`,
    /// `/api/records/1.0/search?dataset=ID`.
    private static func ods(_ parts: [String], query: [String: String], base: (Int) -> String) -> PlatformLocator? {
        let lowered = parts.map { $0.lowercased() }
        for index in lowered.indices {
            if lowered[index] == "explore", index + 2 < parts.count, lowered[index + 1] == "dataset" {
                return .ods(base: base(index), datasetID: parts[index + 2])
            }
            if lowered[index] == "catalog", index + 2 < parts.count, lowered[index + 1] == "datasets", index >= 2,
               let api = lowered[..<index].lastIndex(of: "api") {
                return .ods(base: base(api), datasetID: parts[index + 2])
            }
            if lowered[index] == "api", index + 1 < parts.count, lowered[index + 1] == "records", let id = query["dataset"], !id.isEmpty {
                return .ods(base: base(index), datasetID: id)
            }
        }
        return nil
    }

    /// `/dataset/NAME/resource/ID`, `/dataset/NAME` (not when NAME is followed by a 4x4 id, a
    /// Socrata page, unless `sure`), `/datastore/dump/ID`, and the action API's
    /// `datastore_search?resource_id=ID`, `resource_show?id=ID`, `package_show?id=NAME`.
    private static func ckan(_ parts: [String], query: [String: String], base: (Int) -> String, sure: Bool) -> PlatformLocator? {
        let lowered = parts.map { $0.lowercased() }
        if let index = lowered.firstIndex(of: "dataset"), index + 1 < parts.count {
            let package = parts[index + 1]
            if index + 3 < parts.count, lowered[index + 2] == "resource" {
                return .ckan(CKANLocator(base: base(index), package: package, resource: parts[index + 3]))
            }
            // `/dataset/NAME/ID` is Socrata's page form; CKAN names a resource `/resource/ID`.
            if index + 2 < parts.count { return nil }
            if !sure, DatasetID.isValid(package) { return nil }
            return .ckan(CKANLocator(base: base(index), package: package, resource: nil))
        }
        if let index = lowered.firstIndex(of: "datastore"), index + 2 < parts.count, lowered[index + 1] == "dump" {
            return .ckan(CKANLocator(base: base(index), package: nil, resource: parts[index + 2]))
        }
        if let index = lowered.firstIndex(of: "action"), index + 1 < parts.count, let api = lowered[..<index].lastIndex(of: "api") {
            // The action API as the URL has it: `/api/3/action/` or `/api/action/`.
            let actions = "/" + parts[api..<(index + 1)].joined(separator: "/") + "/"
            switch lowered[index + 1] {
            case "datastore_search", "datastore_search_sql", "resource_show":
                guard let id = query["resource_id"] ?? query["id"], !id.isEmpty else { return nil }
                return .ckan(CKANLocator(base: base(api), package: nil, resource: id, actions: actions))
            case "package_show":
                guard let id = query["id"], !id.isEmpty else { return nil }
                return .ckan(CKANLocator(base: base(api), package: id, resource: nil, actions: actions))
            default: return nil
            }
        }
        return nil
    }
}

/// A CKAN dataset (package) or one of its resources, on the portal at `base`.
package struct CKANLocator: Sendable, Equatable {
    /// The portal's root: `https://HOST` or `https://HOST/PREFIX` (the action API is under it).
    package var base: String
    /// The package's name or id, when the URL names it.
    package var package: String?
    /// The resource's id, when the URL names one.
    package var resource: String?
    /// The action API's path under `base`: `/api/3/action/`, or `/api/action/` when the URL used it.
    package var actions: String

    package init(base: String, package: String?, resource: String?, actions: String = "/api/3/action/") {
        self.base = base
        self.package = package
        self.resource = resource
        self.actions = actions
    }
}
