import Foundation
import SocloadCore
import SocloadToolKit

/// `socload-datasets serve-platforms BASE`: the benchmark dataset written by `bench N` (new
/// shape, the rows of `BASE.soda.ndjson` in `:id` order) served as each other platform serves
/// a dataset, so a fetch through each compares with the SODA 2.1 fetch of the same rows:
/// CKAN's DataStore (`/api/3/action/...`, pages of 32,000 by offset, sorted by `_id`), an ArcGIS
/// layer (`/arcgis/rest/services/Bench/FeatureServer/0`, pages of 2,000 by `OBJECTID > N`, dates
/// as epoch milliseconds) and OpenDataSoft (`/api/explore/v2.1/catalog/datasets/bench`, one
/// JSONL export). Numbers are JSON numbers there, as those platforms send them. Every answer is
/// made before the URL is printed, so serving costs only the copy.
enum PlatformBenchPortal {
    /// The benchmark's fields: name, CKAN type, ArcGIS type, ODS type.
    static let fields: [(String, String, String, String)] = [
        ("name", "text", "esriFieldTypeString", "text"), ("description", "text", "esriFieldTypeString", "text"),
        ("category", "text", "esriFieldTypeString", "text"), ("amount", "numeric", "esriFieldTypeDouble", "double"),
        ("price", "numeric", "esriFieldTypeDouble", "double"), ("percent", "numeric", "esriFieldTypeDouble", "double"),
        ("opened", "timestamp", "esriFieldTypeDate", "datetime"), ("active", "bool", "esriFieldTypeSmallInteger", "int"),
        ("visits", "int8", "esriFieldTypeInteger", "int"), ("score", "float8", "esriFieldTypeDouble", "double"),
        ("notes", "text", "esriFieldTypeString", "text"), ("city", "text", "esriFieldTypeString", "text"),
        ("zip", "text", "esriFieldTypeString", "text"), ("inspected_at", "timestamptz", "esriFieldTypeDate", "datetime"),
        ("status", "text", "esriFieldTypeString", "text"),
    ]
    static let ckanPage = 32_000
    static let arcgisPage = 2_000

    static func serve(base: String) throws -> Never {
        let sorted = SODABenchPortal.Rows(Array(try Data(contentsOf: URL(fileURLWithPath: base + ".soda.ndjson"))))
        let rows: [[JSONMember]] = sorted.ranges.map { range in
            guard case .object(let members)? = try? JSONValueParser.parse(Array(sorted.bytes[range])) else { return [] }
            return members.filter { member in !member.key.hasPrefix(":") && fields.contains { $0.0 == member.key } }
        }
        let types = Dictionary(uniqueKeysWithValues: fields.map { ($0.0, $0) })
        func value(_ member: JSONMember, platform: Int) -> JSONValue {
            guard case .string(let text) = member.value, let type = types[member.key] else { return member.value }
            switch platform == 0 ? type.1 : platform == 1 ? type.2 : type.3 {
            case "numeric", "int8", "float8", "esriFieldTypeDouble", "esriFieldTypeInteger", "double", "int": return .number(text)
            case "esriFieldTypeDate":
                return ISO8601Timestamp.parse(text).map { .number(String(Int64(($0.timeIntervalSince1970 * 1000).rounded()))) } ?? .null
            case "datetime": return .string(text.hasSuffix("Z") ? text : text + "Z")
            default: return member.value
            }
        }
        func record(_ index: Int, platform: Int) -> JSONValue {
            let key = JSONMember(key: platform == 0 ? "_id" : platform == 1 ? "OBJECTID" : "id", value: .number(String(index + 1)))
            return .object([key] + rows[index].map { JSONMember(key: $0.key, value: value($0, platform: platform)) })
        }
        let total = rows.count
        func text(_ value: JSONValue) -> [UInt8] { Array(value.jsonText.utf8) }
        // CKAN
        let ckanFields = JSONValue.array([.object([JSONMember(key: "id", value: .string("_id")), JSONMember(key: "type", value: .string("int"))])]
            + fields.map { .object([JSONMember(key: "id", value: .string($0.0)), JSONMember(key: "type", value: .string($0.1))]) })
        func ckanAnswer(_ records: [JSONValue]) -> [UInt8] {
            text(.object([JSONMember(key: "success", value: .bool(true)), JSONMember(key: "result", value: .object([
                JSONMember(key: "fields", value: ckanFields), JSONMember(key: "records", value: .array(records)),
                JSONMember(key: "total", value: .number(String(total)))]))]))
        }
        var ckanPages: [Int: [UInt8]] = [:]
        for start in stride(from: 0, through: total, by: ckanPage) {
            ckanPages[start] = ckanAnswer((start..<min(start + ckanPage, total)).map { record($0, platform: 0) })
        }
        let resource: [String: Any] = ["id": "bench", "package_id": "bench", "name": "Bench", "datastore_active": true,
                                       "last_modified": "2026-01-01T00:00:00", "format": ""]
        let package = try JSONSerialization.data(withJSONObject: ["success": true, "result": ["name": "bench", "title": "Bench",
            "metadata_modified": "2026-01-01T00:00:00", "resources": [resource]]] as [String: Any])
        // CKAN's JSON dump: every record an array in the fields' order.
        var dump = Array("{\n  \"fields\": ".utf8) + text(ckanFields) + Array(",\n  \"records\": [\n    ".utf8)
        for index in 0..<total {
            if index > 0 { dump += Array(",\n    ".utf8) }
            let values = [JSONMember(key: "_id", value: .number(String(index + 1)))] + fields.map { field in
                JSONMember(key: field.0, value: rows[index].first { $0.key == field.0 }.map { value($0, platform: 0) } ?? .null)
            }
            dump += text(.array(values.map(\.value)))
        }
        dump += Array("\n]}\n".utf8)
        // ArcGIS
        let layer = try JSONSerialization.data(withJSONObject: [
            "currentVersion": 11.1, "name": "Bench", "type": "Table", "objectIdField": "OBJECTID", "maxRecordCount": arcgisPage,
            "advancedQueryCapabilities": ["supportsPagination": true, "supportsOrderBy": true],
            "editingInfo": ["lastEditDate": 1_767_225_600_000],
            "fields": [["name": "OBJECTID", "type": "esriFieldTypeOID"]] + fields.map { ["name": $0.0, "type": $0.2] }] as [String: Any])
        var arcgisPages: [Int: [UInt8]] = [:]
        for start in stride(from: 0, to: max(total, 1), by: arcgisPage) {
            let features = (start..<min(start + arcgisPage, total)).map { index in
                JSONValue.object([JSONMember(key: "attributes", value: record(index, platform: 1))])
            }
            var members = [JSONMember(key: "objectIdFieldName", value: .string("OBJECTID")), JSONMember(key: "features", value: .array(features))]
            if start + arcgisPage < total { members.append(JSONMember(key: "exceededTransferLimit", value: .bool(true))) }
            arcgisPages[start] = text(.object(members))
        }
        // OpenDataSoft
        let dataset = try JSONSerialization.data(withJSONObject: [
            "dataset_id": "bench", "fields": [["name": "id", "type": "int"]] + fields.map { ["name": $0.0, "type": $0.3] },
            "metas": ["default": ["title": "Bench", "records_count": total, "data_processed": "2026-01-01T00:00:00+00:00"]]] as [String: Any])
        var export: [UInt8] = []
        for index in 0..<total { export += text(record(index, platform: 2)) + [0x0A] }

        let (ckan, arcgis) = (ckanPages, arcgisPages)
        let server = try LoopbackHTTPServer()
        server.route("/api/3/action/package_show", .init(body: Array(package)))
        server.route("/datastore/dump/bench", .init(body: dump))
        server.route("/arcgis/rest/services/Bench/FeatureServer/0", .init(body: Array(layer)))
        server.route("/api/explore/v2.1/catalog/datasets/bench", .init(body: Array(dataset)))
        server.route("/api/explore/v2.1/catalog/datasets/bench/exports/jsonl", .init(body: export))
        let empty = ckanAnswer([])
        server.handle { request in
            switch request.route {
            case "/api/3/action/datastore_search":
                let offset = Int(request.query["offset"] ?? "0") ?? 0
                return .init(body: request.query["limit"] == "0" ? empty : ckan[offset] ?? empty)
            case "/arcgis/rest/services/Bench/FeatureServer/0/query":
                if request.query["returnCountOnly"] == "true" { return .init(body: Array("{\"count\":\(total)}".utf8)) }
                let condition = request.query["where"] ?? "1=1"
                let after = condition.split(separator: ">").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
                return .init(body: arcgis[condition.contains(">") ? after : 0] ?? Array(#"{"features":[]}"#.utf8))
            default:
                return nil
            }
        }
        FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
        while true { sleep(3600) }
    }
}
