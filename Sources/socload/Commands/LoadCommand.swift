import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite

/// `socload load FILE|URL|-`: a plain JSON document or a CSV/TSV file into a typed table, in one
/// transaction.
struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "load",
        abstract: "Load a JSON document (an array of objects, NDJSON, a saved SODA response) or a CSV file into a table.",
        discussion: """
            The document is a JSON array of objects, one object per line (NDJSON), or a saved SODA
            response (/resource/ID.json). A single top-level object is refused unless --root KEY names
            the array inside it ({"results": [...]}). Columns are the objects' keys, in the order they
            first appear. Their types come from --metadata (an /api/views/ID.json description: typed
            exactly as fetch types them) or are inferred from every value: integer, double, boolean,
            date, timestamp, floating_timestamp, json (objects and arrays), else text; a string never
            becomes a number ("09799" stays text), and a column of mixed kinds is text. A URL or standard
            input is first copied to a temporary file, so the types never depend on a sample.

            Records that carry :id (a SODA response saved with $select=:*,*) are keyed by it as _id;
            otherwise the key is --pk, or none. Nested objects are JSON text, or parent_child columns
            with --flatten. Arrays of objects under a field K become the child table <table>_K, keyed by
            the parent's key and the element's position (or --child-key K:ID); with --glue
            K:TABLE.KEY[:ID] they are references that fill a many-to-many glue table shared with TABLE,
            upserted from either side. The whole load is one transaction: if anything fails, the
            previous copy of the table is left as it was. Use fetch for Socrata datasets.

            A CSV or TSV file (a .csv, .tsv or .tab name, --csv or --tsv, or a first byte other than [ or {)
            is read as RFC 4180 says: quoted fields may hold delimiters, quotes ("") and line breaks; LF or
            CRLF; a UTF-8 byte order mark is skipped. The first line names the columns (--no-header:
            column_1, column_2, ...). An empty field is NULL, a quoted empty one ("") the empty string. Its
            types are inferred from every value: numbers, true/false, ISO dates and US dates
            (01/15/2020 12:00:00 AM) are typed, a whole number with a leading zero stays text. A Socrata
            CSV export (rows.csv) with --metadata maps its display names to the field names and is typed
            as fetch types it.

            --mode append adds the records to a table socload loaded before, and --mode upsert updates
            the row of each record's key (the columns the records have; the others keep their values)
            or adds it: in one transaction, the table's key (no --pk needed), lookups, child tables,
            change log and history kept. The records must fit the table: a column whose values its type
            cannot hold is refused by name (integers go into a double or text column, not text into an
            integer one), and so is a new column unless --on-schema-change evolve adds it. A table that
            does not exist yet is made; one socload did not make is refused.
            """)

    @Argument(name: "document", help: "A JSON or CSV file, an http(s) URL, or - for standard input.") var document: String
    @OptionGroup var database = DatabaseOptions()
    @Option(valueName: "name", help: "The table to load into.", default: "the file's name up to its first dot") var table: String?
    @Option(valueName: "replace|append|upsert",
            help: "Replace the table (the default), add the records to it, or update the rows of their keys and add the rest.")
    var mode: DocumentLoadMode = .replace
    @Option(valueName: "key", help: "Load the array under this key of a top-level object.") var root: String?
    @Flag(help: "Read one object per line (NDJSON), even when there is only one.") var lines: Bool
    @Flag(help: "Read the document as CSV, whatever its name.") var csv: Bool
    @Flag(help: "Read the document as tab-separated values.") var tsv: Bool
    @Option(valueName: "char", help: "The CSV delimiter (tab: a tab).", default: "the header line's most frequent of , tab ; |")
    var delimiter: String?
    @Option(valueName: "name", help: "The CSV file's encoding: utf-8, latin-1 or windows-1252.", default: "utf-8")
    var encoding: TextEncoding?
    @Flag(help: "The CSV file's first line is data: the columns are column_1, column_2, ...") var noHeader: Bool
    @Option(valueName: "file|url", help: "Type the columns from this /api/views/ID.json description instead of inferring.")
    var metadata: String?
    @OptionGroup var shape = TableShapeOptions()
    @RepeatedOption(valueName: "field:id",
                    help: "Key the child table of FIELD's objects by their own ID field (with the parent's key), not by position.")
    var childKey: [String]
    @RepeatedOption(valueName: "field:table.key[:id]",
                    help: "FIELD's objects reference TABLE by its KEY (in their field ID, by default KEY): a many-to-many glue table.")
    var glue: [String]
    @OptionGroup var network = NetworkOptions()
    @Flag(help: "Store nested objects as parent_child columns instead of JSON text.") var flatten: Bool
    @Option(valueName: "column", help: "PostgreSQL with Citus: distribute the table by this column (part of its key); "
            + "child and glue tables go with it.")
    var distributeBy: String?
    @Flag(help: "Fail on a cell that is not of its column's type, instead of storing NULL.") var strict: Bool
    @Flag(short: "q", help: "Print only errors and warnings: no progress, no summary.") var quiet: Bool
    @Flag(help: "Print one JSON object on standard output (status, table, rows, changes, child tables, error).") var json: Bool

    func validate() throws {
        if let table, table.isEmpty { throw UsageError("--table needs a name", command: Self.spec) }
        if mode != .replace, shape.onSchemaChange == .warn {
            throw UsageError("--mode \(mode.rawValue) keeps the table's shape: --on-schema-change fail (the default) "
                             + "or evolve (add new columns)", command: Self.spec)
        }
        if root != nil, lines { throw UsageError("--root and --lines are two different layouts: pass one", command: Self.spec) }
        if csv, tsv { throw UsageError("--csv and --tsv are two different formats: pass one", command: Self.spec) }
        if let delimiter, CSVDialect.delimiter(named: delimiter) == nil {
            throw UsageError("--delimiter \(delimiter): expected one character other than a quote or a line break, or tab",
                             command: Self.spec)
        }
        if csvDialect != nil, root != nil || lines || flatten {
            throw UsageError("--\(root != nil ? "root" : lines ? "lines" : "flatten") is for JSON documents, not CSV", command: Self.spec)
        }
    }

    func run(context: CommandContext) throws {
        try DatasetReport.reporting(json, dataset: document, context, { try load(context: context) }) { summary in
            DatasetReport(dataset: document, outcome: DatasetOutcome(table: summary.tableName, result: "", summary: summary))
        }
    }

    private func load(context: CommandContext) throws -> LoadSummary {
        guard !document.isEmpty else {
            throw UsageError("missing the document to load (a file, a URL, or - for standard input)", command: Self.spec)
        }
        let request = try loadSpec().documentRequest()
        if distributeBy != nil, !database.capabilities(context).distributesTables {
            throw UsageError("--distribute-by needs a PostgreSQL database with Citus (--db postgresql://...)", command: Self.spec)
        }
        let (session, staged) = try LoadSetup.openForLoading(database, network: network, quiet: quiet, geoPackage: shape.geopackage,
                                                              context, command: Self.spec)
        defer { session.finish() }
        let summary = try LoadSetup.perform(session, staged: staged, table: try? request.targetTable(), command: Self.spec) {
            try session.loader.loadDocument(request) {
                session.inform("Copying \(TerminalText.escaped(request.source == "-" ? "standard input" : document)) to a temporary "
                               + "file first, so that every value types the columns")
            }
        }
        session.meter.clear()
        session.inform(Self.headline(summary))
        for child in summary.childTables {
            session.inform("  and \(NumberText.grouped(child.rowCount)) row\(child.rowCount == 1 ? "" : "s") into "
                           + TerminalText.escaped(child.tableName))
        }
        DatasetFetch.reportRowChanges(summary, session: session)
        DatasetFetch.reportInvalidCells(summary.invalidCells)
        for note in summary.notes {
            StandardError.line("Warning: " + SocloadTool.oneLine(note))
        }
        return summary
    }
}
