import SocloadCore
import Foundation

/// One dataset on one portal, and the URLs of its APIs: the view metadata, the rows.json export,
/// SODA 2.1 (`/resource/ID.json`) and SODA3 (`/api/v3/views/ID/query.json`).
struct SocrataPortal: Sendable, Equatable {
    /// `https://data.example.org` (or `http://127.0.0.1:8080`), without a trailing slash.
    let base: String
    let datasetID: String

    init(base: String, datasetID: String) {
        self.base = base
        self.datasetID = datasetID
    }

    /// The portal of a remote reference with a dataset id; nil for files and bare export URLs.
    init?(reference: DatasetReference) {
        guard case .url(let url) = reference.location, let id = reference.datasetID,
              let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
        else { return nil }
        self.init(base: "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")", datasetID: id)
    }

    var viewURL: String { "\(base)/api/views/\(datasetID).json" }
    var resourceURL: String { "\(base)/resource/\(datasetID).json" }
    var soda3URL: String { "\(base)/api/v3/views/\(datasetID)/query.json" }

    /// One SODA 2.1 page: always a stable `$order` (`:id` last), and the system fields with `:*`.
    /// Paged by key, `after` is the condition for the rows after the previous page (ANDed with
    /// the user's `$where`) and there is no `$offset`; paged by offset, `offset` is its value.
    func soda2PageURL(query: SoQLQuery, after: String? = nil, offset: Int?, limit: Int) -> String {
        var parameters: [(String, String)] = [("$select", query.select ?? ":*, *")]
        if let condition = query.condition(and: after) { parameters.append(("$where", condition)) }
        parameters += [("$order", query.stableOrder), ("$limit", String(limit))]
        if let offset { parameters.append(("$offset", String(offset))) }
        return resourceURL + "?" + QueryEncoding.query(parameters)
    }

    /// One SODA3 page: `{"query": "SELECT ...", "page": {"pageNumber": N, "pageSize": M}}`, N from 1.
    /// Paged by key, every page is page 1 of the rows `after` the previous page.
    func soda3PageRequest(query: SoQLQuery, after: String? = nil, pageNumber: Int, pageSize: Int) -> HTTPRequest {
        let body = JSONValue.object([
            JSONMember(key: "query", value: .string(query.statement(and: after))),
            JSONMember(key: "page", value: .object([
                JSONMember(key: "pageNumber", value: .number(String(pageNumber))),
                JSONMember(key: "pageSize", value: .number(String(pageSize))),
            ])),
        ])
        return HTTPRequest(url: soda3URL, body: Array(body.jsonText.utf8), headers: [("Content-Type", "application/json")])
    }
}

extension ViewMetadata {
    /// Throws unless the view is a tabular dataset whose rows can be queried: charts, maps built
    /// on other datasets, stories, links and files have no rows of their own.
    func requireTabular() throws {
        let rejectedAssets: Set<String> = ["chart", "map", "visualization", "story", "href", "file", "measure",
                                           "datalens_chart", "datalens_map", "form"]
        if let viewType, viewType != "tabular" {
            throw LoadError.notTabular(id: id ?? "", kind: viewType)
        }
        if let assetType, rejectedAssets.contains(assetType) {
            throw LoadError.notTabular(id: id ?? "", kind: assetType)
        }
        if let displayType, displayType == "chart" {
            throw LoadError.notTabular(id: id ?? "", kind: displayType)
        }
    }
}
