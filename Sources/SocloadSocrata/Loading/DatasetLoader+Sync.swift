import Foundation
import SocloadCore

/// Incremental sync: only rows changed upstream since the newest stored `_updated_at`.
extension DatasetLoader {
    /// Brings a table fetched before up to date: asks SODA 2.1 for rows with `:updated_at` later
    /// than the newest stored `_updated_at` (ordered by `:updated_at, :id`) and upserts them by
    /// the table's key, in one transaction. Rows deleted upstream are not seen: a full fetch
    /// removes them.
    /// `indexes`: column lists to build one more index over each (`--index`), kept by later loads.
    ///
    /// With `deletes`, the rows the portal no longer has are deleted too (see
    /// `deleteRowsGoneUpstream`), at most `maxDeletes` of them. With `history`, the table keeps
    /// every version of its rows from now on (`HistorySQL`), as a later fetch does too.
    /// `schemaPolicy`: `fail` (the default) stops at any change of the table's columns; `evolve`
    /// keeps the table's columns and goes on (`evolveForSync`). With a `cache`, the version the
    /// sync brings the table to is kept there as the version it started from plus the sync's
    /// pages (`DownloadCache.keepSync`), so `refresh --locked` can restore it.
    public func sync(_ tableOrDatasetID: String, pageSize: Int = LoadSpec.defaultPageSize, indexes: [[String]] = [],
                     deletes: Bool = false, maxDeletes: DeletionLimit? = nil, history: Bool = false,
                     schemaPolicy: SchemaChangePolicy = .fail, cache: DownloadCache? = nil) throws -> SyncSummary {
        let start = DispatchTime.now().uptimeNanoseconds
        var summary = try explainingThrottling { try reportingCancellation {
            try destination.performLoad { transaction in
                try SyncJob(loader: self, pageSize: pageSize, indexes: indexes, deletes: deletes, maxDeletes: maxDeletes,
                            history: history, schemaPolicy: schemaPolicy, cache: cache).sync(tableOrDatasetID, in: transaction)
            }
        } }
        summary.elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return summary
    }
}
