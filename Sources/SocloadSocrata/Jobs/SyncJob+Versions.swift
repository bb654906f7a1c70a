import SocloadCore

/// With a download cache, the version a sync brings its table to is kept as evidence, as a
/// fetch's is: the version it started from plus the pages the sync received (`DownloadCache.keepSync`).
extension SyncJob {
    /// What a sync keeps of the version it brings the table to.
    struct VersionKeeping {
        let cache: DownloadCache
        let datasetID: String
        /// The version the table was at, and the one the portal states now.
        let from: String, to: String
        /// The sync's rows as received, and the keys the portal listed (with deletes).
        let pages: DownloadCache.PagesWriter?
        let keys: DownloadCache.PagesWriter?
        /// Why nothing is kept, when the cache keeps no version to start from.
        let missingBase: String?

        /// Nil when there is nothing to keep: no cache, no new version (the portal states the
        /// table's), or a version the cache keeps already.
        init?(cache: DownloadCache?, entry: CatalogEntry, view: ViewMetadata, deletes: Bool) throws {
            guard let cache, let datasetID = entry.datasetID ?? view.id, let to = view.rowsUpdatedAtText,
                  to != entry.rowsUpdatedAt, cache.version(datasetID: datasetID, rowsUpdatedAt: to) == nil else { return nil }
            (self.cache, self.datasetID, self.to) = (cache, datasetID, to)
            from = entry.rowsUpdatedAt ?? "(none)"
            guard let stamp = entry.rowsUpdatedAt, cache.version(datasetID: datasetID, rowsUpdatedAt: stamp) != nil else {
                (pages, keys) = (nil, nil)
                missingBase = "the download cache keeps no copy of \(datasetID) at rowsUpdatedAt \(from), the version this sync "
                    + "started from, so the version it brought the table to (\(to)) is not kept (a fetch --force keeps it whole)"
                return
            }
            pages = try cache.startPages()
            keys = deletes ? try cache.startPages() : nil
            missingBase = nil
        }

        /// Keeps the version once the sync read every page; returns a note when it cannot.
        func keep(since: String?, view: ViewMetadata) throws -> String? {
            guard let pages, missingBase == nil else { return missingBase }
            let kept = try cache.keepSync(pages, keys: keys, since: since, from: from, datasetID: datasetID, rowsUpdatedAt: to,
                                          description: view.descriptionJSON)
            return kept ? nil : "the download cache's copy of \(datasetID) at rowsUpdatedAt \(from) went while the sync ran, "
                + "so the version it brought the table to (\(to)) is not kept"
        }
    }
}
