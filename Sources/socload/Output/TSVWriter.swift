import SocloadDatabase

/// `--format tsv`: tab-separated values as PostgreSQL's COPY text format (and `psql \copy`)
/// write them, one line a row, so `cut -f`, `awk -F'\t'` and `sort -t$'\t'` split every line
/// right: a header line of the column names, LF line ends, a tab between fields; in a field a
/// tab is `\t`, a newline `\n`, a carriage return `\r` and a backslash `\\`; NULL is `\N` (so
/// it stays apart from empty text, which is an empty field).
final class TSVWriter: ResultWriter {
    private let output: OutputSink

    init(output: OutputSink) { self.output = output }

    func begin(columns: [String]) {
        output.write(columns.map(Self.escaped).joined(separator: "\t") + "\n")
    }

    func write(_ values: [DatabaseValue]) {
        output.write(values.map { ValueText.plain($0).map(Self.escaped) ?? "\\N" }.joined(separator: "\t") + "\n")
    }

    func finish() {
        output.flush()
    }

    static func escaped(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x5C }) else { return field }
        var text = ""
        text.reserveCapacity(field.utf8.count + 8)
        for character in field.unicodeScalars {
            switch character {
            case "\t": text += "\\t"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\\": text += "\\\\"
            default: text.unicodeScalars.append(character)
            }
        }
        return text
    }
}
