import CSQLite
import Foundation
import SocloadDatabase

/// Loads a dataset into a destination: reads rows.json as it arrives, creates the table from the
/// column metadata, converts and inserts every row, and records the catalog entry — all in ONE
/// transaction, so any failure (network, bad data, constraint, interruption) leaves the previous
/// copy of the table untouched.
///
///     let queue = try DatabaseQueue(path: "socload.sqlite")
///     let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))
///     let reference = try DatasetReference.resolve("n5m4-mism", domain: "data.example.org", datasetsDirectories: [])
///     let summary = try loader.load(LoadRequest(reference: reference))
public final class DatasetLoader {
    private let destination: any LoadDestination
    private let http: HTTPOptions
    private let cancellation: LoadCancellation?
    private let progress: ((LoadProgress) -> Void)?

    public init(destination: any LoadDestination, http: HTTPOptions = HTTPOptions(),
                cancellation: LoadCancellation? = nil, progress: ((LoadProgress) -> Void)? = nil) {
        self.destination = destination
        self.http = http
        self.cancellation = cancellation
        self.progress = progress
    }

    /// Stops reading once `--limit` rows are in.
    private struct LimitReached: Error {}

    public func load(_ request: LoadRequest) throws -> LoadSummary {
        let start = DispatchTime.now().uptimeNanoseconds
        let elapsed = { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        return try destination.performLoad { session in
            let reader = RowsJSONReader()
            var schema: TableSchema?
            var rowCount = 0
            var bytesRead: Int64 = 0
            var bytesExpected: Int64?
            var head: HTTPResponseHead?

            let consume = { (chunk: UnsafeRawBufferPointer) throws in
                try self.cancellation?.check()
                try reader.feed(chunk) { event in
                    switch event {
                    case .metadata(let view):
                        let current = try self.makeSchema(for: view, request: request)
                        try session.replaceTable(current)
                        schema = current
                        if request.limit == 0 { throw LimitReached() }
                    case .row(let cells):
                        guard let current = schema else { return }
                        let values = try current.values(for: cells, rowNumber: reader.rowsRead)
                        try Self.insert(values, into: session, rowNumber: reader.rowsRead)
                        rowCount += 1
                        if let limit = request.limit, rowCount >= limit { throw LimitReached() }
                    }
                }
                bytesRead += Int64(chunk.count)
                self.progress?(LoadProgress(bytesRead: bytesRead, bytesExpected: bytesExpected,
                                            rowsLoaded: rowCount, elapsed: elapsed()))
            }

            do {
                switch request.reference.location {
                case .file(let path):
                    bytesExpected = FileByteSource.size(of: path)
                    try FileByteSource.read(path, cancellation: cancellation, consume)
                case .url(let url):
                    let downloader = HTTPDownloader(options: http, cancellation: cancellation)
                    head = try downloader.download(url, onResponse: { bytesExpected = $0.contentLength },
                                                   onChunk: consume)
                }
                try reader.finish()
            } catch is LimitReached {}
            try cancellation?.check()

            guard let schema, let view = reader.metadata else { throw RowsJSONError.missingMetadata }
            let entry = CatalogEntry(
                tableName: schema.tableName, datasetID: request.reference.datasetID ?? view.id,
                domain: request.reference.domain, name: view.name, sourceURL: request.reference.displaySource,
                fetchedAt: ISO8601Timestamp.format(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))),
                rowsUpdatedAt: view.rowsUpdatedAt.map { ISO8601Timestamp.format(Date(timeIntervalSince1970: Double($0))) },
                rowCount: rowCount, columnsJSON: view.columnsJSON, columnMappingJSON: schema.columnMappingJSON,
                etag: head?.etag, lastModified: head?.lastModified)
            try session.recordCatalogEntry(entry)
            try cancellation?.check()
            return LoadSummary(tableName: schema.tableName, rowCount: rowCount, columnCount: schema.columns.count,
                               source: request.reference.displaySource, elapsed: elapsed(), catalogEntry: entry)
        }
    }

    private func makeSchema(for view: ViewMetadata, request: LoadRequest) throws -> TableSchema {
        let name = request.tableName
            ?? TableSchema.tableName(forDatasetID: request.reference.datasetID ?? view.id ?? "dataset")
        let lowered = name.lowercased()
        if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("_socload_") || name.isEmpty {
            throw LoadError.reservedTableName(name)
        }
        return TableSchema(tableName: name, view: view, includeSystemColumns: request.includeSystemColumns)
    }

    /// A constraint failure (a duplicate row id, say) is bad data in a row, not a database fault.
    private static func insert(_ values: [DatabaseValue], into session: any LoadSession, rowNumber: Int) throws {
        do {
            try session.insert(values)
        } catch let error as DatabaseError where error.resultCode == SQLITE_CONSTRAINT {
            throw LoadError.constraint(row: rowNumber, message: error.message)
        }
    }
}

/// What to load and how.
public struct LoadRequest: Sendable {
    public var reference: DatasetReference
    /// The table name; by default the dataset id with `-` as `_` (`n5m4_mism`).
    public var tableName: String?
    /// Load only the first N rows.
    public var limit: Int?
    /// Also keep `_sid`, `_row_id`, `_position`, `_created_meta`, `_updated_meta`, `_meta`.
    public var includeSystemColumns = false

    public init(reference: DatasetReference, tableName: String? = nil, limit: Int? = nil,
                includeSystemColumns: Bool = false) {
        self.reference = reference
        self.tableName = tableName
        self.limit = limit
        self.includeSystemColumns = includeSystemColumns
    }
}
