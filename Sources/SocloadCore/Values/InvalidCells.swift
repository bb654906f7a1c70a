/// The cells of one column that did not parse as the column's type and were stored as NULL:
/// how many, and the first one (row number and value), so a summary can show where to look.
public struct InvalidCells: Sendable, Codable, Equatable {
    public var column: String
    public var type: LogicalType
    public var count: Int
    /// The 1-based row number of the first such cell.
    public var firstRow: Int
    /// The first such cell as the source wrote it, at most 40 characters, escaped.
    public var firstValue: String
    /// Set when only this destination cannot store the values (another could).
    public var destinationNote: String?
    /// Set (to the destination's name, `SQLite`) when the cells are numbers with more digits
    /// than the destination keeps, stored as the nearest number it holds rather than as NULL.
    public var roundedBy: String?

    public init(column: String, type: LogicalType, count: Int, firstRow: Int, firstValue: String,
                destinationNote: String? = nil, roundedBy: String? = nil) {
        self.column = column
        self.type = type
        self.count = count
        self.firstRow = firstRow
        self.firstValue = firstValue
        self.destinationNote = destinationNote
        self.roundedBy = roundedBy
    }

    /// True when the cells were stored rounded, not as NULL (see `roundedBy`).
    public var areRounded: Bool { roundedBy != nil }

    /// `amount: 3 cells were not numbers, stored as NULL; first at row 17: "N/A"` (or `1 cell
    /// was not a number`); for rounded cells `amount: 2 cells had more digits than SQLite keeps,
    /// stored rounded; first at row 4: "123456789012345678901234567890"; --type amount=text keeps
    /// them exactly`.
    public var summary: String {
        if let roundedBy {
            let cells = count == 1 ? "1 cell had" : "\(count) cells had"
            return "\(column): \(cells) more digits than \(roundedBy) keeps, stored rounded; first at row \(firstRow): "
                + "\(firstValue); --type \(column)=text keeps them exactly"
        }
        let cells = count == 1 ? "1 cell was" : "\(count) cells were"
        let note = destinationNote.map { " (\($0))" } ?? ""
        return "\(column): \(cells) not \(type.valueNoun(plural: count != 1)), stored as NULL\(note); first at row \(firstRow): \(firstValue)"
    }

    /// How a cell is shown in a summary: a string quoted and escaped, anything else as its JSON
    /// text; at most 40 characters of it, then `…`.
    package static func display(_ bytes: UnsafeBufferPointer<UInt8>, _ cell: RawCell) -> String {
        if cell.kind == .string {
            var content: [UInt8] = []
            if !cell.isEscaped || !JSONStringUnescaping.append(bytes, cell.start..<cell.end, to: &content) {
                content = Array(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end]))
            }
            return display(string: String(decoding: content, as: UTF8.self))
        }
        let raw = UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])
        let compact = cell.kind == .array || cell.kind == .object ? (try? JSONValueParser.parse(raw))?.jsonText : nil
        return display(nonString: compact ?? String(decoding: raw, as: UTF8.self))
    }

    /// How a string is shown: quoted and escaped, cut at 40 characters.
    public static func display(string text: String) -> String {
        text.count > 40 ? JSONValue.quoted(String(text.prefix(40))) + "…" : JSONValue.quoted(text)
    }

    /// How a value that is not a string is shown: its JSON text, cut at 40 characters, escaped.
    public static func display(nonString text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        // No control byte reaches a terminal.
        var escaped = ""
        for scalar in shown.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

/// A cell that is not of its column's type, with `--strict`: the load stops there.
public struct InvalidCellError: CategorizedError, Equatable {
    public let cells: InvalidCells

    package init(cells: InvalidCells) { self.cells = cells }
    public var kind: FailureKind { .badData }
    public var description: String {
        if let roundedBy = cells.roundedBy {
            return "row \(cells.firstRow), column \(cells.column): \(cells.firstValue) has more digits than \(roundedBy) keeps "
                + "(--strict; --type \(cells.column)=text keeps them exactly)"
        }
        return "row \(cells.firstRow), column \(cells.column): \(cells.firstValue) is not a valid \(cells.type.rawValue) (--strict)"
    }
}
