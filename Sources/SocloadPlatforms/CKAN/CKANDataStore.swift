import SocloadCore
import SocloadFiles

/// A CKAN resource: described by `package_show` (and `resource_show` when the URL names only the
/// resource) and the DataStore's `datastore_search?limit=0` fields, its rows read from
/// `datastore_search` pages sorted by `_id`. A resource outside the DataStore is its file.
///
/// Paging follows what real servers do: a page may hold fewer rows than asked (a portal's own
/// limit), `_links.next` is offered past the end (and loops at `limit=0`), and `total` may be an
/// estimate; so the pages go on until one is empty or `total` rows came (when it is exact), and
/// each page's first `_id` must follow the last one's (else the server ignores paging).
struct CKANDataStore: PlatformSource {
    let locator: CKANLocator
    let http: PlatformHTTP
    /// Rows asked for a page: CKAN's own largest (`ckan.datastore.search.rows_max`, 32,000).
    var pageSize = 32_000
    /// Whether the JSON dump is tried first (`--page-size` asks for pages).
    var readsDump = true

    private var action: String { locator.base + locator.actions }

    /// An action's `result`; `success: false` is the platform's refusal.
    private func result(_ name: String, _ items: [(String, String)]) throws -> JSONValue {
        let url = platformURL(action + name, items)
        let answer = try http.json(url)
        if let refusal = Self.refusal(in: answer, url: url) { throw refusal }
        guard let result = answer["result"], result.members != nil else {
            throw PlatformError(.ckan, url: url, .unexpected("no \"result\" object (not a CKAN action API answer)"))
        }
        return result
    }

    func describe() throws -> PlatformRows {
        var packageID = locator.package
        if packageID == nil, let resource = locator.resource {
            packageID = try result("resource_show", [("id", resource)]).text("package_id")
        }
        guard let packageID else { throw PlatformError(.ckan, url: locator.base, .notADataset(platform: .ckan)) }
        let package = try result("package_show", [("id", packageID)])
        let resources = package["resources"]?.arrayValue ?? []
        let position: Int
        if let id = locator.resource {
            guard let found = resources.firstIndex(where: { $0["id"]?.stringValue == id }) else {
                throw PlatformError(.ckan, url: action + "package_show?id=" + packageID,
                                    .nothingToLoad("the dataset \(packageID) has no resource \(id)"))
            }
            position = found
        } else if let found = resources.firstIndex(where: { $0["datastore_active"]?.boolValue == true })
                    ?? resources.firstIndex(where: { Self.isReadableFile($0) }) {
            position = found
        } else {
            throw PlatformError(.ckan, url: action + "package_show?id=" + packageID,
                                .nothingToLoad("the dataset \(packageID) has no DataStore table and no CSV or JSON file"))
        }
        let resource = resources[position]
        let name = package.text("name") ?? packageID
        let tableName = PlatformDescription.tableName(name, resources.count > 1 ? String(position + 1) : "")
        let signal = Self.lastChange(resource: resource, package: package)
        let title = [package.text("title"), resource.text("name")].compactMap { $0 }.joined(separator: ": ")
        guard let resourceID = resource.text("id"), resource["datastore_active"]?.boolValue == true else {
            guard let url = resource.text("url"), Self.isReadableFile(resource) else {
                throw PlatformError(.ckan, url: action + "package_show?id=" + packageID,
                                    .nothingToLoad("the resource \(resource.text("name") ?? "") is not in the DataStore and "
                                                   + "its file is not CSV or JSON (format \(resource.text("format") ?? "not given"))"))
            }
            return .file(url: url, tableName: tableName, dataUpdatedAt: signal)
        }
        let head = try result("datastore_search", [("resource_id", resourceID), ("limit", "0")])
        guard let fields = head["fields"]?.arrayValue else {
            throw PlatformError(.ckan, url: action + "datastore_search?resource_id=" + resourceID,
                                .unexpected("no \"fields\" list"))
        }
        var description = PlatformDescription(platform: .ckan, id: resourceID, fields: try fields.map(Self.column), tableName: tableName)
        description.keyField = description.fields.contains { $0.field == "_id" } ? "_id" : nil
        description.rowCount = head["total_was_estimated"]?.boolValue == true ? nil : head["total"]?.intValue
        description.dataUpdatedAt = signal
        description.title = title.isEmpty ? nil : title
        description.summary = resource.text("description") ?? package.text("notes")
        description.dictionary = DatasetDictionary(name: description.title, description: description.summary,
                                                   attribution: package["organization"]?.text("title") ?? package.text("author"),
                                                   license: package.text("license_title"), licenseID: package.text("license_id"),
                                                   tags: (package["tags"]?.arrayValue ?? []).compactMap { $0.text("name") },
                                                   pageURL: locator.base + "/dataset/" + name + "/resource/" + resourceID)
        return .described(description)
    }

    /// When the resource last changed: the later of its `last_modified` and its package's
    /// `metadata_modified` (a DataStore upsert does not move `last_modified` on every CKAN, and
    /// the package's moves with any change of its resources), naive UTC as CKAN writes them, `Z` added.
    static func lastChange(resource: JSONValue, package: JSONValue) -> String? {
        let stamps = [resource.text("last_modified"), package.text("metadata_modified")].compactMap { $0 }
            .compactMap { text in ISO8601Timestamp.parse(text).map { (text, $0) } }
        guard let latest = stamps.max(by: { $0.1 < $1.1 })?.0 else { return nil }
        let hasZone = latest.hasSuffix("Z") || latest.dropFirst(10).contains("+") || latest.dropFirst(10).contains("-")
        return hasZone ? latest : latest + "Z"
    }

    /// CKAN's refusal (`"success": false`, its error's message), if the answer is one.
    private static func refusal(in answer: JSONValue, url: String) -> PlatformError? {
        guard answer["success"]?.boolValue == false else { return nil }
        return PlatformError(.ckan, url: url, .refused(answer["error"]?["message"]?.stringValue ?? answer["error"]?.jsonText ?? "success: false"))
    }

    /// Why a page has no records: CKAN's refusal (`success: false`), a body that is no JSON, or
    /// an answer without `result.MISSING`.
    private func refusal(_ body: [UInt8], url: String, missing: String) -> Error {
        do {
            let answer = try http.parse(body, from: url)
            return Self.refusal(in: answer, url: url) ?? PlatformError(.ckan, url: url, .unexpected("no \"result.\(missing)\" list"))
        } catch {
            return error
        }
    }

    /// A resource whose file the document job reads: CSV, TSV or JSON by its format or file name.
    static func isReadableFile(_ resource: JSONValue) -> Bool {
        let format = (resource.text("format") ?? "").lowercased()
        let url = (resource.text("url") ?? "").lowercased().split(separator: "?").first.map(String.init) ?? ""
        return ["csv", "tsv", "json", "geojson", "ndjson"].contains(format)
            || [".csv", ".tsv", ".json", ".ndjson"].contains { url.hasSuffix($0) }
    }

    /// A DataStore field: `{"id": "name", "type": "int4", "info": {"label": ..., "notes": ...}}`.
    static func column(_ field: JSONValue) throws -> PlatformColumn {
        guard let id = field["id"]?.stringValue else {
            throw PlatformError(.ckan, url: "datastore_search", .unexpected("a field without an \"id\": \(field.jsonText)"))
        }
        let type = field["type"]?.stringValue ?? "text"
        var column = PlatformColumn(field: id, platformType: type, type: Self.logicalType(type),
                                    label: field["info"]?.text("label"), description: field["info"]?.text("notes"))
        if column.label == id { column.label = nil }
        return column
    }

    /// PostgreSQL's type names as the DataStore reports them (`int4`, `float8`, `_text`, `timestamp`).
    static func logicalType(_ name: String) -> LogicalType {
        let type = name.lowercased()
        if type.hasPrefix("_") || type.hasSuffix("[]") { return .json }
        switch type {
        case "int", "int2", "int4", "int8", "integer", "bigint", "smallint", "serial", "bigserial": return .integer
        case "float4", "float8", "float", "real", "double precision": return .double
        case "numeric", "number", "decimal", "money": return .decimal
        case "bool", "boolean": return .boolean
        case "date": return .date
        case "timestamp", "timestamp without time zone": return .floatingTimestamp
        case "timestamptz", "timestamp with time zone": return .timestamp
        case "json", "jsonb": return .json
        default: return .text
        }
    }

    func writeRecords(of description: PlatformDescription, into spool: RecordSpool, limit: Int?,
                      progress: (Int) -> Void) throws -> [String] {
        if readsDump {
            let url = platformURL(locator.base + "/datastore/dump/" + description.id,
                                  [("format", "json")] + (limit.map { [("limit", String($0))] } ?? []))
            do {
                try CKANDump(url: url, http: http).write(into: spool, described: Set(description.fields.map(\.field)), limit: limit,
                                                        progress: progress)
                return []
            } catch is CKANDump.NotOffered {
                try spool.truncate()
            }
        }
        return try writePages(of: description, into: spool, limit: limit, progress: progress)
    }

    /// `datastore_search` pages sorted by `_id` (a CKAN without the JSON dump).
    private func writePages(of description: PlatformDescription, into spool: RecordSpool, limit: Int?,
                            progress: (Int) -> Void) throws -> [String] {
        let keyed = description.keyField == "_id"
        var offset = 0
        var lastID: Int?
        var previousFirst: String?
        var page = 0
        while limit.map({ spool.records < $0 }) ?? true {
            page += 1
            let asked = min(pageSize, limit.map { $0 - spool.records } ?? pageSize)
            var items = [("resource_id", description.id), ("limit", String(asked)), ("offset", String(offset))]
            if keyed { items.append(("sort", "_id")) }
            let url = platformURL(action + "datastore_search", items)
            let body = try http.body(url)
            let (count, ids, first) = try body.withUnsafeBufferPointer { buffer -> (Int, (first: Int?, last: Int?), String) in
                guard let answer = RawAnswer(buffer), let records = answer.value(at: ["result", "records"]).flatMap(answer.elements) else {
                    throw refusal(body, url: url, missing: "records")
                }
                if records.count > asked {
                    throw PlatformError(.ckan, url: url, .oversizedPage(page: page, rows: records.count, asked: asked))
                }
                var line = RawRecordLine()
                for record in records {
                    guard record.kind == .object else { throw PlatformError(.ckan, url: url, .unexpected("a record that is no object")) }
                    line.copy(answer, object: record)
                    try spool.writeLine(line.line)
                }
                let ids = (records.first.flatMap { answer.integer(answer.member("_id", of: $0)) },
                           records.last.flatMap { answer.integer(answer.member("_id", of: $0)) })
                return (records.count, ids, records.first.map { String(decoding: answer.text(of: $0), as: UTF8.self) } ?? "")
            }
            if count == 0 { break }
            if keyed {
                guard let firstID = ids.first, let lastOfPage = ids.last else {
                    throw PlatformError(.ckan, url: url, .unexpected("a record without its _id"))
                }
                if let lastID, firstID <= lastID {
                    throw PlatformError(.ckan, url: url, .repeatedPage(page: page, detail: "its first _id \(firstID) is not after \(lastID)"))
                }
                lastID = lastOfPage
            } else {
                // Without `_id` (a DataStore view), a page that begins as the last one did is that page again.
                if first == previousFirst {
                    throw PlatformError(.ckan, url: url, .repeatedPage(page: page, detail: "it begins with the row page \(page - 1) began with"))
                }
                previousFirst = first
            }
            offset += count
            progress(spool.records)
            if let total = description.rowCount, offset >= total { break }
        }
        try spool.flush()
        return []
    }
}
