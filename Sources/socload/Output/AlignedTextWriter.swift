import SocloadDatabase

/// Aligned columns for a person at a terminal: a header, a rule, then the rows. Numbers are
/// right-aligned; widths count display columns; control characters are shown escaped; a value
/// wider than `widestCell` columns is cut there with `…` (CSV and JSON give it whole).
/// It holds the rows until `finish`, to measure the columns, so large results belong in CSV.
final class AlignedTextWriter: ResultWriter {
    static let widestCell = 60
    private let output: OutputSink
    private var header: [String] = []
    private var rows: [[String]] = []
    private var isNumeric: [Bool] = []

    init(output: OutputSink) { self.output = output }

    func begin(columns: [String]) {
        header = columns.map(TerminalText.escaped)
        isNumeric = Array(repeating: true, count: columns.count)
    }

    func write(_ values: [DatabaseValue]) {
        var cells: [String] = []
        cells.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            switch value {
            case .integer, .real, .null: break
            case .text, .blob: isNumeric[index] = false
            }
            cells.append(TerminalText.cut(Self.cell(value), to: Self.widestCell))
        }
        rows.append(cells)
    }

    func finish() {
        guard !header.isEmpty else { return }
        var widths = header.map(TerminalText.displayWidth)
        for row in rows {
            for (index, cell) in row.enumerated() {
                widths[index] = max(widths[index], TerminalText.displayWidth(cell))
            }
        }
        writeLine(header, widths: widths, alignRight: Array(repeating: false, count: header.count))
        writeLine(widths.map { String(repeating: "-", count: $0) }, widths: widths,
                  alignRight: Array(repeating: false, count: header.count))
        for row in rows {
            writeLine(row, widths: widths, alignRight: isNumeric)
        }
        output.flush()
    }

    private func writeLine(_ cells: [String], widths: [Int], alignRight: [Bool]) {
        var line = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { line += "  " }
            line += TerminalText.padded(cell, to: widths[index], alignRight: alignRight[index])
        }
        while line.hasSuffix(" ") { line.removeLast() }
        output.write(line + "\n")
    }

    /// NULL shows as an empty cell; a blob as `X'hex'`, as SQL writes it.
    private static func cell(_ value: DatabaseValue) -> String {
        switch value {
        case .null: return ""
        case .blob(let data):
            let digits = Array("0123456789ABCDEF")
            return "X'" + String(data.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }) + "'"
        default:
            // Only the start of a long value is shown: it is cut before it is escaped and
            // measured (a description of 100 MB took seconds to measure whole).
            let text = ValueText.plain(value) ?? ""
            guard text.utf8.count > widestCell * 8 else { return TerminalText.escaped(text) }
            return TerminalText.escaped(String(text.prefix(widestCell * 2)))
        }
    }
}
