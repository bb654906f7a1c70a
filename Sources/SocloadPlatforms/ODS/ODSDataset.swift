import SocloadCore

/// An OpenDataSoft dataset through the Explore API v2.1: described by
/// `/api/explore/v2.1/catalog/datasets/ID` (its `fields`, `metas.default.records_count` and
/// `data_processed`), its records read from one streamed `/exports/jsonl`. A `geo_point_2d` is
/// `{"lon", "lat"}` in v2.1 and `[lat, lon]` in v1 exports: both become `POINT (lon lat)`, and
/// the old order is said in a note, never swapped silently. A `geo_shape` is GeoJSON (a
/// Feature's geometry is taken out of it).
struct ODSDataset: PlatformSource {
    let base: String
    let datasetID: String
    let http: PlatformHTTP

    private var datasetURL: String { base + "/api/explore/v2.1/catalog/datasets/" + datasetID }

    func describe() throws -> PlatformRows {
        let url = datasetURL
        var answer = try http.json(url)
        if let error = answer.text("error_code") ?? answer.text("message"), answer["fields"] == nil, answer["dataset"] == nil {
            throw PlatformError(.ods, url: url, .refused(error))
        }
        // v2.0 wraps the dataset (`{"dataset": {...}}`); v2.1 answers with it.
        if let wrapped = answer["dataset"], wrapped.members != nil { answer = wrapped }
        guard let fields = answer["fields"]?.arrayValue else {
            throw PlatformError(.ods, url: url, .unexpected("no \"fields\" list (not an Explore API dataset)"))
        }
        var columns: [PlatformColumn] = []
        for field in fields {
            guard let name = field.text("name") else { continue }
            let type = field.text("type") ?? "text"
            let multivalued = field["annotations"]?["multivalued"] != nil
            var column = PlatformColumn(field: name, platformType: multivalued ? type + " (multivalued)" : type,
                                        type: multivalued ? .json : Self.logicalType(type), label: field.text("label"),
                                        description: field.text("description"))
            if type == "geo_point_2d" { column.geometryKind = .point }
            if column.label == name { column.label = nil }
            columns.append(column)
        }
        let metas = answer["metas"]?["default"] ?? answer["metas"] ?? .null
        var description = PlatformDescription(platform: .ods, id: answer.text("dataset_id") ?? datasetID, fields: columns,
                                              tableName: PlatformDescription.tableName(answer.text("dataset_id") ?? datasetID))
        description.rowCount = metas["records_count"]?.intValue
        description.dataUpdatedAt = metas.text("data_processed") ?? metas.text("modified")
        description.title = metas.text("title")
        description.summary = metas.text("description")
        description.dictionary = DatasetDictionary(
            name: description.title, description: description.summary, attribution: metas.text("publisher"),
            license: metas.text("license"), category: (metas["theme"]?.arrayValue?.first?.stringValue),
            tags: (metas["keyword"]?.arrayValue ?? []).compactMap(\.stringValue), pageURL: base + "/explore/dataset/" + datasetID + "/")
        return .described(description)
    }

    static func logicalType(_ name: String) -> LogicalType {
        switch name {
        case "int": return .integer
        case "double": return .double
        case "decimal": return .decimal
        case "boolean": return .boolean
        case "date": return .date
        case "datetime": return .timestamp
        case "geo_point_2d", "geo_shape": return .geometry
        case "json", "file", "image": return .json
        default: return .text
        }
    }

    func writeRecords(of description: PlatformDescription, into spool: RecordSpool, limit: Int?,
                      progress: (Int) -> Void) throws -> [String] {
        let url = platformURL(datasetURL + "/exports/jsonl", limit.map { [("limit", String($0))] } ?? [])
        let points = Set(description.fields.filter { $0.platformType == "geo_point_2d" }.map(\.field))
        let shapes = Set(description.fields.filter { $0.platformType == "geo_shape" }.map(\.field))
        var lines = JSONLines()
        var latitudeFirst = 0
        var received = 0
        try http.stream(url, restart: {
            try spool.truncate()
            lines = JSONLines()
            latitudeFirst = 0
            received = 0
        }) { chunk in
            received += chunk.count
            try lines.feed(chunk) { line in
                if let limit, spool.records >= limit { return }
                guard !points.isEmpty || !shapes.isEmpty else {
                    try spool.writeLines(UnsafeRawBufferPointer(line), count: 1)
                    return
                }
                try spool.writeLine(try Self.line(line, points: points, shapes: shapes, url: url, http: http, latitudeFirst: &latitudeFirst))
            }
            progress(spool.records)
        }
        if let rest = lines.rest, !rest.withUnsafeBufferPointer({ RawObjectParser.trimmed($0).isEmpty }) {
            // The last line without its end: whole if it parses, else the transfer was cut.
            guard let record = try? JSONValueParser.parse(rest) else {
                throw PlatformError(.ods, url: url, .cutShort("the export ends inside a record, after \(received) bytes and "
                                                               + "\(spool.records) whole records"))
            }
            if limit.map({ spool.records < $0 }) ?? true {
                try spool.write(Self.record(record, points: points, shapes: shapes, latitudeFirst: &latitudeFirst))
            }
        }
        try spool.flush()
        // One body holds the whole dataset: fewer records than the dataset counts is a body cut
        // short at a line's end.
        if limit == nil, let stated = description.rowCount, spool.records < stated {
            throw PlatformError(.ods, url: url, .cutShort("the export ends after \(spool.records) of the \(stated) records the "
                                                           + "dataset counts"))
        }
        guard latitudeFirst > 0 else { return [] }
        return ["\(latitudeFirst) geo_point_2d value\(latitudeFirst == 1 ? " was" : "s were") [latitude, longitude] "
                + "(the v1 order), read as such"]
    }

    /// A record's line with its points as `POINT (lon lat)` and its shapes as GeoJSON
    /// geometries, rewritten in place; a line that is no JSON object is said as the answer's.
    static func line(_ bytes: UnsafeBufferPointer<UInt8>, points: Set<String>, shapes: Set<String>, url: String, http: PlatformHTTP,
                     latitudeFirst: inout Int) throws -> [UInt8] {
        guard let answer = RawAnswer(bytes), answer.members(of: answer.root) != nil else {
            _ = try http.parse(Array(bytes), from: url)
            throw PlatformError(.ods, url: url, .unexpected("a line of the export that is no object"))
        }
        let object = RawCell(kind: .object, start: answer.root.lowerBound, end: answer.root.upperBound, isEscaped: false, isNonASCII: false)
        var line = RawRecordLine()
        var swapped = 0
        let pointKeys = points.map { Array($0.utf8) }
        let shapeKeys = shapes.map { Array($0.utf8) }
        _ = line.write(answer, object: object) { key, value, line in
            if pointKeys.contains(where: { key.isSame(as: $0) }) {
                guard value.kind == .object || value.kind == .array, let point = answer.value(of: value),
                      let text = Self.pointText(point, latitudeFirst: &swapped) else { return false }
                line.append(contentsOf: JSONValue.quoted(text).utf8)
                return true
            }
            if shapeKeys.contains(where: { key.isSame(as: $0) }), value.kind == .object,
               answer.member("type", of: value).map({ String(decoding: answer.text(of: $0), as: UTF8.self) }) == "\"Feature\"",
               let geometry = answer.member("geometry", of: value) {
                line.append(contentsOf: answer.text(of: geometry))
                return true
            }
            return false
        }
        latitudeFirst += swapped
        return line.line
    }

    /// A record with its points as `POINT (lon lat)` and its shapes as GeoJSON geometries.
    static func record(_ record: JSONValue, points: Set<String>, shapes: Set<String>, latitudeFirst: inout Int) -> JSONValue {
        guard var members = record.members else { return record }
        for index in members.indices {
            let member = members[index]
            if points.contains(member.key) {
                let point = pointText(member.value, latitudeFirst: &latitudeFirst)
                members[index] = JSONMember(key: member.key, value: point.map(JSONValue.string) ?? member.value)
            } else if shapes.contains(member.key), member.value["type"]?.stringValue == "Feature", let geometry = member.value["geometry"] {
                members[index] = JSONMember(key: member.key, value: geometry)
            }
        }
        return .object(members)
    }

    /// `POINT (lon lat)` of a `geo_point_2d`: `{"lon", "lat"}` (v2.1), or `[lat, lon]` (v1,
    /// counted in `latitudeFirst`); nil for anything else (kept as it came).
    static func pointText(_ value: JSONValue, latitudeFirst: inout Int) -> String? {
        if case .number(let lon)? = value["lon"], case .number(let lat)? = value["lat"] { return "POINT (\(lon) \(lat))" }
        guard let pair = value.arrayValue, pair.count == 2, case .number(let lat) = pair[0], case .number(let lon) = pair[1] else {
            return nil
        }
        latitudeFirst += 1
        return "POINT (\(lon) \(lat))"
    }
}

/// Splits a byte stream into lines, a line handed over whole whatever chunks it came in.
struct JSONLines {
    private var pending: [UInt8] = []

    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ line: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            if pending.isEmpty {
                let slice = UnsafeBufferPointer(rebasing: bytes[start...newline])
                if slice.count > 1 { try line(slice) }
            } else {
                pending.append(contentsOf: bytes[start...newline])
                try pending.withUnsafeBufferPointer { try line($0) }
                pending.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        pending.append(contentsOf: bytes[start...])
    }

    /// What followed the last line end.
    var rest: [UInt8]? { pending.isEmpty ? nil : pending }
}
