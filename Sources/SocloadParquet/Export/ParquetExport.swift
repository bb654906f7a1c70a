import Foundation
import SocloadCore

/// A table of a loaded database (SQLite or PostgreSQL) written as a Parquet file, streamed in
/// row groups, each column typed by the plan the table was loaded with (a table socload did not
/// load: by the types its database declares), the portal's data dictionary in the file's
/// key-value metadata (`socload`: the dataset's name, description, attribution, license, source
/// and each column's display name and description).
///
///     let export = ParquetExport(database: database, table: "n5m4_mism", qualifiedTable: "\"n5m4_mism\"")
///     let summary = try export.write(to: "n5m4_mism.parquet")
///     print(summary.rowCount)
public struct ParquetExport {
    public struct Options: Sendable {
        public var compression: ParquetCompression
        /// Rows a row group holds; nil: about `rowGroupBytes` of values.
        public var rowGroupRows: Int?
        public var rowGroupBytes: Int
        /// Also write (or update) `datapackage.json` in the file's folder (`DataPackage`).
        public var dataPackage: Bool
        /// GeoParquet: each geometry of the table (a WKT or GeoJSON column, a location's
        /// latitude and longitude) also as WKB with its bbox covering, and the `geo` metadata;
        /// nil: when the table has one.
        public var geo: Bool?

        public init(compression: ParquetCompression = .zstd, rowGroupRows: Int? = nil, rowGroupBytes: Int = 128 << 20,
                    dataPackage: Bool = true, geo: Bool? = nil) {
            (self.compression, self.rowGroupRows, self.rowGroupBytes) = (compression, rowGroupRows, rowGroupBytes)
            (self.dataPackage, self.geo) = (dataPackage, geo)
        }
    }

    /// What an export wrote.
    public struct Summary: Sendable {
        public var path: String
        public var rowCount: Int
        public var columnCount: Int
        /// What a reader of the file should know (values written as NULL, a decimal kept as text).
        public var notes: [String]
    }

    public let database: any LoadedDatabase
    public let table: String
    /// The table in SQL: quoted, and on PostgreSQL with its schema.
    public let qualifiedTable: String

    public init(database: any LoadedDatabase, table: String, qualifiedTable: String) {
        (self.database, self.table, self.qualifiedTable) = (database, table, qualifiedTable)
    }

    /// Writes the file at `path` (under a temporary name, renamed into place when whole).
    public func write(to path: String, options: Options = Options()) throws -> Summary {
        let tableColumns = try database.columns(of: table)
        guard !tableColumns.isEmpty else { throw ParquetExportError.noSuchTable(table) }
        let entry = try database.entry(for: table, withDescription: true)
        let dictionary = entry.flatMap(ColumnDictionary.init)
        let copies = GeoColumns.names(of: entry)
        let kept = tableColumns.filter { !copies.contains($0.name.lowercased()) }
        var geo = options.geo == false ? [] : GeoColumns.places(of: entry, in: kept.map(\.name))
        if options.geo == true, geo.isEmpty { throw ParquetExportError.noGeometry(table) }
        var columns = kept.map { column in
            ExportColumn(name: column.name, kind: dictionary?.column(named: column.name).map { ExportColumn.kind(of: $0.type) }
                            ?? ExportColumn.kind(declared: column.type),
                         required: column.notNull)
        }
        var notes = try shapeDecimals(&columns)
        let writer = try ParquetFileWriter(path: path, fields: columns.map(\.field) + geo.flatMap(\.fields), compression: options.compression,
                                           rowGroupRows: options.rowGroupRows, rowGroupBytes: options.rowGroupBytes)
        let pass = ExportPass(writer: writer, columns: columns, geo: geo)
        let row: Int
        do {
            (columns, geo, row) = try pass.run(SQLFragment(sql: "SELECT \(Self.list(columns.map(\.name))) FROM \(qualifiedTable)"),
                                               in: database)
            var keyValues = [("socload", ParquetDictionary.json(entry: entry, dictionary: dictionary, columns: columns.map(\.name)))]
            if !geo.isEmpty { keyValues.insert(("geo", GeoColumns.metadata(geo)), at: 0) }
            try writer.finish(keyValues: keyValues)
        } catch {
            writer.abandon()
            throw error
        }
        for place in geo where place.invalid > 0 {
            notes.append("\(place.name): \(place.invalid) value\(place.invalid == 1 ? " is" : "s are") no geometry"
                         + (place.kind.map { " of kind \($0.name)" } ?? "") + ", written as NULL")
        }
        if options.dataPackage {
            let key = tableColumns.filter { $0.keyPosition > 0 }.sorted { $0.keyPosition < $1.keyPosition }.map(\.name)
            if let note = try DataPackage.add(path: writer.path, columns: columns, geometries: geo, keyColumns: key, entry: entry,
                                              dictionary: dictionary) {
                notes.append(note)
            }
        }
        for column in columns where column.invalid > 0 {
            notes.append("\(column.name): \(column.invalid) value\(column.invalid == 1 ? " is" : "s are") not \(column.kindNoun), "
                         + "written as NULL")
        }
        return Summary(path: writer.path, rowCount: row, columnCount: columns.count + 2 * geo.count, notes: notes)
    }

    static func list(_ names: [String]) -> String {
        names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    }

    /// Each decimal column's precision and scale, from its values (one read of those columns):
    /// the most digits after the point any value has, and before it. A column whose values need
    /// more than 38 digits is written as text with the exact digits, and said so.
    private func shapeDecimals(_ columns: inout [ExportColumn]) throws -> [String] {
        let decimals = columns.indices.filter { if case .decimal = columns[$0].kind { true } else { false } }
        guard !decimals.isEmpty else { return [] }
        var shapes = Array(repeating: (scale: 0, integerDigits: 1, tooLong: false), count: decimals.count)
        try database.scan(SQLFragment(sql: "SELECT \(Self.list(decimals.map { columns[$0].name })) FROM \(qualifiedTable)")) { values in
            for place in decimals.indices {
                guard let exact = ExportColumn.decimal(values, column: place) else { continue }
                shapes[place].scale = max(shapes[place].scale, exact.scale)
                shapes[place].integerDigits = max(shapes[place].integerDigits, exact.integerDigits)
                if exact.units == nil { shapes[place].tooLong = true }
            }
        }
        var notes: [String] = []
        for (place, index) in decimals.enumerated() {
            let shape = shapes[place]
            let precision = shape.integerDigits + shape.scale
            if shape.tooLong || precision > ExactDecimal.maximumPrecision {
                columns[index] = ExportColumn(name: columns[index].name, kind: .text, required: columns[index].required)
                notes.append("\(columns[index].name): its values need \(precision) digits, more than a Parquet DECIMAL's 38, "
                             + "so it is written as text with the exact digits")
            } else {
                columns[index] = ExportColumn(name: columns[index].name, kind: .decimal(precision: precision, scale: shape.scale),
                                              required: columns[index].required)
            }
        }
        return notes
    }
}

/// Why a table could not be exported.
public enum ParquetExportError: CategorizedError, Equatable {
    case noSuchTable(String)
    case noGeometry(String)

    public var kind: FailureKind {
        switch self {
        case .noSuchTable: return .missingInput
        case .noGeometry: return .usage
        }
    }

    public var description: String {
        switch self {
        case .noSuchTable(let table): return "no table \(table) to export"
        case .noGeometry(let table): return "\(table) has no geometry (a location, point, line or polygon column) for GeoParquet"
        }
    }
}
