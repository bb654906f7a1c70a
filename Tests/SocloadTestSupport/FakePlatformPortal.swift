import Foundation
import SocloadToolKit

/// One generated dataset served over a real loopback HTTP server as CKAN's DataStore, an ArcGIS
/// layer and an OpenDataSoft dataset answer it, so that tables loaded from the three must agree:
/// `/api/3/action/{package_show,resource_show,datastore_search}`, `/arcgis/rest/services/Parks/FeatureServer/0`
/// (`?f=json`, `query` with `where OBJECTID > N`, `returnCountOnly`, `returnIdsOnly`, `objectIds`),
/// and `/api/explore/v2.1/catalog/datasets/parks` with `/exports/jsonl`. Every type each platform
/// documents is a column; `faults` make the server page wrongly or cut a body short.
public final class FakePlatformPortal: @unchecked Sendable {
    // @unchecked Sendable: mutable state only under `lock`.
    public enum Fault: Sendable, Equatable {
        /// Every page is the first one (the server ignores offset / where).
        case ignoresPaging
        /// CKAN: a page holds the portal's own page size, whatever `limit` asked.
        case ignoresPageSize
        /// ArcGIS: a page after the first says `exceededTransferLimit` and holds no feature.
        case endlessTransferLimit
        /// Every page's body stops halfway (the connection closes cleanly).
        case truncatedPages
        /// Each platform counts five rows more than it serves (CKAN's `total`, ArcGIS's
        /// `returnCountOnly`, OpenDataSoft's `records_count`): a load that ended early, or an export
        /// cut short at a line's end.
        case statesMoreRows
    }

    public struct Row: Sendable {
        public var id: Int
        public var name: String
        public var amount: String
        public var ratio: Double
        public var open: Bool?
        public var day: String
        /// Epoch milliseconds.
        public var at: Int64
        public var tags: [String]
        public var longitude: Double
        public var latitude: Double
    }

    public let server: LoopbackHTTPServer
    private let lock = NSLock()
    private var rowsValue: [Row]
    private var version = 1
    /// Rows a page holds at most (CKAN's portal limit, ArcGIS's `maxRecordCount`).
    public let pageCap: Int
    private var faultValue: Fault?
    /// ArcGIS: a server before 10.3 (no `advancedQueryCapabilities`: ids first, then chunks).
    public var oldArcGIS = false
    /// CKAN: `/datastore/dump/ID?format=json` is offered (else 404, as on a CKAN without it).
    public var offersDump = true

    public init(rows count: Int, pageCap: Int = 1000) throws {
        server = try LoopbackHTTPServer()
        self.pageCap = pageCap
        rowsValue = (1...max(count, 1)).prefix(count).map(Self.row)
        server.handle { [unowned self] request in self.answer(request) }
    }

    deinit { server.stop() }

    public static func row(_ id: Int) -> Row {
        let names = ["Parc Montsouris", "Jardin du Luxembourg", "Zoë's \"green\" corner", "中央公園", "Park, the"]
        return Row(id: id, name: "\(names[id % names.count]) \(id)", amount: "\(id * 37 % 100000).\(String(format: "%02d", id % 100))",
                   ratio: Double(id % 1000) / 8, open: id % 7 == 0 ? nil : id % 2 == 0, day: String(format: "2024-%02d-%02d", id % 12 + 1, id % 28 + 1),
                   at: 1_700_000_000_000 + Int64(id) * 60_000, tags: id % 3 == 0 ? [] : ["t\(id % 5)", "é\(id % 3)"],
                   longitude: 2.3 + Double(id % 1000) / 10000, latitude: 48.8 + Double(id % 777) / 10000)
    }

    public var baseURL: String { server.baseURL }
    public var ckanURL: String { baseURL + "/dataset/parks/resource/res-1" }
    public var arcgisURL: String { baseURL + "/arcgis/rest/services/Parks/FeatureServer/0" }
    public var odsURL: String { baseURL + "/explore/dataset/parks/" }
    public var rows: [Row] { lock.withLock { rowsValue } }

    public var fault: Fault? {
        get { lock.withLock { faultValue } }
        set { lock.withLock { faultValue = newValue } }
    }

    /// Changes the data: `change` applied to the rows, and every platform's "last changed" moves.
    public func update(_ change: (inout [Row]) -> Void) {
        lock.withLock {
            change(&rowsValue)
            version += 1
        }
    }

    /// The requests that read rows (pages, exports), not descriptions.
    public var rowRequests: Int {
        server.requests.filter { request in
            (request.route.hasSuffix("datastore_search") && request.query["limit"] != "0") || request.route.hasPrefix("/datastore/dump/")
                || (request.route.hasSuffix("/query") && request.query["returnCountOnly"] == nil)
                || request.route.hasSuffix("/exports/jsonl")
        }.count
    }

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response? {
        let (rows, version, fault) = lock.withLock { (rowsValue, self.version, faultValue) }
        let stated = rows.count + (fault == .statesMoreRows ? 5 : 0)
        let changed = String(format: "2026-11-%02dT08:00:00", min(version, 28))
        let route = request.route
        let query = request.query
        func json(_ object: Any, page: Bool = false) -> LoopbackHTTPServer.Response {
            var body = Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
            if page, fault == .truncatedPages { body = Array(body.prefix(body.count / 2)) }
            return .init(body: body)
        }
        switch route {
        case "/api/3/action/package_show", "/api/3/action/resource_show":
            let resource: [String: Any] = ["id": "res-1", "package_id": "parks", "name": "Parks", "datastore_active": true,
                                           "last_modified": NSNull(), "format": "", "url": baseURL + "/datastore/dump/res-1"]
            if route.hasSuffix("resource_show") { return json(["success": true, "result": resource]) }
            return json(["success": true, "result": ["name": "parks", "title": "Parks of Paris", "metadata_modified": changed + ".123456",
                                                     "notes": "Every park.", "resources": [resource]]])
        case "/datastore/dump/res-1":
            guard offersDump, query["format"] == "json" else { return .init(status: 404, body: Array("Not found".utf8)) }
            let fields = ["_id", "name", "amount", "ratio", "open", "day", "at", "tags"]
            let limited = query["limit"].flatMap(Int.init).map { Array(rows.prefix($0)) } ?? rows
            var body = Array("{\n  \"fields\": [".utf8)
            body += Array(fields.enumerated().map { "\($0.offset > 0 ? "," : ""){\"id\":\"\($0.element)\",\"type\":\"text\"}" }.joined().utf8)
            body += Array("],\n  \"records\": [\n    ".utf8)
            for (index, row) in limited.enumerated() {
                let values: [Any] = [row.id, row.name, NSDecimalNumber(string: row.amount), row.ratio,
                                     row.open.map { $0 as Any } ?? NSNull(), row.day, Self.floating(row.at), row.tags]
                if index > 0 { body += Array(",\n    ".utf8) }
                body += Array((try? JSONSerialization.data(withJSONObject: values)) ?? Data())
            }
            body += Array("\n]}\n".utf8)
            if fault == .truncatedPages { body = Array(body.prefix(body.count / 2)) }
            return .init(body: body)
        case "/api/3/action/datastore_search":
            let fields: [[String: Any]] = [["id": "_id", "type": "int"], ["id": "name", "type": "text"], ["id": "amount", "type": "numeric"],
                                           ["id": "ratio", "type": "float8"], ["id": "open", "type": "bool"], ["id": "day", "type": "date"],
                                           ["id": "at", "type": "timestamp"], ["id": "tags", "type": "_text"]]
            let asked = Int(query["limit"] ?? "100") ?? 100
            let limit = fault == .ignoresPageSize && asked > 0 ? pageCap : min(asked, pageCap)
            let offset = fault == .ignoresPaging ? 0 : Int(query["offset"] ?? "0") ?? 0
            let page = limit == 0 ? [] : Array(rows.dropFirst(offset).prefix(limit))
            let records: [[String: Any]] = page.map { row in
                ["_id": row.id, "name": row.name, "amount": NSDecimalNumber(string: row.amount), "ratio": row.ratio,
                 "open": row.open.map { $0 as Any } ?? NSNull(), "day": row.day,
                 "at": Self.floating(row.at), "tags": row.tags]
            }
            return json(["success": true, "result": ["fields": fields, "records": records, "total": stated, "limit": limit,
                                                     "_links": ["next": "/api/3/action/datastore_search?offset=\(offset + limit)"]]],
                        page: limit > 0)
        case "/arcgis/rest/services/Parks/FeatureServer/0":
            var info: [String: Any] = [
                "currentVersion": oldArcGIS ? 10.0 : 11.1, "name": "Parks", "type": "Feature Layer", "geometryType": "esriGeometryPoint",
                "objectIdField": "OBJECTID", "editingInfo": ["lastEditDate": 1_790_000_000_000 + version * 1000],
                "fields": [["name": "OBJECTID", "type": "esriFieldTypeOID", "alias": "OBJECTID"],
                           ["name": "NAME", "type": "esriFieldTypeString", "alias": "Park name", "length": 80],
                           ["name": "RATIO", "type": "esriFieldTypeDouble", "alias": "RATIO"],
                           ["name": "KIND", "type": "esriFieldTypeSmallInteger", "alias": "KIND",
                            "domain": ["type": "codedValue", "name": "kinds", "codedValues": [["name": "Garden", "code": 0], ["name": "Square", "code": 1]]]],
                           ["name": "AT", "type": "esriFieldTypeDate", "alias": "AT", "length": 8],
                           ["name": "Shape", "type": "esriFieldTypeGeometry", "alias": "Shape"]]]
            if !oldArcGIS {
                info["maxRecordCount"] = pageCap
                info["advancedQueryCapabilities"] = ["supportsPagination": true, "supportsOrderBy": true]
            }
            return json(info)
        case "/arcgis/rest/services/Parks/FeatureServer/0/query":
            if query["returnCountOnly"] == "true" { return json(["count": stated]) }
            if query["returnIdsOnly"] == "true" { return json(["objectIdFieldName": "OBJECTID", "objectIds": Array(rows.map(\.id).reversed())]) }
            var selected = rows
            var exceeded = false
            if let ids = query["objectIds"] {
                let wanted = Set(ids.split(separator: ",").compactMap { Int($0) })
                selected = rows.filter { wanted.contains($0.id) }
            } else {
                let condition = query["where"] ?? "1=1"
                if fault != .ignoresPaging, let bound = condition.split(separator: ">").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
                   condition.contains(">") {
                    selected = rows.filter { $0.id > bound }
                }
                let asked = min(Int(query["resultRecordCount"] ?? "") ?? pageCap, pageCap)
                exceeded = selected.count > asked
                selected = Array(selected.prefix(asked))
                if fault == .endlessTransferLimit, condition != "1=1" { selected = []; exceeded = true }
            }
            let features: [[String: Any]] = selected.map { row in
                ["attributes": ["OBJECTID": row.id, "NAME": row.name, "RATIO": row.ratio, "KIND": row.id % 2, "AT": row.at],
                 "geometry": ["x": row.longitude, "y": row.latitude]]
            }
            var body: [String: Any] = ["objectIdFieldName": "OBJECTID", "geometryType": "esriGeometryPoint", "features": features]
            if exceeded { body["exceededTransferLimit"] = true }
            return json(body, page: true)
        case "/api/explore/v2.1/catalog/datasets/parks":
            return json(["dataset_id": "parks", "fields": [
                ["name": "id", "type": "int", "label": "Id"], ["name": "name", "type": "text", "label": "Name"],
                ["name": "ratio", "type": "double", "label": "Ratio"], ["name": "day", "type": "date", "label": "Day"],
                ["name": "at", "type": "datetime", "label": "At"], ["name": "tags", "type": "text", "label": "Tags", "annotations": ["multivalued": [","]]],
                ["name": "location", "type": "geo_point_2d", "label": "Location"]],
                "metas": ["default": ["title": "Parks", "records_count": stated, "data_processed": changed + "+00:00"]]])
        case "/api/explore/v2.1/catalog/datasets/parks/exports/jsonl":
            var body: [UInt8] = []
            for row in rows {
                let record: [String: Any] = ["id": row.id, "name": row.name, "ratio": row.ratio, "day": row.day,
                                             "at": Self.floating(row.at) + "+00:00", "tags": row.tags,
                                             "location": ["lon": row.longitude, "lat": row.latitude]]
                body += Array((try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])) ?? Data()) + [0x0A]
            }
            if fault == .truncatedPages { body = Array(body.prefix(body.count / 2)) }
            return .init(body: body)
        case "/api/3/action/package_search":
            let hit = (query["q"] ?? "").lowercased().contains("park")
            return json(["success": true, "result": ["count": hit ? 1 : 0, "results": hit ? [
                ["name": "parks", "title": "Parks of Paris", "metadata_modified": changed + ".123456", "num_resources": 1]] : []]])
        case "/data.json":
            return json(["conformsTo": "https://project-open-data.cio.gov/v1.1/schema", "dataset": [
                ["title": "Parks", "description": "Every park", "keyword": ["parks", "green"], "modified": changed + ".000Z",
                 "identifier": baseURL + "/datasets/parks", "theme": ["Environment"],
                 "distribution": [["title": "ArcGIS Hub Dataset", "format": "Web page", "accessURL": baseURL + "/datasets/parks"],
                                  ["title": "ArcGIS GeoService", "format": "ArcGIS GeoServices REST API", "accessURL": arcgisURL]]],
                ["title": "Roads", "description": "Every road", "keyword": ["roads"], "identifier": baseURL + "/datasets/roads",
                 "distribution": [["accessURL": baseURL + "/arcgis/rest/services/Roads/FeatureServer/2"]]]]])
        case "/api/explore/v2.1/catalog/datasets":
            return json(["total_count": 1, "results": [["dataset_id": "parks", "fields": [["name": "id"], ["name": "name"]],
                                                        "metas": ["default": ["title": "Parks", "records_count": rows.count,
                                                                              "data_processed": changed + "+00:00"]]]]])
        default:
            return nil
        }
    }

    /// `2023-11-14T22:13:20` of epoch milliseconds (UTC, no zone: how CKAN writes a timestamp).
    public static func floating(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
