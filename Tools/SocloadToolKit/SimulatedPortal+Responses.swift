import Foundation

/// The simulated portal's answers: the catalog, descriptions, SODA 2.1 pages, and `/_stats`,
/// `/_datasets` (each id with its rows now), `/_change?fraction=F&seed=S[&faulty=1[&kind=slow]]` and
/// `/_faults?fraction=F&seed=S` (or `?id=ID&kind=K`, one dataset) for a bench script to drive it.
extension SimulatedPortal {
    func respond(to request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response? {
        let route = request.route
        let query = request.query
        switch route {
        case "/api/catalog/v1":
            return catalogPage(query)
        case "/_stats":
            let text = stats().sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
            return .init(body: Array("{\(text)}".utf8))
        case "/_datasets":
            let list = datasets.map { "{\"id\": \"\($0.id)\", \"rows\": \($0.rowCount)}" }.joined(separator: ", ")
            return .init(body: Array("[\(list)]".utf8))
        case "/_change":
            let ids = change(fraction: Double(query["fraction"] ?? "") ?? 0.05, seed: UInt64(query["seed"] ?? "") ?? 1)
            // `faulty=1`: the changed datasets' pages fail first (the kinds in turn, or all `kind`).
            if query["faulty"] == "1" { arm(ids, kind: query["kind"].flatMap(Fault.init(rawValue:))) }
            return .init(body: Array("{\"changed\": \(ids.count)}".utf8))
        case "/_faults":
            // `id=ID&kind=K`: that one dataset's pages fail first, as K says.
            if let id = query["id"] {
                arm([id], kind: query["kind"].flatMap(Fault.init(rawValue:)))
                return .init(body: Array("{\"faulty\": 1}".utf8))
            }
            let ids = arm(fraction: Double(query["fraction"] ?? "") ?? 0.05, seed: UInt64(query["seed"] ?? "") ?? 1)
            return .init(body: Array("{\"faulty\": \(ids.count)}".utf8))
        default:
            break
        }
        if route.hasPrefix("/api/views/"), route.hasSuffix(".json") {
            let id = String(route.dropFirst("/api/views/".count).dropLast(".json".count))
            guard let dataset = lock.withLock({ state.first { $0.id == id } }) else { return notFound() }
            lock.withLock { count("views") }
            return .init(body: Array(Self.viewJSON(dataset).utf8))
        }
        if route.hasPrefix("/resource/"), route.hasSuffix(".json") {
            let id = String(route.dropFirst("/resource/".count).dropLast(".json".count))
            return page(of: id, query)
        }
        return nil
    }

    private func notFound() -> LoopbackHTTPServer.Response {
        .init(status: 404, body: Array(#"{"code":"not_found","error":true,"message":"Not found"}"#.utf8))
    }

    private func catalogPage(_ query: [String: String]) -> LoopbackHTTPServer.Response {
        let limit = max(1, Int(query["limit"] ?? "") ?? 100)
        let datasets = lock.withLock { () -> [Dataset] in
            count("catalog")
            return state
        }
        let start: Int
        if let after = query["scroll_id"] {
            start = datasets.firstIndex { $0.id > after } ?? datasets.count
        } else {
            start = Int(query["offset"] ?? "") ?? 0
            if start + limit > Self.offsetWindow {
                return .init(status: 400, body: Array(#"{"error":"offset + limit must be at most 10000; page with scroll_id"}"#.utf8))
            }
        }
        let chosen = datasets[min(start, datasets.count)..<min(start + limit, datasets.count)]
        let fields = Self.columns.map { "\"\($0.fieldName)\"" }.joined(separator: ",")
        let results = chosen.map { dataset in
            let updated = Self.iso(dataset.rowsUpdatedAt)
            let stamp = catalogGivesDataUpdatedAt ? "\"data_updated_at\":\"\(updated)\",\"updatedAt\":\"\(updated)\"," : ""
            return "{\"resource\":{\"id\":\"\(dataset.id)\",\"name\":\"Simulated dataset \(dataset.id)\",\"type\":\"dataset\","
                + stamp + "\"columns_field_name\":[\(fields)]},\"metadata\":{\"domain\":\"\(baseURL)\"},"
                + "\"permalink\":\"\(baseURL)/d/\(dataset.id)\"}"
        }
        return .init(body: Array("{\"results\":[\(results.joined(separator: ","))],\"resultSetSize\":\(datasets.count)}".utf8))
    }

    static func viewJSON(_ dataset: Dataset) -> String {
        let columns = columns.enumerated().map { index, column in
            "{\"id\":\(100 + index),\"name\":\"\(column.fieldName.capitalized)\",\"fieldName\":\"\(column.fieldName)\","
                + "\"dataTypeName\":\"\(column.type)\",\"position\":\(index + 1)}"
        }
        return "{\"id\":\"\(dataset.id)\",\"name\":\"Simulated dataset \(dataset.id)\",\"rowsUpdatedAt\":\(dataset.rowsUpdatedAt),"
            + "\"viewType\":\"tabular\",\"newBackend\":true,\"columns\":[\(columns.joined(separator: ","))]}"
    }

    /// A SODA 2.1 page: `$limit` rows after the key in `$where` (`:id > 'row-...'`), or from `$offset`.
    private func page(of id: String, _ query: [String: String]) -> LoopbackHTTPServer.Response {
        enum Outcome { case notFound, fault(Fault), rows(Dataset) }
        let outcome = lock.withLock { () -> Outcome in
            guard let index = state.firstIndex(where: { $0.id == id }) else { return .notFound }
            count("pages")
            if let fault = state[index].fault, state[index].faultsLeft > 0 {
                state[index].faultsLeft -= 1
                count("faults")
                return .fault(fault)
            }
            return .rows(state[index])
        }
        let limit = Int(query["$limit"] ?? "") ?? 1000
        let offset = Int(query["$offset"] ?? "") ?? 0
        let after = Self.keyAfter(query["$where"]) ?? 0
        if offset > 0 { lock.withLock { count("offsets") } }
        switch outcome {
        case .notFound:
            return notFound()
        case .fault(.serverError):
            return .init(status: 500, body: Array(#"{"code":"internal","error":true,"message":"Internal error"}"#.utf8))
        case .fault(.throttled):
            return .init(status: 429, headers: [("Content-Type", "application/json"), ("Retry-After", "1")],
                         body: Array(#"{"code":"throttled","error":true,"message":"Too many requests"}"#.utf8))
        case .fault(let fault):
            guard let dataset = lock.withLock({ state.first { $0.id == id } }) else { return notFound() }
            var body: [UInt8] = []
            Self.rows(of: dataset, from: after + offset + 1, count: limit) { body += $0 }
            if fault == .cut { return .init(body: body, delivery: .dropAfter(bytes: body.count / 2)) }
            let chunk = max(1, body.count / 20)
            return .init(body: body, delivery: .drip(chunk: chunk, interval: slowSeconds / 20))
        case .rows(let dataset):
            return .init(body: [], delivery: .stream { send in Self.rows(of: dataset, from: after + offset + 1, count: limit, send: send) })
        }
    }

    /// The row number in a `:id > 'row-...'` condition; nil without one.
    static func keyAfter(_ condition: String?) -> Int? {
        guard let condition, let range = condition.range(of: ":id > 'row-") else { return nil }
        return Int(condition[range.upperBound...].prefix { $0.isNumber })
    }

    /// `[row, ...]`: rows `first`... (numbered from 1) of the dataset as it is, at most `count`,
    /// in pieces of about 256 KB.
    static func rows(of dataset: Dataset, from first: Int, count: Int, send: ([UInt8]) -> Void) {
        var piece: [UInt8] = [UInt8(ascii: "[")]
        piece.reserveCapacity(300_000)
        let last = min(dataset.rowCount, first + count - 1)
        if first <= last {
            for number in first...last {
                if number > first { piece.append(UInt8(ascii: ",")) }
                piece += row(number, of: dataset).utf8
                if piece.count >= 262_144 {
                    send(piece)
                    piece.removeAll(keepingCapacity: true)
                }
            }
        }
        piece.append(UInt8(ascii: "]"))
        send(piece)
    }

    /// Row `number` at the dataset's version: rows 1...version were changed (by 1,000 in
    /// `amount`) one a version, and rows past `baseRows` were added one a version.
    static func row(_ number: Int, of dataset: Dataset) -> String {
        let added = number - dataset.baseRows
        let created = added > 0 ? epoch + 10 * added : epoch
        let updated = added > 0 ? created : (number <= dataset.version ? epoch + 10 * number + 5 : epoch)
        let amount = number <= dataset.version ? number + 1_000 : number
        let month = String(number % 12 + 1).leftPadded(2)
        let day = String(number % 28 + 1).leftPadded(2)
        return "{\":id\":\"row-\(String(number).leftPadded(8))\",\":created_at\":\"\(iso(created, milliseconds: true))\","
            + "\":updated_at\":\"\(iso(updated, milliseconds: true))\",\"name\":\"Nom \(number) — é\",\"amount\":\"\(amount).25\","
            + "\"day\":\"2024-\(month)-\(day)T00:00:00.000\",\"flag\":\(number % 2 == 0),\"category\":\"c\(number % 7)\"}"
    }

    /// `2023-11-14T22:13:20.000Z` (the catalog's form and SODA's system fields').
    static func iso(_ seconds: Int, milliseconds: Bool = true) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { String(value).leftPadded(2) }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec))" + (milliseconds ? ".000Z" : "Z")
    }
}
