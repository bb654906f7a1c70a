import SocloadDatabase

/// RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold `,` `"` CR or LF, and
/// quotes doubled. NULL is an empty field; empty text is `""` so the two stay distinguishable.
final class CSVWriter: ResultWriter {
    private let output: OutputSink

    init(output: OutputSink) { self.output = output }

    func begin(columns: [String]) {
        writeRecord(columns.map { Optional($0) })
    }

    func write(_ values: [DatabaseValue]) {
        writeRecord(values.map(ValueText.plain))
    }

    func finish() {
        output.flush()
    }

    private func writeRecord(_ fields: [String?]) {
        var line = ""
        for (index, field) in fields.enumerated() {
            if index > 0 { line += "," }
            if let field { line += Self.quoted(field) }
        }
        output.write(line + "\r\n")
    }

    static func quoted(_ field: String) -> String {
        if field.isEmpty { return "\"\"" }
        let needsQuotes = field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"")
            || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
