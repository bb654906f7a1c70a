import SocloadDatabase

/// The formats query results can be written in.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table, csv, tsv, json, ndjson, markdown, geojson

    static var names: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// `--format csv` (any case).
    init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    static var expectation: String { "one of \(names)" }

    /// The format given with `--format`, or the default: `table` for a terminal, `csv` for a pipe.
    static func resolve(_ format: OutputFormat?, output: OutputSink) -> OutputFormat {
        format ?? (output.isTerminal ? .table : .csv)
    }

    func makeWriter(output: OutputSink) -> any ResultWriter {
        switch self {
        case .table: return AlignedTextWriter(output: output)
        case .csv: return CSVWriter(output: output)
        case .tsv: return TSVWriter(output: output)
        case .json: return JSONWriter(output: output, lines: false)
        case .ndjson: return JSONWriter(output: output, lines: true)
        case .markdown: return MarkdownWriter(output: output)
        case .geojson: return GeoJSONWriter(output: output)
        }
    }
}

/// Writes a result set row by row: `begin` with the column names, `write` for each row, `finish`.
protocol ResultWriter: AnyObject {
    func begin(columns: [String])
    func write(_ values: [DatabaseValue])
    func finish()
}
