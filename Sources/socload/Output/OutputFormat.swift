import SocloadDatabase

/// The formats query results can be written in.
enum OutputFormat: String, CaseIterable {
    case table, csv, json, ndjson

    static var names: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// The format given with `--format`, or the default: `table` for a terminal, `csv` for a pipe.
    static func resolve(_ name: String?, output: OutputSink, command: CommandSpec) throws -> OutputFormat {
        guard let name else { return output.isTerminal ? .table : .csv }
        guard let format = OutputFormat(rawValue: name.lowercased()) else {
            throw UsageError("Unknown format '\(name)' (expected one of \(names))", command: command)
        }
        return format
    }

    func makeWriter(output: OutputSink) -> any ResultWriter {
        switch self {
        case .table: return AlignedTextWriter(output: output)
        case .csv: return CSVWriter(output: output)
        case .json: return JSONWriter(output: output, lines: false)
        case .ndjson: return JSONWriter(output: output, lines: true)
        }
    }
}

/// Writes a result set row by row: `begin` with the column names, `write` for each row, `finish`.
protocol ResultWriter: AnyObject {
    func begin(columns: [String])
    func write(_ values: [DatabaseValue])
    func finish()
}
