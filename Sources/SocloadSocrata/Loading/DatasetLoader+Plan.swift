import SocloadCore

/// The plan a load would follow, without loading (`fetch --dry-run`).
extension DatasetLoader {
    /// Reads only the dataset's metadata (the start of rows.json, or the portal's description)
    /// and returns the plan `request` would load with. Nothing is written anywhere.
    public static func plan(for request: LoadRequest, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
                            cancellation: LoadCancellation? = nil) throws -> LoadPlan {
        let loader = DatasetLoader(destination: NoDestination(), http: http, retry: retry, cancellation: cancellation)
        let api = try request.resolvedAPI()
        switch api {
        case .rows, .auto:
            return try request.plan(for: loader.readMetadata(request.reference))
        case .soda2, .soda3:
            guard let portal = SocrataPortal(reference: request.reference) else {
                throw LoadError.unsupported("SODA needs a dataset id on a portal")
            }
            guard let view = try loader.viewIfAvailable(portal) else {
                throw LoadError.unsupported("the portal does not describe \(portal.datasetID): the plan is known only "
                                            + "from the first page's headers")
            }
            try view.requireTabular()
            let fields = request.query.select.map(SODARowLayout.fieldNames(inSelect:))
            return try request.plan(for: SODARowLayout(view: view, selectedFields: fields).view)
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

/// The destination of a loader that only plans.
private struct NoDestination: LoadDestination {
    func performLoad<T>(_ body: (any LoadTransaction) throws -> T) throws -> T {
        throw LoadError.unsupported("this loader only plans")
    }
}
