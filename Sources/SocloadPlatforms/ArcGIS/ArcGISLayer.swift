import SocloadCore

/// An ArcGIS REST layer (`.../FeatureServer/N`, `.../MapServer/N`): described by `?f=json` (its
/// fields, geometry type, object id field, record limit, last edit) and the count
/// `returnCountOnly` gives; its features read by `query` in EPSG:4326, paged by the object id
/// (`where OID > last`, ordered by it, `maxRecordCount` a page, while `exceededTransferLimit`).
/// A server before 10.3 that cannot order (no `advancedQueryCapabilities`) is read the old way:
/// every id first (`returnIdsOnly`), then the features of those ids in chunks.
struct ArcGISLayer: PlatformSource {
    let layer: String
    let service: String
    let number: Int
    let http: PlatformHTTP
    /// Rows a page asks for, when fewer than the layer's `maxRecordCount`.
    var pageSize: Int?
    /// The layer's `?f=json`, read once for its description and its pages.
    let answers = Answers()

    final class Answers {
        var info: JSONValue?
    }

    /// The layer's description (`?f=json`), read once; an error answer is the layer's refusal.
    func layerInfo() throws -> JSONValue {
        if let info = answers.info { return info }
        let url = platformURL(layer, [("f", "json")])
        let info = try http.json(url)
        try refusal(info, url: url)
        answers.info = info
        return info
    }

    /// What the layer's description says of paging (kept from `describe` for the pages).
    struct Paging {
        var objectIDField: String?
        var pageSize: Int
        var ordersByID: Bool
        /// `resultRecordCount` is taken (10.3 and later).
        var sizesPages: Bool
        var dateFields: Set<String>
    }

    func describe() throws -> PlatformRows {
        let url = platformURL(layer, [("f", "json")])
        let info = try layerInfo()
        guard let fields = info["fields"]?.arrayValue else {
            throw PlatformError(.arcgis, url: url, .unexpected("no \"fields\" list (not a layer: a service lists its layers, "
                                                               + "…/FeatureServer/0 names one)"))
        }
        var columns: [PlatformColumn] = []
        var objectIDField = info.text("objectIdField")
        for field in fields {
            guard let name = field.text("name"), let type = field.text("type") else { continue }
            if type == "esriFieldTypeGeometry" || type == "esriFieldTypeBlob" || type == "esriFieldTypeRaster" { continue }
            if objectIDField == nil, type == "esriFieldTypeOID" { objectIDField = name }
            var column = PlatformColumn(field: name, platformType: type, type: Self.logicalType(type), label: field.text("alias"),
                                        description: Self.description(field["description"]))
            if column.label == name { column.label = nil }
            if let coded = field["domain"]?["codedValues"]?.arrayValue {
                column.codedValues = coded.compactMap { value in
                    guard let code = value["code"]?.stringValue, let name = value.text("name") else { return nil }
                    return (code, name)
                }
            }
            columns.append(column)
        }
        // The object id is a field of the layer's, whatever its case in `objectIdField`.
        if let named = objectIDField, !columns.contains(where: { $0.field == named }) {
            objectIDField = columns.first { $0.field.lowercased() == named.lowercased() }?.field
        }
        if let geometryType = info.text("geometryType") {
            let kind = Self.geometryKind(geometryType)
            let name = ["geometry", "shape", "geom"].first { candidate in !columns.contains { $0.field.lowercased() == candidate } } ?? "_geometry"
            columns.append(PlatformColumn(field: name, platformType: geometryType, type: .geometry, geometryKind: kind))
        }
        var description = PlatformDescription(platform: .arcgis, id: layer, fields: columns,
                                              tableName: PlatformDescription.tableName(service, String(number)))
        description.keyField = objectIDField
        description.title = info.text("name")
        description.summary = info.text("description")
        description.dictionary = DatasetDictionary(name: description.title, description: description.summary,
                                                   attribution: info.text("copyrightText"), pageURL: layer)
        if let edited = info["editingInfo"]?["dataLastEditDate"]?.intValue ?? info["editingInfo"]?["lastEditDate"]?.intValue {
            description.dataUpdatedAt = ISO8601Timestamp.format(milliseconds: Int64(edited))
        }
        let countURL = platformURL(layer + "/query", [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")])
        let count = try http.json(countURL)
        try refusal(count, url: countURL)
        description.rowCount = count["count"]?.intValue
        return .described(description)
    }

    /// The paging the layer's description allows.
    func paging(of description: PlatformDescription, info: JSONValue) -> Paging {
        let advanced = info["advancedQueryCapabilities"]
        let version = info["currentVersion"].flatMap { Double($0.stringValue ?? "") } ?? 0
        let orders = advanced?["supportsOrderBy"]?.boolValue ?? advanced?["supportsPagination"]?.boolValue ?? (version >= 10.3)
        let limit = info["maxRecordCount"]?.intValue.flatMap { $0 > 0 ? $0 : nil } ?? 1000
        let size = min(pageSize ?? limit, limit)
        return Paging(objectIDField: description.keyField, pageSize: size, ordersByID: orders,
                      sizesPages: advanced?["supportsPagination"]?.boolValue ?? false,
                      dateFields: Set(description.fields.filter { $0.platformType == "esriFieldTypeDate" }.map(\.field)))
    }

    /// A layer's error answer (`{"error": {"code": 400, "message": ...}}`, sent with status 200).
    func refusal(_ answer: JSONValue, url: String) throws {
        guard let error = answer["error"], error.members != nil else { return }
        let details = (error["details"]?.arrayValue ?? []).compactMap(\.stringValue).filter { !$0.isEmpty }
        let message = ([error["code"]?.stringValue.map { "error \($0)" }, error.text("message")].compactMap { $0 }
                       + details).joined(separator: ": ")
        throw PlatformError(.arcgis, url: url, .refused(message.isEmpty ? error.jsonText : message))
    }

    /// A field's description: ArcGIS Online puts JSON in it (`{"value": "...", "fieldValueType": ...}`).
    static func description(_ value: JSONValue?) -> String? {
        guard let text = value?.stringValue, !text.isEmpty else { return nil }
        if text.hasPrefix("{"), let inner = try? JSONValueParser.parse(Array(text.utf8)) {
            return inner.text("value")
        }
        return text
    }

    static func logicalType(_ name: String) -> LogicalType {
        switch name {
        case "esriFieldTypeOID", "esriFieldTypeSmallInteger", "esriFieldTypeInteger", "esriFieldTypeBigInteger": return .integer
        case "esriFieldTypeSingle", "esriFieldTypeDouble": return .double
        case "esriFieldTypeDate", "esriFieldTypeTimestampOffset": return .timestamp
        case "esriFieldTypeDateOnly": return .date
        default: return .text
        }
    }

    static func geometryKind(_ name: String) -> Geometry.Kind? {
        switch name {
        case "esriGeometryPoint": return .point
        case "esriGeometryMultipoint": return .multiPoint
        case "esriGeometryPolyline": return .multiLineString
        case "esriGeometryPolygon", "esriGeometryEnvelope": return .multiPolygon
        default: return nil
        }
    }
}
