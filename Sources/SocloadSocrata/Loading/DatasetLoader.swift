import CSQLite
import Foundation
import SocloadDatabase

/// Loads a dataset into a destination: reads the rows as they arrive (rows.json, or SODA pages),
/// creates the table from the column metadata, converts and inserts every row, and records the
/// catalog entry — all in ONE transaction, so any failure (network, bad data, constraint,
/// interruption) leaves the previous copy of the table untouched.
///
///     let queue = try DatabaseQueue(path: "socload.sqlite")
///     let loader = DatasetLoader(destination: SQLiteDestination(queue: queue))
///     let reference = try DatasetReference.resolve("n5m4-mism", domain: "data.example.org", datasetsDirectories: [])
///     let summary = try loader.load(LoadRequest(reference: reference))
public final class DatasetLoader {
    let destination: any LoadDestination
    let http: HTTPOptions
    let retry: RetryPolicy
    let cancellation: LoadCancellation?
    let progress: ((LoadProgress) -> Void)?
    let onRetry: ((String) -> Void)?

    public init(destination: any LoadDestination, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
                cancellation: LoadCancellation? = nil, progress: ((LoadProgress) -> Void)? = nil,
                onRetry: ((String) -> Void)? = nil) {
        self.destination = destination
        self.http = http
        self.retry = retry
        self.cancellation = cancellation
        self.progress = progress
        self.onRetry = onRetry
    }

    /// Stops reading once `--limit` rows are in.
    struct LimitReached: Error {}

    /// What one load has seen so far.
    final class LoadState {
        let start = DispatchTime.now().uptimeNanoseconds
        var schema: TableSchema?
        var view: ViewMetadata?
        var rowCount = 0
        var bytesRead: Int64 = 0
        var bytesExpected: Int64?
        var head: HTTPResponseHead?
        var source = ""

        var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    }

    public func load(_ request: LoadRequest) throws -> LoadSummary {
        let api = try request.resolvedAPI()
        let portal = SocrataPortal(reference: request.reference)
        return try destination.performLoad { session in
            let state = LoadState()
            state.source = request.reference.displaySource
            let previous = try previousEntry(for: request, api: api, session: session)
            if let previous, let portal, try portalUnchanged(portal, since: previous, state: state) {
                return upToDate(previous, state: state)
            }
            switch api {
            case .rows, .auto:
                if try loadRowsJSON(request, previous: previous, session: session, state: state) == .notModified,
                   let previous {
                    return upToDate(previous, state: state)
                }
            case .soda2, .soda3:
                guard let portal else { throw LoadError.unsupported("SODA needs a dataset id on a portal") }
                try loadPages(request, api: api, portal: portal, session: session, state: state)
            }
            try cancellation?.check()
            guard let schema = state.schema, let view = state.view else { throw RowsJSONError.missingMetadata }
            let entry = CatalogEntry(
                tableName: schema.tableName, datasetID: request.reference.datasetID ?? view.id,
                domain: request.reference.domain, name: view.name, sourceURL: state.source,
                fetchedAt: ISO8601Timestamp.format(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))),
                rowsUpdatedAt: view.rowsUpdatedAt.map { ISO8601Timestamp.format(Date(timeIntervalSince1970: Double($0))) },
                rowCount: state.rowCount, columnsJSON: view.columnsJSON, columnMappingJSON: schema.columnMappingJSON,
                etag: state.head?.etag, lastModified: state.head?.lastModified,
                requestSignature: request.signature(api: api))
            try session.recordCatalogEntry(entry)
            try cancellation?.check()
            return LoadSummary(tableName: schema.tableName, rowCount: state.rowCount, columnCount: schema.columns.count,
                               source: state.source, elapsed: state.elapsed, catalogEntry: entry)
        }
    }

    // MARK: - Conditional refresh

    /// The catalog entry of a previous load of the same slice from the same place, unless `force`.
    private func previousEntry(for request: LoadRequest, api: DatasetAPI, session: any LoadSession) throws -> CatalogEntry? {
        guard !request.force, case .url = request.reference.location,
              request.tableName != nil || request.reference.datasetID != nil else { return nil }
        guard let entry = try session.catalogEntry(for: request.targetTable(view: nil)),
              entry.tableName == request.targetTable(view: nil),
              entry.requestSignature == request.signature(api: api),
              entry.datasetID == request.reference.datasetID, entry.domain == request.reference.domain
        else { return nil }
        return entry
    }

    /// True when the portal's `rowsUpdatedAt` equals the one recorded at the last load. The view
    /// metadata read here is kept for the load itself.
    private func portalUnchanged(_ portal: SocrataPortal, since entry: CatalogEntry, state: LoadState) throws -> Bool {
        guard let recorded = entry.rowsUpdatedAt, let view = try? fetchView(portal) else { return false }
        state.view = view
        guard let current = view.rowsUpdatedAt else { return false }
        return ISO8601Timestamp.format(Date(timeIntervalSince1970: Double(current))) == recorded
    }

    private func upToDate(_ entry: CatalogEntry, state: LoadState) -> LoadSummary {
        LoadSummary(tableName: entry.tableName, rowCount: entry.rowCount, columnCount: 0, source: state.source,
                    elapsed: state.elapsed, catalogEntry: entry, isUpToDate: true)
    }

    // MARK: - Shared steps

    /// The dataset's view metadata (`/api/views/ID.json`), retried like any request.
    func fetchView(_ portal: SocrataPortal) throws -> ViewMetadata {
        let downloader = HTTPDownloader(options: http, cancellation: cancellation)
        let bytes = try retry.run(cancellation: cancellation, onRetry: retryNotice) { () throws -> [UInt8] in
            var body: [UInt8] = []
            try downloader.download(portal.viewURL) { chunk in
                body.append(contentsOf: chunk)
                if body.count > 64 << 20 { throw HTTPError.bodyTooLarge(limit: 64 << 20, url: portal.viewURL) }
            }
            return body
        }
        do {
            return try JSONDecoder().decode(ViewMetadata.self, from: Data(bytes))
        } catch {
            throw RowsJSONError.invalidMetadata(detail: "\(portal.viewURL) is not a dataset description")
        }
    }

    func retryNotice(_ error: HTTPError, _ retry: Int, _ wait: Double) {
        onRetry?("\(error); retry \(retry) of \(self.retry.maximumRetries) in \(String(format: "%.1f", wait)) s")
    }

    static func schema(for view: ViewMetadata, request: LoadRequest) throws -> TableSchema {
        let name = request.targetTable(view: view)
        let lowered = name.lowercased()
        if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("_socload_") || name.isEmpty {
            throw LoadError.reservedTableName(name)
        }
        return TableSchema(tableName: name, view: view, includeSystemColumns: request.includeSystemColumns)
    }

    /// Converts and inserts one row. A constraint failure (a duplicate row id, say) is bad data in
    /// that row, not a database fault.
    func insert(_ cells: [JSONValue], rowNumber: Int, schema: TableSchema, session: any LoadSession) throws {
        let values = try schema.values(for: cells, rowNumber: rowNumber)
        do {
            try session.insert(values)
        } catch let error as DatabaseError where error.resultCode == SQLITE_CONSTRAINT {
            throw LoadError.constraint(row: rowNumber, message: error.message)
        }
    }

    func reportProgress(_ state: LoadState) {
        progress?(LoadProgress(bytesRead: state.bytesRead, bytesExpected: state.bytesExpected,
                               rowsLoaded: state.rowCount, elapsed: state.elapsed))
    }
}
