import Foundation
import SocloadToolKit

/// `socload-datasets serve-soda BASE`: serves the benchmark dataset written by `bench N` (new
/// shape) as a Socrata portal does, from the project's own loopback HTTP server:
/// `/api/views/bnch-0001.json` (the description) and `/resource/bnch-0001.json?$offset=&$limit=`
/// (SODA 2.1 pages, from `BASE.soda.ndjson`). Prints the base URL, then serves until killed.
enum SODABenchPortal {
    static func serve(base: String) throws -> Never {
        let view = Array(try Data(contentsOf: URL(fileURLWithPath: base + ".view.json")))
        let rows = Array(try Data(contentsOf: URL(fileURLWithPath: base + ".soda.ndjson")))
        var starts: [Int] = [0]
        for (index, byte) in rows.enumerated() where byte == 0x0A && index + 1 < rows.count {
            starts.append(index + 1)
        }
        let lines = rows.isEmpty ? [] : starts
        let server = try LoopbackHTTPServer()
        server.route("/api/views/\(BenchmarkDataset.id).json", .init(body: view))
        let resource = "/resource/\(BenchmarkDataset.id).json"
        server.handle { request in
            guard request.route == resource else { return nil }
            let offset = Int(request.query["$offset"] ?? "0") ?? 0
            let limit = Int(request.query["$limit"] ?? "1000") ?? 1000
            var body: [UInt8] = [UInt8(ascii: "[")]
            body.reserveCapacity(limit * 700)
            var index = max(0, offset)
            while index < lines.count, index < offset + limit {
                if index > offset { body.append(UInt8(ascii: ",")) }
                let end = index + 1 < lines.count ? lines[index + 1] - 1 : rows.count - (rows.last == 0x0A ? 1 : 0)
                body.append(contentsOf: rows[lines[index]..<end])
                index += 1
            }
            body.append(UInt8(ascii: "]"))
            return .init(body: body)
        }
        FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
        while true { sleep(3600) }
    }
}
