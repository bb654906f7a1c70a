import Foundation
import SocloadCore
import SocloadParquet

/// `socload export TABLE --format parquet -o FILE`: a table as a Parquet file typed by its plan,
/// with a Frictionless data package beside it.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Write a table as a Parquet file, typed from the portal's metadata, with a data package beside it.",
        discussion: """
            Each column is typed as the table was loaded: text as strings, whole numbers as INT64,
            decimals as DECIMAL of the precision and scale the values need (text with the exact
            digits, and a warning, past 38 digits), booleans, dates, fixed timestamps as
            TIMESTAMP(MICROS, UTC), floating ones (calendar_date) as TIMESTAMP(MICROS) without a
            zone, JSON as JSON. The portal's data dictionary (the dataset's name, description,
            attribution, license and source; each column's display name and description) goes in
            the file's key-value metadata under "socload", and a Frictionless datapackage.json
            beside the file describes it (another export into the same folder adds its resource).
            The rows are streamed in row groups (--row-group-rows, else about 128 MB of values);
            pages are compressed with zstd (--compression snappy or none). The file is written
            under a temporary name and renamed into place: a failed export leaves the old file.
            GeoParquet (--format geoparquet, the default for a table with a location, point, line or
            polygon column): each geometry also as WKB in its own column (NAME_geom), with a bbox
            struct column (xmin, ymin, xmax, ymax) that readers skip row groups by, and the "geo"
            metadata of GeoParquet 1.1 (OGC:CRS84, the kinds of shape, the file's bbox).
            """)

    @Argument(name: "table", help: "The table to export (n5m4_mism).") var table: String
    @OptionGroup var database = DatabaseOptions()
    @Option(valueName: "format", help: "parquet, or geoparquet (each geometry also as WKB with a bbox column, and GeoParquet metadata).",
            default: "geoparquet for a table with a geometry, else parquet") var format: String?
    @Option(short: "o", valueName: "file", help: "Where to write the file (a folder: FOLDER/TABLE.parquet).", default: "TABLE.parquet")
    var output: String?
    @Option(valueName: "codec", help: "zstd, snappy or none.", default: "zstd") var compression: String?
    @Option(valueName: "n", help: "Rows per row group.", default: "about 128 MB of values") var rowGroupRows: Int?
    @Flag(help: "Do not write datapackage.json beside the file.") var noDatapackage: Bool
    @Flag(short: "q", help: "Print only errors and warnings.") var quiet: Bool

    func validate() throws {
        if let format, format != "parquet", format != "geoparquet" {
            throw UsageError("--format takes parquet or geoparquet, not '\(TerminalText.escaped(format))'", command: Self.spec)
        }
        if let compression, ParquetCompression(rawValue: compression) == nil {
            throw UsageError("--compression takes zstd, snappy or none, not '\(TerminalText.escaped(compression))'", command: Self.spec)
        }
        if let rowGroupRows, rowGroupRows < 1 { throw UsageError("--row-group-rows needs a number above 0", command: Self.spec) }
    }

    func run(context: CommandContext) throws {
        let loaded = try database.openLoaded(context, command: Self.spec)
        // A table socload loaded (by its name or dataset id), or any other table of the database.
        if let entry = try loaded.entry(for: table, withDescription: false) {
            return try export(entry.tableName, loaded: loaded, context: context)
        }
        guard try loaded.tableExists(table) else { throw CommandFailure.notInCatalog(table, in: loaded.place) }
        try export(table, loaded: loaded, context: context)
    }

    private func export(_ name: String, loaded: any LoadedDatabase, context: CommandContext) throws {
        // A folder (one that is there, or a name ending in "/") takes the file named after the table.
        var isFolder: ObjCBool = false
        let path = output.map { output in
            output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue)
                ? (output as NSString).appendingPathComponent(name + ".parquet") : output
        } ?? name + ".parquet"
        let options = ParquetExport.Options(compression: ParquetCompression(rawValue: compression ?? "zstd") ?? .zstd,
                                            rowGroupRows: rowGroupRows, dataPackage: !noDatapackage,
                                            geo: format.map { $0 == "geoparquet" })
        let summary = try ParquetExport(database: loaded, table: name, qualifiedTable: loaded.sqlDialect.table(name))
            .write(to: path, options: options)
        for note in summary.notes { StandardError.line("Warning: " + SocloadTool.oneLine(note)) }
        if !quiet {
            StandardError.line("Wrote \(NumberText.counted(summary.rowCount, "row")) of \(TerminalText.escaped(name)) "
                               + "(\(NumberText.counted(summary.columnCount, "column"))) to \(summary.path)")
        }
    }
}
