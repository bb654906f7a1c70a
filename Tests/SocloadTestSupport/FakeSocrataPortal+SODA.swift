import Foundation
import SocloadSocrata

/// The fake portal's SODA 2 and SODA 3 pages.
extension FakeSocrataPortal {
    func sodaObject(_ row: Row, columns: [Column], system: Bool, numbersInLocations: Bool) -> String {
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
            case let .shape(_, geoJSON):
                value = geoJSON
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

    func soda2Response(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let query = request.query
        let (rows, columns, offsetHandling) = lock.withLock { (rowsValue, columnsValue, offsetHandlingValue) }
        let offset = Int(query["$offset"] ?? "0") ?? 0
        var limit = Int(query["$limit"] ?? "1000") ?? 1000
        if case .ignoredWithLimit = offsetHandling { limit = rows.count }
        let selected = select(rows, where: query["$where"], order: query["$order"] ?? "", offset: offset, limit: limit,
                              paging: offsetHandling)
        guard let selected else { return error(400, code: "query.soql.invalid", message: "Cannot parse $where") }
        var shownColumns = columns
        var all = (query["$select"] ?? ":*, *") == ":*, *"
        if let select = query["$select"], !all {
            let names = Set(select.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            if !names.contains("*") { shownColumns = columns.filter { names.contains($0.fieldName) } }
            all = names.contains(":*") || names.contains(":id") // `$select=:id` (sync --deletes): the system fields
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

    func soda3Response(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
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
        let (rows, columns, paging) = lock.withLock { (rowsValue, columnsValue, offsetHandlingValue) }
        guard let selected = select(rows, where: condition, order: order, offset: (number - 1) * size, limit: size, paging: paging) else {
            return error(400, code: "query.soql.invalid", message: "Cannot parse WHERE")
        }
        let body = "[" + selected.map { sodaObject($0, columns: columns, system: true, numbersInLocations: true) }.joined(separator: ",\n") + "]"
        return .init(body: Array(body.utf8))
    }
}

extension FakeSocrataPortal {
    /// How many rows come before the page a SODA request asks for: its `$offset` (or SODA3 page
    /// number), or, paged by key, the rows its condition on `:id` passes over. Tests key faults on
    /// it as they would on an offset.
    public func position(of request: LoopbackHTTPServer.Request) -> Int {
        let (rows, _) = lock.withLock { (rowsValue, columnsValue) }
        var condition: String?
        var order = ":id"
        var skipped = 0
        if request.method == "POST" {
            guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                  let statement = object["query"] as? String else { return 0 }
            if let page = object["page"] as? [String: Any], let number = page["pageNumber"] as? Int, let size = page["pageSize"] as? Int {
                skipped = (number - 1) * size
            }
            if let whereRange = statement.range(of: " WHERE ") {
                let rest = statement[whereRange.upperBound...]
                condition = String(rest[..<(rest.range(of: " ORDER BY ")?.lowerBound ?? rest.endIndex)])
            }
            if let orderRange = statement.range(of: " ORDER BY ") { order = String(statement[orderRange.upperBound...]) }
        } else {
            skipped = Int(request.query["$offset"] ?? "0") ?? 0
            condition = request.query["$where"]
            order = request.query["$order"] ?? ":id"
        }
        let all = select(rows, where: condition, order: order, offset: 0, limit: Int.max, paging: .ignored) ?? []
        let keyed = select(rows, where: condition, order: order, offset: 0, limit: Int.max) ?? []
        let before = keyed.first.flatMap { first in all.firstIndex { $0.id == first.id } } ?? all.count
        return before + skipped
    }
}
