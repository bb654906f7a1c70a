import SocloadDatabase

/// A consistency check of the rows.json reader and both conversion paths, for fuzzing and for the
/// fuzz corpus test: on any input, reading must not crash; reading in different chunkings must
/// give the same result; and the fast path must give exactly the general path's values (or the
/// same error). A violation stops the process, which is what a fuzzer looks for.
public enum RowsJSONSelfCheck {
    public static func run(_ bytes: [UInt8]) {
        let whole = read(bytes, chunk: bytes.count)
        precondition(read(bytes, chunk: 7) == whole, "reading in 7-byte chunks differs from reading whole")
        precondition(read(bytes, chunk: max(1, bytes.count / 2 + 1)) == whole, "reading in two chunks differs")
        compareConversions(bytes)
    }

    /// The rows (as JSON text) or the error, read with the general path.
    private static func read(_ bytes: [UInt8], chunk: Int) -> String {
        let reader = RowsJSONReader()
        var text = ""
        do {
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + max(chunk, 1))
                try bytes[offset..<end].withUnsafeBytes { part in
                    try reader.feed(part) { event in
                        switch event {
                        case .metadata(let view): text += "meta \(view.columns.count)\n"
                        case .row(let cells): text += JSONValue.array(cells).jsonText + "\n"
                        case .rawRow: break
                        }
                    }
                }
                offset = end
            }
            try reader.finish()
        } catch {
            text += "error: \(error)"
        }
        return text
    }

    /// Converts every row both ways and checks they agree.
    private static func compareConversions(_ bytes: [UInt8]) {
        let reader = RowsJSONReader()
        reader.deliversRawRows = true
        var schema: TableSchema?
        var converter: FastRowConverter?
        var rowNumber = 0
        _ = try? bytes.withUnsafeBytes { chunk in
            try reader.feed(chunk) { event in
                switch event {
                case .metadata(let view):
                    schema = TableSchema(tableName: "t", view: view)
                    converter = schema.map(FastRowConverter.init)
                case .rawRow(let row):
                    guard let schema, converter != nil else { return }
                    rowNumber += 1
                    var batch = RowBatch(columnCount: schema.columns.count, firstRowNumber: rowNumber, expectedRows: 1)
                    let fast = Result { () throws -> [DatabaseValue] in
                        try converter!.append(row: row, rowNumber: rowNumber, to: &batch)
                        return batch.row(0)
                    }
                    let general = Result { () throws -> [DatabaseValue] in
                        let parsed: JSONValue
                        do {
                            parsed = try JSONValueParser.parse(Array(row))
                        } catch let error as JSONValueParser.Failure {
                            throw RowsJSONError.badRow(row: rowNumber, offset: 0, detail: RowsJSONReader.describe(error, base: 0))
                        }
                        guard case .array(let cells) = parsed else {
                            throw RowsJSONError.badRow(row: rowNumber, offset: 0, detail: "not an array")
                        }
                        return try schema.values(for: cells, rowNumber: rowNumber)
                    }
                    switch (fast, general) {
                    case let (.success(a), .success(b)):
                        precondition(a == b, "fast and general conversions differ on row \(rowNumber): \(a) vs \(b)")
                    case let (.failure(a), .failure(b)):
                        precondition("\(a)" == "\(b)", "fast and general errors differ: \(a) vs \(b)")
                    default:
                        preconditionFailure("fast \(fast) and general \(general) disagree on row \(rowNumber)")
                    }
                case .row:
                    break
                }
            }
        }
    }
}
