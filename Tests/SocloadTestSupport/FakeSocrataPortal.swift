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
    private let lock = NSLock()
    private var columnsValue: [Column]
    private var rowsValue: [Row]
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
    /// How a broken server treats SODA 2's `$offset`.
    public enum OffsetHandling: Sendable {
        /// As it should.
        case honoured
        /// Not at all: every page is the first.
        case ignored
        /// Starts this many rows early, so each page repeats the end of the one before.
        case lagging(by: Int)
        /// Neither `$offset` nor `$limit`: every page is every row.
        case ignoredWithLimit
        /// Ignores `$offset` and leaves the system fields (`:id`...) out, whatever `$select` asks.
        case ignoredWithoutSystemFields
    }
    public var offsetHandling: OffsetHandling {
        get { lock.withLock { offsetHandlingValue } }
        set { lock.withLock { offsetHandlingValue = newValue } }
    }
    private var offsetHandlingValue = OffsetHandling.honoured
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
    public func inject(_ injector: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response?) {
        lock.withLock { faultInjector = injector }
    }

    public var rows: [Row] { lock.withLock { rowsValue } }

    // MARK: - Routing

    private func respond(to request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response? {
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

    private func error(_ status: Int, code: String, message: String) -> LoopbackHTTPServer.Response {
        .init(status: status, body: Array("{\"code\":\"\(code)\",\"error\":true,\"message\":\"\(message)\"}".utf8))
    }

    private func json(_ value: Any) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

    // MARK: - Metadata

    private func columnObjects(system: Bool) -> [[String: Any]] {
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

    private func view(system: Bool) -> [String: Any] {
        let (updated, type) = lock.withLock { (rowsUpdatedAtValue, viewTypeValue) }
        return ["id": datasetID, "name": "Fake Dataset", "rowsUpdatedAt": updated, "viewType": type,
                "newBackend": true, "columns": columnObjects(system: system)]
    }

    private func viewResponse() -> LoopbackHTTPServer.Response {
        if hidesMetadata { return error(404, code: "not_found", message: "No such view") }
        return .init(body: json(view(system: false)))
    }

    // MARK: - rows.json

    private func rowsJSONResponse(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
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
                     body: body)
    }

    private func rowsJSONCell(_ cell: Cell?) -> Any {
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
        }
    }

    // MARK: - SODA

    private func sodaObject(_ row: Row, columns: [Column], system: Bool, numbersInLocations: Bool) -> String {
        var members = system ? [
            "\":id\":\"\(row.id)\"",
            "\":created_at\":\"\(Self.isoWithMilliseconds(row.createdAt))\"",
            "\":updated_at\":\"\(Self.isoWithMilliseconds(row.updatedAt))\"",
        ] : []
        for column in columns {
            guard let cell = row.cells[column.fieldName] else { continue } // nulls are simply absent
            let value: String
            switch cell {
            case .text(let text): value = Self.quote(text)
            case .number(let number): value = Self.quote(number)
            case .checkbox(let flag): value = flag ? "true" : "false"
            case .calendarDate(let date): value = Self.quote(date + ".000")
            case .timestamp(let seconds): value = Self.quote(Self.isoWithMilliseconds(seconds))
            case let .location(address, latitude, longitude):
                let lat = numbersInLocations ? latitude : Self.quote(latitude)
                let lon = numbersInLocations ? longitude : Self.quote(longitude)
                value = "{\"latitude\":\(lat),\"longitude\":\(lon),\"human_address\":\(Self.quote(address))}"
            case let .url(url, description):
                value = "{\"url\":\(Self.quote(url))" + (description.map { ",\"description\":\(Self.quote($0))" } ?? "") + "}"
            case let .point(longitude, latitude):
                value = "{\"type\":\"Point\",\"coordinates\":[\(longitude),\(latitude)]}"
            }
            members.append("\(Self.quote(column.fieldName)):\(value)")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The body of the SODA 2 page of every column (`$select=:*, *`) from `offset`, as the portal
    /// sends it, for a test that serves a broken copy of it.
    public func soda2PageBody(offset: Int, limit: Int) -> [UInt8] {
        let (rows, columns) = lock.withLock { (rowsValue, columnsValue) }
        let selected = select(rows, where: nil, order: ":id", offset: offset, limit: limit) ?? []
        return Array(("[" + selected.map { sodaObject($0, columns: columns, system: true, numbersInLocations: false) }
            .joined(separator: ",\n") + "]").utf8)
    }

    private func soda2Response(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let query = request.query
        let (rows, columns, offsetHandling) = lock.withLock { (rowsValue, columnsValue, offsetHandlingValue) }
        var offset = Int(query["$offset"] ?? "0") ?? 0
        switch offsetHandling {
        case .honoured: break
        case .ignored: offset = 0
        case .lagging(let rows): offset = max(0, offset - rows)
        case .ignoredWithLimit, .ignoredWithoutSystemFields: offset = 0
        }
        var limit = Int(query["$limit"] ?? "1000") ?? 1000
        if case .ignoredWithLimit = offsetHandling { limit = rows.count }
        let selected = select(rows, where: query["$where"], order: query["$order"] ?? "", offset: offset, limit: limit)
        guard let selected else { return error(400, code: "query.soql.invalid", message: "Cannot parse $where") }
        var shownColumns = columns
        var all = (query["$select"] ?? ":*, *") == ":*, *"
        if let select = query["$select"], !all {
            let names = Set(select.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            if !names.contains("*") { shownColumns = columns.filter { names.contains($0.fieldName) } }
            all = names.contains(":*")
        }
        if case .ignoredWithoutSystemFields = offsetHandling { all = false }
        let body = "[" + selected.map { sodaObject($0, columns: shownColumns, system: all, numbersInLocations: false) }
            .joined(separator: ",\n") + "]"
        var headers = [("Content-Type", "application/json")]
        if sendsFieldHeaders {
            let systemFields = all ? [":id", ":created_at", ":updated_at"] : []
            let fields = systemFields + shownColumns.map(\.fieldName)
            let types = (all ? ["text", "fixed_timestamp", "fixed_timestamp"] : []) + shownColumns.map { Self.soda2Type($0.dataTypeName) }
            headers.append(("X-SODA2-Fields", "[" + fields.map(Self.quote).joined(separator: ",") + "]"))
            headers.append(("X-SODA2-Types", "[" + types.map(Self.quote).joined(separator: ",") + "]"))
        }
        return .init(headers: headers, body: Array(body.utf8))
    }

    private func soda3Response(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        guard request.method == "POST",
              let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
              let statement = object["query"] as? String, let page = object["page"] as? [String: Any],
              let number = page["pageNumber"] as? Int, let size = page["pageSize"] as? Int, number >= 1
        else { return error(400, code: "invalid_request", message: "Expected a query and a page") }
        var condition: String?
        var order = ":id"
        if let whereRange = statement.range(of: " WHERE ") {
            let rest = statement[whereRange.upperBound...]
            let end = rest.range(of: " ORDER BY ")?.lowerBound ?? rest.endIndex
            condition = String(rest[..<end])
        }
        if let orderRange = statement.range(of: " ORDER BY ") { order = String(statement[orderRange.upperBound...]) }
        let (rows, columns) = lock.withLock { (rowsValue, columnsValue) }
        guard let selected = select(rows, where: condition, order: order, offset: (number - 1) * size, limit: size) else {
            return error(400, code: "query.soql.invalid", message: "Cannot parse WHERE")
        }
        let body = "[" + selected.map { sodaObject($0, columns: columns, system: true, numbersInLocations: true) }.joined(separator: ",\n") + "]"
        return .init(body: Array(body.utf8))
    }

    // MARK: - A little SoQL

    /// Filters with `field = 'text'`, `:updated_at > 'ISO'` (joined by AND), sorts and pages.
    private func select(_ rows: [Row], where condition: String?, order: String, offset: Int, limit: Int) -> [Row]? {
        var result = rows
        if let condition, !condition.isEmpty {
            for clause in condition.components(separatedBy: " AND ") {
                guard let filter = Self.filter(clause) else { return nil }
                result = result.filter(filter)
            }
        }
        let keys = order.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        result.sort { left, right in
            for key in keys {
                let (a, b) = (Self.sortKey(left, key), Self.sortKey(right, key))
                if a != b { return a < b }
            }
            return false
        }
        return Array(result.dropFirst(offset).prefix(limit))
    }

    private static func filter(_ clause: String) -> ((Row) -> Bool)? {
        for op in [" > ", " = "] {
            guard let range = clause.range(of: op) else { continue }
            let field = clause[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            var literal = clause[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard literal.hasPrefix("'"), literal.hasSuffix("'"), literal.count >= 2 else { return nil }
            literal = String(literal.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
            if field == ":updated_at", op == " > " {
                guard let seconds = parseISO(literal) else { return nil }
                return { $0.updatedAt > seconds }
            }
            if op == " = " {
                let value = literal
                return { row in
                    if case .text(let text)? = row.cells[field] { return text == value }
                    return false
                }
            }
        }
        return nil
    }

    private static func sortKey(_ row: Row, _ key: String) -> String {
        switch key {
        case ":id": return row.id
        case ":updated_at": return String(format: "%012d", row.updatedAt)
        default:
            if case .text(let text)? = row.cells[key] { return text }
            if case .number(let number)? = row.cells[key] { return number }
            return ""
        }
    }

    // MARK: - Formatting

    static func quote(_ text: String) -> String {
        JSONValue.quoted(text)
    }

    static func isoWithMilliseconds(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let text = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
        return text.replacingOccurrences(of: "Z", with: ".000Z")
    }

    static func parseISO(_ text: String) -> Int? {
        var trimmed = text
        if trimmed.hasSuffix("Z") { trimmed.removeLast() }
        if let dot = trimmed.firstIndex(of: ".") { trimmed = String(trimmed[..<dot]) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: trimmed).map { Int($0.timeIntervalSince1970) }
    }

    static func soda2Type(_ dataTypeName: String) -> String {
        switch dataTypeName {
        case "calendar_date": return "floating_timestamp"
        case "date": return "fixed_timestamp"
        default: return dataTypeName
        }
    }
}
