import SocloadCore

/// A load that finds its source as it was at the table's last load writes nothing and says the
/// table is up to date (`--force` loads anyway).
extension FetchJob {
    /// The catalog entry of a previous load of the same slice from the same place (through any
    /// API), unless `force`.
    func previousEntry(for request: LoadRequest, catalog: any CatalogStore) throws -> CatalogEntry? {
        try DatasetLoader.previousEntry(for: request) { try catalog.entry(for: $0, withDescription: false) }
    }

    /// True when the source is the one the table was last loaded from: a file whose signature is
    /// the one recorded (`FileSignature`), or a portal whose `rowsUpdatedAt` equals the one
    /// recorded. The view metadata read here (or before the load's turn, `prefetch`) is kept for
    /// the load itself. A download started before the turn was started because the dataset changed.
    func sourceUnchanged(_ portal: SocrataPortal?, since entry: CatalogEntry, request: LoadRequest,
                                 state: DatasetLoader.LoadState) throws -> Bool {
        if case .file(let path) = request.reference.location { return try FileSignature.unchanged(path, since: entry.etag) }
        guard let portal else { return false }
        let view: ViewMetadata?
        switch request.prefetched {
        case .download(_, let since)? where since == entry.fetchedAt: return false
        case .description(let described)?, .spooledPages(_, _, let described)?: view = described
        case .cachedCopy?, .cachedPages?: return false
        case .download?, nil: view = try? loader.fetchView(portal)
        }
        guard let recorded = entry.rowsUpdatedAt, let view else { return false }
        state.view = view
        guard let current = view.rowsUpdatedAtText else { return false }
        return current == recorded
    }

    func upToDate(_ entry: CatalogEntry, state: DatasetLoader.LoadState) -> LoadSummary {
        LoadSummary(tableName: entry.tableName, rowCount: entry.rowCount, columnCount: 0, source: state.source,
                    elapsed: state.elapsed, catalogEntry: entry, isUpToDate: true)
    }
}
