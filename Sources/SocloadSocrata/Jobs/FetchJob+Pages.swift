import SocloadCore
import SocloadEngine

/// A fetch through the query APIs, SODA 2.1 and SODA3, page by page (`DatasetLoader.readPages`).
extension FetchJob {
    /// Reads every page into a freshly created table.
    func loadPages(_ request: LoadRequest, api: DatasetAPI, portal: SocrataPortal, transaction: any LoadTransaction,
                   state: DatasetLoader.LoadState) throws {
        if api == .soda3, !loader.http.hasCredentials { throw LoadError.unsupported(LoadRequest.soda3NeedsCredentials) }
        state.source = api == .soda2 ? portal.resourceURL : portal.soda3URL
        if state.view == nil {
            state.view = try loader.viewIfAvailable(portal)
        }
        try state.view?.requireTabular()
        // A selection is best described by the response headers, so its table waits for page 1.
        let layout = request.query.select == nil ? state.view.map { SODARowLayout(view: $0) } : nil
        // The whole dataset's pages are kept in the download cache, when the request names one.
        let copy = request.partialReason == nil ? try request.cache?.startPages() : nil
        let (sink, pages) = try loader.readPages(api: api, portal: portal, query: request.query, pageSize: request.pageSize,
                                                 limit: request.limit, maxRows: request.maxRows, layout: layout,
                                                 transaction: transaction, state: state, copy: copy) { layout in
            let plan = try request.plan(for: layout.view)
            try beginTable(plan, transaction: transaction, state: state)
            if state.view == nil { state.view = layout.view }
            return ObjectRowSink(plan: plan, strict: request.strict, storable: loader.destination.storableValues) { batch in try state.writer?.insert(batch) }
        }
        if pages > 1 { try checkUnchangedWhileRead(portal, state: state) }
        try copy?.keep(datasetID: request.reference.datasetID ?? state.view?.id, rowsUpdatedAt: state.view?.rowsUpdatedAtText,
                       description: state.view?.descriptionJSON ?? [])
        state.invalidCells = sink?.converter.invalidCells ?? []
        let outside = (sink?.converter.fieldsOutsidePlan ?? []).filter { !ColumnMetadata.isSystemField($0) }
        if !outside.isEmpty {
            state.notes.append("\(outside.shortList()): \(outside.count == 1 ? "a field" : "fields") of the portal's rows "
                               + "that its column metadata does not list, not loaded")
        }
    }

    /// Pages are not a snapshot: the dataset's `rowsUpdatedAt` after the last page must be the
    /// one before the first, or the rows may mix two versions (`LoadError.changedWhileRead`;
    /// the loader starts over once).
    private func checkUnchangedWhileRead(_ portal: SocrataPortal, state: DatasetLoader.LoadState) throws {
        guard let before = state.view?.rowsUpdatedAtText, let now = try loader.viewIfAvailable(portal) else { return }
        let after = now.rowsUpdatedAtText ?? "(none)"
        if after != before { throw LoadError.changedWhileRead(before: before, after: after) }
    }
}
