/// Loading through the legacy rows.json export: one streamed request.
extension DatasetLoader {
    enum RowsOutcome { case loaded, notModified }

    /// Downloads (or reads) rows.json and loads it. A transfer that fails in a retryable way starts
    /// again from the beginning, after undoing what it had written.
    func loadRowsJSON(_ request: LoadRequest, previous: CatalogEntry?, session: any LoadSession,
                      state: LoadState) throws -> RowsOutcome {
        switch request.reference.location {
        case .file(let path):
            state.bytesExpected = FileByteSource.size(of: path)
            try readRowsJSON(request, session: session, state: state) { consume in
                try FileByteSource.read(path, cancellation: cancellation, consume)
            }
            return .loaded
        case .url(let url):
            var headers: [(name: String, value: String)] = []
            if let etag = previous?.etag { headers.append(("If-None-Match", etag)) }
            if let lastModified = previous?.lastModified { headers.append(("If-Modified-Since", lastModified)) }
            let downloader = HTTPDownloader(options: http, cancellation: cancellation)
            return try retry.run(cancellation: cancellation, onRetry: retryNotice) {
                try session.withSavepoint {
                    var outcome = RowsOutcome.loaded
                    try readRowsJSON(request, session: session, state: state) { consume in
                        let head = try downloader.download(HTTPRequest(url: url, headers: headers),
                                                           onResponse: { state.bytesExpected = $0.contentLength },
                                                           onChunk: consume)
                        state.head = head
                        if head.statusCode == 304 { outcome = .notModified }
                    }
                    return outcome
                }
            }
        }
    }

    /// Feeds the bytes `produce` delivers through a fresh reader into the table.
    private func readRowsJSON(_ request: LoadRequest, session: any LoadSession, state: LoadState,
                              produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let reader = RowsJSONReader()
        state.rowCount = 0
        state.bytesRead = 0
        state.schema = nil
        let consume = { (chunk: UnsafeRawBufferPointer) throws in
            try self.cancellation?.check()
            try reader.feed(chunk) { event in
                switch event {
                case .metadata(let view):
                    try view.requireTabular()
                    let schema = try self.makeSchema(for: view, request: request)
                    try session.replaceTable(schema)
                    state.schema = schema
                    state.view = view
                    if request.limit == 0 { throw LimitReached() }
                case .row(let cells):
                    guard let schema = state.schema else { return }
                    try self.insert(cells, rowNumber: reader.rowsRead, schema: schema, session: session)
                    state.rowCount += 1
                    if let limit = request.limit, state.rowCount >= limit { throw LimitReached() }
                }
            }
            state.bytesRead += Int64(chunk.count)
            self.reportProgress(state)
        }
        do {
            var produced = false
            try produce { chunk in
                produced = true
                try consume(chunk)
            }
            if produced || state.head?.statusCode != 304 { try reader.finish() }
        } catch is LimitReached {}
    }
}
