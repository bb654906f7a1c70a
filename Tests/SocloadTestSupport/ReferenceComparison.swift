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
