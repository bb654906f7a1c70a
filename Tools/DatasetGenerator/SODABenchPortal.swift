import Foundation
import SocloadToolKit

/// `socload-datasets serve-soda BASE`: serves the benchmark dataset written by `bench N` (new
/// shape) as a Socrata portal does, from the project's own loopback HTTP server:
/// `/api/views/bnch-0001.json` (the description), SODA 2.1 pages `/resource/bnch-0001.json` and
/// SODA3 pages `POST /api/v3/views/bnch-0001/query.json`, from `BASE.soda.ndjson`, in `:id` order,
/// by key (`:id > 'row-...'`, found by binary search as a portal's index would) or by offset.
/// `GET /_stats` answers `{"pages": N, "offsets": M}`: the pages served, and those that asked for
/// an offset (or a SODA3 page number) past the first page's. Prints the base URL, then serves
/// until killed.
enum SODABenchPortal {
    /// The rows as byte ranges of the file, in `:id` order, with their ids.
    struct Rows {
        let bytes: [UInt8]
        let ranges: [Range<Int>]
        let ids: [[UInt8]]

        init(_ bytes: [UInt8]) {
            var lines: [Range<Int>] = []
            var start = 0
            for (index, byte) in bytes.enumerated() where byte == 0x0A {
                if index > start { lines.append(start..<index) }
                start = index + 1
            }
            if start < bytes.count { lines.append(start..<bytes.count) }
            let marker = Array(#"":id":""#.utf8)
            let keyed = lines.map { range -> ([UInt8], Range<Int>) in
                var index = range.lowerBound
                while index + marker.count <= range.upperBound, !bytes[index..<index + marker.count].elementsEqual(marker) { index += 1 }
                var end = index + marker.count
                while end < range.upperBound, bytes[end] != UInt8(ascii: "\"") { end += 1 }
                return (Array(bytes[min(index + marker.count, end)..<end]), range)
            }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
            self.bytes = bytes
            ranges = keyed.map(\.1)
            ids = keyed.map(\.0)
        }

        /// The index of the first row whose id is greater than `id`.
        func firstIndex(after id: [UInt8]) -> Int {
            var (low, high) = (0, ids.count)
            while low < high {
                let middle = (low + high) / 2
                if id.lexicographicallyPrecedes(ids[middle]) { high = middle } else { low = middle + 1 }
            }
            return low
        }

        /// `[row, row, ...]` of `count` rows from `start`, handed to `send` in pieces of about
        /// 256 KB as they are made (a portal streams a query's rows).
        func page(from start: Int, count: Int, send: ([UInt8]) -> Void) {
            var piece: [UInt8] = [UInt8(ascii: "[")]
            piece.reserveCapacity(300_000)
            var index = max(0, start)
            while index < ranges.count, index < start + count {
                if index > start { piece.append(UInt8(ascii: ",")) }
                bytes.withUnsafeBufferPointer { piece.append(contentsOf: UnsafeBufferPointer(rebasing: $0[ranges[index]])) }
                index += 1
                if piece.count >= 262_144 {
                    send(piece)
                    piece.removeAll(keepingCapacity: true)
                }
            }
            piece.append(UInt8(ascii: "]"))
            send(piece)
        }
    }

    /// The id in a `:id > 'row-...'` condition, if the condition has one.
    static func keyAfter(_ condition: String?) -> [UInt8]? {
        guard let condition, let range = condition.range(of: ":id > '") else { return nil }
        let rest = condition[range.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return Array(rest[..<end].utf8)
    }

    static func serve(base: String) throws -> Never {
        let view = Array(try Data(contentsOf: URL(fileURLWithPath: base + ".view.json")))
        let rows = Rows(Array(try Data(contentsOf: URL(fileURLWithPath: base + ".soda.ndjson"))))
        let server = try LoopbackHTTPServer()
        server.route("/api/views/\(BenchmarkDataset.id).json", .init(body: view))
        let resource = "/resource/\(BenchmarkDataset.id).json"
        let query = "/api/v3/views/\(BenchmarkDataset.id)/query.json"
        let counts = NSLock()
        nonisolated(unsafe) var pages = 0
        nonisolated(unsafe) var offsets = 0
        server.handle { request in
            let start: Int
            let count: Int
            var skipped = 0
            switch request.route {
            case "/_stats":
                let text = counts.withLock { "{\"pages\": \(pages), \"offsets\": \(offsets)}" }
                return .init(body: Array(text.utf8))
            case resource:
                skipped = Int(request.query["$offset"] ?? "0") ?? 0
                count = Int(request.query["$limit"] ?? "1000") ?? 1000
                start = keyAfter(request.query["$where"]).map(rows.firstIndex(after:)) ?? 0
            case query:
                guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                      let statement = object["query"] as? String, let page = object["page"] as? [String: Any],
                      let number = page["pageNumber"] as? Int, let size = page["pageSize"] as? Int else {
                    return .init(status: 400, body: Array(#"{"message":"expected a query and a page"}"#.utf8))
                }
                skipped = (number - 1) * size
                count = size
                start = keyAfter(statement).map(rows.firstIndex(after:)) ?? 0
            default:
                return nil
            }
            counts.withLock {
                pages += 1
                if skipped > 0 { offsets += 1 }
            }
            let first = start + skipped
            return .init(body: [], delivery: .stream { send in rows.page(from: first, count: count, send: send) })
        }
        FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
        while true { sleep(3600) }
    }
}
