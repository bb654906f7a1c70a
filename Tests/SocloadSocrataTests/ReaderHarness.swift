import SocloadSocrata
import XCTest

/// What a reader produced from a document: the metadata and rows, or the error it threw.
struct ReaderOutcome: Equatable {
    var metadata: ViewMetadata?
    var rows: [[JSONValue]] = []
    var error: String?
}

enum ReaderHarness {
    /// Feeds `bytes` split at the given cut points (each a byte offset) and finishes.
    static func read(_ bytes: [UInt8], cuts: [Int] = []) -> ReaderOutcome {
        var outcome = ReaderOutcome()
        let reader = RowsJSONReader()
        let bounds = [0] + cuts.filter { $0 > 0 && $0 < bytes.count }.sorted() + [bytes.count]
        do {
            for index in 0..<(bounds.count - 1) {
                try bytes[bounds[index]..<bounds[index + 1]].withUnsafeBytes { chunk in
                    try reader.feed(chunk, onMetadata: { outcome.metadata = $0 }, onRow: { row in
                        // Rows are taken whole only: each arrives once, as its complete text.
                        guard row.isWhole else { return nil }
                        let value = try JSONValue(parsingRow: Array(row.bytes), row: row.number, offset: row.offset)
                        guard case .array(let cells) = value else {
                            throw RowsJSONError.badRow(row: row.number, offset: row.offset, detail: "not an array")
                        }
                        outcome.rows.append(cells)
                        return nil
                    })
                }
            }
            try reader.finish()
        } catch {
            outcome.error = "\(error)"
        }
        return outcome
    }

    /// Feeds one byte at a time.
    static func readByteByByte(_ bytes: [UInt8]) -> ReaderOutcome {
        read(bytes, cuts: Array(1..<max(bytes.count, 1)))
    }
}
