import SocloadCore

/// `socload extract TABLE COLUMN[,COLUMN...]`: columns of a loaded table into a lookup table.
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "extract",
        abstract: "Move columns of a loaded table into a lookup table, keeping a foreign key (as sqlite-utils extract).",
        discussion: """
            The distinct values of the columns become rows of the lookup table (default name: the
            columns' names joined by _), which has an integer key id and the value columns under their
            names, unique together. In TABLE the columns are replaced by one column <lookup>_id. Values
            are found or created by value: ids stay the same across refreshes. A value that is NULL in
            every column has no lookup row (its <lookup>_id is NULL). A name holding a comma is written in
            double quotes.

            --count keeps <table>_count on each lookup row (the rows of TABLE that reference it), and
            --count-distinct OTHER keeps <OTHER>_count (the distinct non-NULL values of OTHER among
            them): computed after the rows, then kept right by triggers for your own INSERT, UPDATE and
            DELETE. Lookup rows nothing references stay unless --prune.

            The extraction is recorded in the catalog: every later fetch or sync of TABLE applies it
            again (fetch --extract does the same at load time). All in one transaction.
            """)

    @Argument(name: "table", help: "A loaded table (or its dataset id).") var table: String
    @Argument(name: "columns", help: "The column, or columns separated by commas, to extract.") var columns: String
    @OptionGroup var database = DatabaseOptions()
    @Option(valueName: "lookup", help: "The lookup table's name.", default: "the columns' names joined by _") var into: String?
    @Flag(help: "Keep <table>_count on each lookup row.") var count: Bool
    @RepeatedOption(valueName: "other", help: "Keep <other>_count: the distinct values of column OTHER per lookup row.")
    var countDistinct: [String]
    @Flag(help: "Delete lookup rows that no row references any more.") var prune: Bool
    @Flag(help: "Fail on an index or trigger of yours that cannot be rebuilt, instead of skipping it.") var strict: Bool
    @Flag(short: "q", help: "Print only errors and warnings.") var quiet: Bool
    @Flag(help: "Print one JSON object on standard output (status, table, rows, changes, error).") var json: Bool

    func run(context: CommandContext) throws {
        try DatasetReport.reporting(json, dataset: table, context, { try extract(context: context) }) {
            DatasetReport(dataset: table, extract: $0)
        }
    }

    private func extract(context: CommandContext) throws -> ExtractSummary {
        var scanner = QuotedNameScanner(columns, separators: [","])
        var names: [String] = []
        repeat {
            guard let name = scanner.name() else {
                throw UsageError("expected column names separated by commas (a name with a comma in double quotes)", command: Self.spec)
            }
            names.append(name)
        } while scanner.separator() != nil
        guard scanner.isAtEnd else { throw UsageError("unexpected text after the column names", command: Self.spec) }
        let extraction = Extraction(columns: names, table: into, count: count, countDistinct: countDistinct, prune: prune)

        let opened = try database.openDestination(mustExist: true, context, command: Self.spec)
        defer { opened.close() }
        // A database operation: no portal, no HTTP. A signal rolls it back.
        let extractor = LookupExtractor(destination: opened.destination, cancellation: LoadCancellation())
        let signals = SignalTrap { [extractor] signal in extractor.cancel(signal: signal) }
        defer { signals.restore() }
        let summary: ExtractSummary
        do {
            summary = try extractor.extract(extraction, from: table, strict: strict)
        } catch let error as PlanError {
            throw UsageError(error.description, command: Self.spec)
        } catch {
            throw LoadFailure(underlying: error, table: table)
        }
        let lookup = summary.lookup
        let counts = ([lookup.countColumn].compactMap { $0 } + lookup.distinctCounts.map(\.countColumn))
        if !quiet {
            StandardError.line(TerminalText.escaped("Extracted \(lookup.valueColumns.joined(separator: ", ")) of \(summary.tableName) "
                               + "into \(lookup.table) (id, \((lookup.valueColumns + counts).joined(separator: ", "))); "
                               + "\(summary.tableName) has \(lookup.foreignKey) in their place"))
        }
        for note in summary.notes {
            StandardError.line("Warning: " + SocloadTool.oneLine(note))
        }
        return summary
    }
}
