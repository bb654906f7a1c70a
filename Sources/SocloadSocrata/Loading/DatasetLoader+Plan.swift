import SocloadCore

/// The plan a load would follow, without loading (`fetch --dry-run`).
extension DatasetLoader {
    /// What `planAndStamp` found: the plan, the source's `rowsUpdatedAt`, its columns as the
    /// portal describes them, the API the load would read through, and the dataset's dictionary.
    package typealias PlannedLoad = (plan: LoadPlan, rowsUpdatedAt: String?, columns: [ColumnMetadata], api: DatasetAPI,
                                     dictionary: DatasetDictionary?)

    /// Reads only the dataset's metadata (the start of rows.json, or the portal's description)
    /// and returns the plan `request` would load with. Nothing is written anywhere.
    package static func plan(for request: LoadRequest, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
                            cancellation: LoadCancellation? = nil) throws -> LoadPlan {
        try planAndStamp(for: request, http: http, retry: retry, cancellation: cancellation).plan
    }

    /// The plan, and the API the load would read through: rows.json when the portal refuses the
    /// query API `--api auto` chose (`fetch --dry-run` says so).
    package static func planAndAPI(for request: LoadRequest, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
                                  onRetry: (@Sendable (String) -> Void)? = nil) throws -> (plan: LoadPlan, api: DatasetAPI) {
        let planned = try planAndStamp(for: request, http: http, retry: retry, onRetry: onRetry)
        return (planned.plan, planned.api)
    }

    /// The plan a load would make now, the source's `rowsUpdatedAt` (nil when it states none)
    /// and its columns as the portal describes them (with their ids, which tell a rename): what
    /// `socload status` compares with the catalog, reading only metadata. With
    /// `describedFirst`, a dataset on a portal is read from its description (`/api/views/ID.json`)
    /// rather than from the start of its rows.json, which a portal starts to send whole.
    package static func planAndStamp(for request: LoadRequest, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
                                    cancellation: LoadCancellation? = nil, onRetry: (@Sendable (String) -> Void)? = nil,
                                    describedFirst: Bool = false)
        throws -> PlannedLoad {
        let loader = DatasetLoader(destination: NoDestination(), http: http, retry: retry, cancellation: cancellation,
                                   onRetry: onRetry)
        let api = try request.resolvedAPI(hasCredentials: http.hasCredentials)
        switch api {
        case .rows, .auto:
            // A description lacks the row id and timestamp columns a rows.json's metadata lists:
            // the SODA layout adds them as a load would have them.
            let described = try describedFirst ? SocrataPortal(reference: request.reference).flatMap(loader.viewIfAvailable)
                .map { SODARowLayout(view: $0, selectedFields: nil).view } : nil
            let view = try described ?? loader.readMetadata(request.reference)
            return (try request.plan(for: view), view.rowsUpdatedAtText, view.columns, .rows, view.dictionary)
        case .soda2, .soda3:
            guard let portal = SocrataPortal(reference: request.reference) else {
                throw LoadError.unsupported("SODA needs a dataset id on a portal")
            }
            guard let view = try loader.viewIfAvailable(portal) else {
                // No description (a private or missing dataset): a page of no rows has the
                // columns in its headers, and a missing dataset answers 404 there too (exit 69).
                let downloader = HTTPDownloader(options: http, cancellation: cancellation)
                let head: HTTPResponseHead
                do {
                    head = try retry.run(cancellation: cancellation, onRetry: loader.retryNotice) {
                        try downloader.download(portal.soda2PageURL(query: request.query, offset: nil, limit: 0), onChunk: { _ in })
                    }
                } catch let error as HTTPError where request.readsTheExport(after: error) {
                    // A portal that refuses the query APIs: the load would read rows.json (`QueryAPIRefused`).
                    let view = try loader.readMetadata(request.reference)
                    return (try request.plan(for: view), view.rowsUpdatedAtText, view.columns, .rows, view.dictionary)
                }
                guard let layout = SODARowLayout(head: head, id: portal.datasetID) else {
                    throw LoadError.unsupported("the portal does not describe \(portal.datasetID) and its pages do not name "
                                                + "their columns (X-SODA2-Fields): the plan is known only when rows arrive")
                }
                return (try request.plan(for: layout.view), nil, layout.view.columns, api, nil)
            }
            try view.requireTabular()
            let fields = request.query.select.map(SODARowLayout.fieldNames(inSelect:))
            let layout = SODARowLayout(view: view, selectedFields: fields).view
            return (try request.plan(for: layout), view.rowsUpdatedAtText, layout.columns, api, view.dictionary)
        }
    }

    /// The metadata at the start of a rows.json document; the rest is not read.
    private func readMetadata(_ reference: DatasetReference) throws -> ViewMetadata {
        struct Found: Error { let view: ViewMetadata }
        let reader = RowsJSONReader()
        let consume = { (chunk: UnsafeRawBufferPointer) throws in
            try reader.feed(chunk, onMetadata: { throw Found(view: $0) }, onRow: { _ in nil })
        }
        do {
            switch reference.location {
            case .file(let path):
                try FileByteSource.read(path, cancellation: cancellation, consume)
            case .url(let url):
                let downloader = HTTPDownloader(options: http, cancellation: cancellation)
                _ = try retry.run(cancellation: cancellation, onRetry: retryNotice) {
                    try downloader.download(HTTPRequest(url: url), onResponse: { _ in }, onChunk: consume)
                }
            }
            try reader.finish()
        } catch let found as Found {
            try found.view.requireTabular()
            return found.view
        }
        throw RowsJSONError.missingMetadata
    }
}

/// The destination of a loader that only plans or reads metadata: nothing loaded, nothing to load.
struct NoDestination: LoadDestination {
    func performLoad<T>(_ body: (any LoadTransaction) throws -> T) throws -> T {
        throw LoadError.unsupported("this loader only plans")
    }

    var place: String { "no database" }
    func tables() throws -> [TableSummary] { [] }
    func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry? { nil }
    func catalogEntries() throws -> [CatalogEntry] { [] }
    func planTable(named table: String) throws -> PlanTable? { nil }
    func tableExists(_ table: String) throws -> Bool { false }
    func schemaChanges(of table: String) throws -> [RecordedSchemaChange] { [] }
    func refreshes(of table: String) throws -> [RefreshRecord] { [] }
}
