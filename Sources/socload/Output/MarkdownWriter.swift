import SocloadDatabase

/// A Markdown table (GitHub's pipe tables): the header row, a `---` rule, one line per row.
/// A `|` in a value is written `\|`, a line break `<br>`, so each row stays one line; NULL is
/// an empty cell. For a README, a wiki or a data dictionary (`info --dictionary`).
final class MarkdownWriter: ResultWriter {
    private let output: OutputSink

    init(output: OutputSink) { self.output = output }

    func begin(columns: [String]) {
        writeRow(columns)
        output.write("|" + columns.map { _ in "---" }.joined(separator: "|") + "|\n")
    }

    func write(_ values: [DatabaseValue]) {
        writeRow(values.map { ValueText.plain($0) ?? "" })
    }

    func finish() {
        output.flush()
    }

    private func writeRow(_ cells: [String]) {
        output.write("| " + cells.map(Self.cell).joined(separator: " | ") + " |\n")
    }

    /// One cell's text: pipes escaped, line breaks as `<br>`, control characters dropped.
    static func cell(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "|": result += "\\|"
            case "\\": result += "\\\\"
            case "\r": continue
            case "\n": result += "<br>"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
