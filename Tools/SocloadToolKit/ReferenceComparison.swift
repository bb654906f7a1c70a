import SocloadSocrata

/// The converter's values for each row next to the reference decoder's, as text: what the fuzz
/// self-checks compare across readings. The first disagreement is kept as `mismatch`.
struct ReferenceComparison {
    var reference: ReferenceDecoder?
    /// Without the reference, only the converter's values are written (in the same form), to be
    /// compared with a reading that had it.
    let withReference: Bool
    private(set) var text = ""
    private(set) var mismatch: String?

    init(withReference: Bool) {
        self.withReference = withReference
    }

    mutating func note(_ line: String) {
        text += line + "\n"
    }

    mutating func compare(_ row: [UInt8], number: Int, offset: Int, converted: Result<[CellValue], Error>) {
        guard withReference, reference != nil else {
            switch converted {
            case .success(let values): note(values.map(\.description).joined(separator: " | "))
            case .failure(let error): note("error: \(error)")
            }
            return
        }
        let expected = Result { try reference!.values(row: row, rowNumber: number, offset: offset) }
        let line: String
        switch (converted, expected) {
        case let (.success(a), .success(b)) where a == b:
            line = a.map(\.description).joined(separator: " | ")
        case let (.failure(a), .failure(b)) where "\(a)" == "\(b)":
            line = "error: \(a)"
        default:
            line = "converter \(converted) reference \(expected)"
            if mismatch == nil { mismatch = "MISMATCH row \(number): \(line)" }
        }
        note(line)
    }

    /// Converts one row as a load does — in place in the chunk when it is all there, else its whole
    /// copy — and compares it; returns where the row ended (nil: wait for the whole row).
    mutating func convert(_ row: RowsJSONReader.RowText, with converter: inout RowConverter) throws -> Int? {
        var batch = RowBatch(columnCount: converter.table.columns.count, firstRowNumber: row.number, expectedRows: 1)
        if row.isWhole {
            let result = Result { () throws -> [CellValue] in
                try converter.append(row: row.bytes, rowNumber: row.number, offset: row.offset, to: &batch)
                return batch.row(0)
            }
            compare(withReference ? Array(row.bytes) : [], number: row.number, offset: row.offset, converted: result)
            if case .failure(let error) = result { throw error }
            return nil
        }
        let end: Int?
        do {
            end = try converter.appendIfComplete(row.bytes, from: row.start, limit: row.bytes.count, rowNumber: row.number,
                                                 offset: row.offset, to: &batch)
        } catch {
            // An error in place; the 1-byte reading, where every row arrives whole, checks it
            // against the reference, and the readings must agree.
            note("error: \(error)")
            throw error
        }
        guard let end else { return nil }
        compare(withReference ? Array(row.bytes[row.start..<end]) : [], number: row.number, offset: row.offset,
                converted: .success(batch.row(0)))
        return end
    }

    /// The text, after the converter's invalid-cell counts (checked against the reference's).
    mutating func result(converter: RowConverter?) -> String {
        if let converter {
            let counts = converter.invalidCells.map(\.summary)
            if withReference, let reference, counts != reference.invalidCells.map(\.summary), mismatch == nil {
                mismatch = "MISMATCH invalid cells: converter \(counts) reference \(reference.invalidCells.map(\.summary))"
            }
            text += counts.joined(separator: "\n")
        }
        return mismatch.map { $0 + "\n" + text } ?? text
    }
}

/// Reading an input whole and in pieces, as the self-checks do.
enum ChunkedReading {
    /// nil when reading in 7-byte, half-size and 1-byte pieces gives what reading the input whole
    /// gives, and the whole reading found no mismatch; else what differed. `read(bytes, cuts,
    /// withReference)` returns a reading's outcome as text.
    static func check(_ bytes: [UInt8], read: ([UInt8], [Int], Bool) -> String) -> String? {
        let whole = read(bytes, [], true)
        for chunk in [7, max(1, bytes.count / 2 + 1), 1] where chunk < bytes.count {
            if chunk == 1, bytes.count > 4096 { continue }
            let other = read(bytes, Array(stride(from: chunk, to: bytes.count, by: chunk)), false)
            if other != whole { return "reading in \(chunk)-byte chunks gives\n\(other)\nbut whole\n\(whole)" }
        }
        return whole.hasPrefix("MISMATCH") ? whole : nil
    }

    /// Hands `body` the pieces of `bytes` that end at `cuts`, then the rest.
    static func feed(_ bytes: [UInt8], cuts: [Int], _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var offset = 0
        var ends = (cuts.filter { $0 > 0 && $0 < bytes.count } + [bytes.count]).makeIterator()
        while offset < bytes.count {
            let end = ends.next() ?? bytes.count
            try bytes[offset..<end].withUnsafeBytes(body)
            offset = end
        }
    }
}
