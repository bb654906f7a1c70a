import Foundation
import SocloadSocrata

/// A fake Socrata portal over a real loopback HTTP server, serving ONE dataset through every API:
/// `/api/views/ID.json`, `/api/views/ID/rows.json`, `/resource/ID.json` (SODA 2.1 with `$select`,
/// `$where`, `$order`, `$limit`, `$offset`) and `POST /api/v3/views/ID/query.json` (SODA3). Each API
/// renders the same rows the way the real one does, so tables loaded through them must agree.
public final class FakeSocrataPortal: @unchecked Sendable {
    // @unchecked Sendable: every mutable property is only touched under `lock`.

    /// A cell value, rendered per API.
    public enum Cell: Sendable, Equatable {
        case text(String)
        case number(String)
        case checkbox(Bool)
        /// A floating timestamp: `2015-01-01T00:00:00`.
        case calendarDate(String)
        /// A fixed timestamp, epoch seconds.
        case timestamp(Int)
        case location(address: String, latitude: String, longitude: String)
        case url(String, description: String?)
        case point(longitude: String, latitude: String)
        /// Any other geometry (line, polygon, multi-): WKT in rows.json, GeoJSON in SODA.
        case shape(wkt: String, geoJSON: String)
    }

    public struct Column: Sendable {
        public let fieldName: String
        public let dataTypeName: String

        public init(_ fieldName: String, _ dataTypeName: String) {
            self.fieldName = fieldName
            self.dataTypeName = dataTypeName
        }
    }

    public struct Row: Sendable {
        public var id: String
        public var createdAt: Int
        public var updatedAt: Int
        public var cells: [String: Cell]

        public init(id: String, createdAt: Int, updatedAt: Int, cells: [String: Cell]) {
            self.id = id
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.cells = cells
        }
    }

    public let server: LoopbackHTTPServer
    public let datasetID: String
    let lock = NSLock()
    var columnsValue: [Column]
    var rowsValue: [Row]
    private var rowsUpdatedAtValue: Int
    private var version = 1
    private var faultInjector: (@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response?)?
    /// Requests need this `X-App-Token` when set.
    public var requiredAppToken: String? {
        get { lock.withLock { requiredAppTokenValue } }
        set { lock.withLock { requiredAppTokenValue = newValue } }
    }
    private var requiredAppTokenValue: String?
    /// Requests need this `user:password` (HTTP basic) when set.
    public var requiredLogin: String? {
        get { lock.withLock { requiredLoginValue } }
        set { lock.withLock { requiredLoginValue = newValue } }
    }
    private var requiredLoginValue: String?
    /// Send the deprecated X-SODA2-Fields / X-SODA2-Types headers on SODA 2 pages.
    public var sendsFieldHeaders: Bool {
        get { lock.withLock { sendsFieldHeadersValue } }
        set { lock.withLock { sendsFieldHeadersValue = newValue } }
    }
    private var sendsFieldHeadersValue = true
    /// Answer `/api/views/ID.json` with 404, as private or old portals do.
    public var hidesMetadata: Bool {
        get { lock.withLock { hidesMetadataValue } }
        set { lock.withLock { hidesMetadataValue = newValue } }
    }
    private var hidesMetadataValue = false
    /// Send an ETag with rows.json; without one, only `If-Modified-Since` can get a 304.
    public var sendsETag: Bool {
        get { lock.withLock { sendsETagValue } }
        set { lock.withLock { sendsETagValue = newValue } }
    }
    private var sendsETagValue = true
    /// How rows.json bodies are sent (slowly, say).
    public var rowsDelivery: LoopbackHTTPServer.Delivery {
        get { lock.withLock { rowsDeliveryValue } }
        set { lock.withLock { rowsDeliveryValue = newValue } }
    }
    private var rowsDeliveryValue = LoopbackHTTPServer.Delivery.contentLength
    /// How a broken server treats paging: the key (the condition on `:id` of paging by key) and
    /// `$offset` (or SODA3's page number).
    public enum OffsetHandling: Sendable {
        /// As it should.
        case honoured
        /// Not at all (comparisons on `:id` hold for every row): every page is the first.
        case ignored
        /// Starts this many rows early (key or offset), so each page repeats the end of the one before.
        case lagging(by: Int)
        /// Neither the key, `$offset` nor `$limit`: every page is every row.
        case ignoredWithLimit
        /// Ignores the key and `$offset`, and leaves the system fields (`:id`...) out, whatever `$select` asks.
        case ignoredWithoutSystemFields
    }
    public var offsetHandling: OffsetHandling {
        get { lock.withLock { offsetHandlingValue } }
        set { lock.withLock { offsetHandlingValue = newValue } }
    }
    var offsetHandlingValue = OffsetHandling.honoured
    /// More members of the dataset's description (`metadata`, `description`, `attribution`).
    public var viewExtras: [String: any Sendable] {
        get { lock.withLock { viewExtrasValue } }
        set { lock.withLock { viewExtrasValue = newValue } }
    }
    private var viewExtrasValue: [String: any Sendable] = [:]
    public var viewType: String {
        get { lock.withLock { viewTypeValue } }
        set { lock.withLock { viewTypeValue = newValue } }
    }
    private var viewTypeValue = "tabular"

    public init(datasetID: String, columns: [Column], rows: [Row], rowsUpdatedAt: Int) throws {
        server = try LoopbackHTTPServer()
        self.datasetID = datasetID
        columnsValue = columns
        rowsValue = rows
        rowsUpdatedAtValue = rowsUpdatedAt
        server.handle { [weak self] request in self?.respond(to: request) }
    }

    public var baseURL: String { server.baseURL }

    public func stop() { server.stop() }

    /// Changes the data as a publisher would: the rows' version and rowsUpdatedAt move on.
    public func update(_ change: (inout [Row], inout [Column]) -> Void, rowsUpdatedAt: Int) {
        lock.withLock {
            change(&rowsValue, &columnsValue)
            rowsUpdatedAtValue = rowsUpdatedAt
            version += 1
        }
    }

    /// Lets a test answer some requests itself (faults): return nil to let the portal answer.
    /// Headers every answer carries besides its own (a deprecation notice, say).
    public var extraHeaders: [(String, String)] {
        get { lock.withLock { extraHeadersValue } }
        set { lock.withLock { extraHeadersValue = newValue } }
    }
    private var extraHeadersValue: [(String, String)] = []

    public func inject(_ injector: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response?) {
        lock.withLock { faultInjector = injector }
    }

    public var rows: [Row] { lock.withLock { rowsValue } }

    // MARK: - Routing

    func respond(to request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response? {
        guard var response = route(request) else { return nil }
        response.headers += extraHeaders
        return response
    }

    private func route(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response? {
        let (injector, token, login) = lock.withLock { (faultInjector, requiredAppTokenValue, requiredLoginValue) }
        if let response = injector?(request) { return response }
        if let token, request.headers["x-app-token"] != token {
            return error(403, code: "authentication_required", message: "An app token is required")
        }
        if let login {
            let expected = "Basic " + Data(login.utf8).base64EncodedString()
            if request.headers["authorization"] != expected {
                return error(401, code: "authentication_required", message: "Login required")
            }
        }
        switch request.route {
        case "/api/views/\(datasetID).json": return viewResponse()
        case "/api/views/\(datasetID)/rows.json": return rowsJSONResponse(request)
        case "/resource/\(datasetID).json": return soda2Response(request)
        case "/api/v3/views/\(datasetID)/query.json": return soda3Response(request)
        default: return error(404, code: "not_found", message: "Not found")
        }
    }

    func error(_ status: Int, code: String, message: String) -> LoopbackHTTPServer.Response {
        .init(status: status, body: Array("{\"code\":\"\(code)\",\"error\":true,\"message\":\"\(message)\"}".utf8))
    }

    func json(_ value: Any) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

    // MARK: - Metadata

    func columnObjects(system: Bool) -> [[String: Any]] {
        let (columns, id) = lock.withLock { (columnsValue, datasetID) }
        _ = id
        var objects: [[String: Any]] = []
        if system {
            for name in ["sid", "id", "position", "created_at", "created_meta", "updated_at", "updated_meta", "meta"] {
                objects.append(["id": -1, "name": name, "fieldName": ":" + name, "dataTypeName": "meta_data", "position": 0])
            }
        }
        for (index, column) in columns.enumerated() {
            var object: [String: Any] = ["id": 100 + index, "name": column.fieldName.capitalized, "fieldName": column.fieldName,
                                         "dataTypeName": column.dataTypeName, "position": index + 1]
            if column.dataTypeName == "location" {
                object["subColumnTypes"] = ["human_address", "latitude", "longitude", "machine_address", "needs_recoding"]
            }
            objects.append(object)
        }
        return objects
    }

    func view(system: Bool) -> [String: Any] {
        let (updated, type, extras) = lock.withLock { (rowsUpdatedAtValue, viewTypeValue, viewExtrasValue) }
        var view: [String: Any] = ["id": datasetID, "name": "Fake Dataset", "rowsUpdatedAt": updated, "viewType": type,
                                   "newBackend": true, "columns": columnObjects(system: system)]
        for (key, value) in extras { view[key] = value }
        return view
    }

    func viewResponse() -> LoopbackHTTPServer.Response {
        if hidesMetadata { return error(404, code: "not_found", message: "No such view") }
        return .init(body: json(view(system: false)))
    }

    // MARK: - rows.json

    func rowsJSONResponse(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let (rows, columns, version, sendsETag) = lock.withLock { (self.rowsValue, self.columnsValue, self.version, self.sendsETagValue) }
        let etag = "\"v\(version)\""
        let lastModified = "Thu, 0\(min(version, 9)) Jan 2015 00:00:00 GMT"
        if sendsETag, request.headers["if-none-match"] == etag {
            return .init(status: 304, headers: [("ETag", etag)], body: [])
        }
        if !sendsETag, request.headers["if-modified-since"] == lastModified {
            return .init(status: 304, headers: [("Last-Modified", lastModified)], body: [])
        }
        let data = rows.map { row -> [Any] in
            let guid: Any = "00000000-0000-0000-0000-" + String(row.id.suffix(12))
            var cells: [Any] = [row.id, guid, 0, row.createdAt, NSNull(), row.updatedAt, NSNull(), "{ }"]
            for column in columns { cells.append(rowsJSONCell(row.cells[column.fieldName])) }
            return cells
        }
        // meta before data, as Socrata writes it.
        let body = Array("{\"meta\":{\"view\":".utf8) + json(view(system: true)) + Array("},\"data\":".utf8) + json(data)
            + Array("}".utf8)
        return .init(headers: [("Content-Type", "application/json"), ("Last-Modified", lastModified)] + (sendsETag ? [("ETag", etag)] : []),
                     body: body, delivery: rowsDelivery)
    }

    func rowsJSONCell(_ cell: Cell?) -> Any {
        switch cell {
        case nil: return NSNull()
        case .text(let text)?: return text
        case .number(let number)?: return number + (number.contains(".") ? "" : ".000000")
        case .checkbox(let flag)?: return flag
        case .calendarDate(let date)?: return date
        case .timestamp(let seconds)?: return seconds
        case let .location(address, latitude, longitude)?: return [address, latitude, longitude, NSNull(), false]
        case let .url(url, description)?: return [url as Any, (description as Any?) ?? NSNull()]
        case let .point(longitude, latitude)?: return "POINT (\(longitude) \(latitude))"
        case let .shape(wkt, _)?: return wkt
        }
    }
}
