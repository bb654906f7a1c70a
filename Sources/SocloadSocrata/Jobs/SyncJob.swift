import Foundation
import SocloadCore
import SocloadEngine

/// Incremental sync (`socload sync`, `fetch --incremental`), one job with its own state: asks
/// the query API (SODA3 with an app token or a login, SODA 2.1 without), paged by key on
/// `(:updated_at, :id)`, for the rows whose `:updated_at` is later than the newest stored `_updated_at` and
/// upserts them by the table's key, keeping the table's shape (`--on-schema-change evolve` keeps
/// its columns, see `evolve`), its indexes, change log and history; with `deletes`, the rows the
/// portal no longer has go too (`deleteRowsGoneUpstream`).
struct SyncJob {
    let loader: DatasetLoader
    let pageSize: Int
    /// `--index`: one more index over each column list, kept by later loads.
    let indexes: [[String]]
    let deletes: Bool
    let maxDeletes: DeletionLimit?
    let history: Bool
    let schemaPolicy: SchemaChangePolicy
    /// The download cache (`--cache`): the version the sync brings the table to is kept there as
    /// the version it started from plus the sync's pages (`DownloadCache.keepSync`).
    var cache: DownloadCache?

    /// Syncs the table of `tableOrDatasetID`, in the load's transaction.
    func sync(_ tableOrDatasetID: String, in transaction: any LoadTransaction) throws -> SyncSummary {
        let state = DatasetLoader.LoadState()
        loader.heard.clear()
        // The description is the portal's of now (below): the recorded one is not read.
        guard let entry = try transaction.catalog.entry(for: tableOrDatasetID, withDescription: false) else {
            throw LoadError.notInCatalog(tableOrDatasetID)
        }
        let portal = try Self.portal(of: entry)
        let view = try loader.fetchView(portal)
        try view.requireTabular()
        let layout = SODARowLayout(view: view)
        var shape = try syncShape(of: entry, view: view, layout: layout, policy: schemaPolicy, transaction: transaction)
        let plan = shape.plan
        guard !plan.mainTable.primaryKey.isEmpty else {
            throw LoadError.unsupported("\(entry.tableName) has no key to sync rows by")
        }
        if history {
            guard transaction.sql != nil, try transaction.sql?.tableExists(
                RowChangeSQL.fingerprintTables(of: plan.mainTable.name, dialect: transaction.sql!.dialect).kept) == true else {
                throw LoadError.unsupported("sync --history needs a table fetched by this socload (fetch it again with --history)")
            }
            shape.stored.options?.keepsHistory = true
        }
        let tracker = try transaction.sql.flatMap { sql in
            try SyncChangeTracker(sql: sql, table: plan.mainTable, refreshedAt: state.refreshedAt,
                                  keptRefreshes: shape.stored.options?.keptChangeRefreshes ?? RowChangeLog.defaultKeptRefreshes,
                                  keepsHistory: shape.stored.options?.keepsHistory == true)
        }
        let baseUpserter = try transaction.upserter(for: plan.mainTable)
        let upserter = tracker?.upserter(wrapping: baseUpserter) ?? baseUpserter
        for columns in indexes {
            let index = try LoadPlan.index(on: columns, in: shape.stored.mainTable)
            try upserter.addIndex(index)
            if !shape.stored.mainTable.indexes.contains(index) { shape.stored.tables[0].indexes.append(index) }
        }
        let since = try upserter.largestValue(of: "_updated_at")
        var query = SoQLQuery(order: ":updated_at")
        if let since { query.where = ":updated_at > '\(since)'" }
        var inserted = 0
        state.view = view
        let (arriving, reshaping) = (shape.arriving, shape.reshaping)
        let keeping = try VersionKeeping(cache: cache, entry: entry, view: view, deletes: deletes)
        let (sink, _) = try loader.readPages(api: loader.queryAPI, portal: portal, query: query, pageSize: pageSize, limit: nil,
                                 layout: layout, transaction: transaction, state: state, copy: keeping?.pages) { _ in
            ObjectRowSink(plan: arriving, strict: false, storable: loader.destination.storableValues) { batch in
                inserted += try upserter.upsert(reshaping.map { ReshapingTableWriter.reshape(batch, sources: $0) } ?? batch)
            }
        }
        let deleted = deletes ? try deleteRowsGoneUpstream(plan: arriving, layout: layout, portal: portal, pageSize: pageSize,
                                                           limit: maxDeletes, upserter: upserter, transaction: transaction,
                                                           view: view, copy: keeping?.keys) : nil
        try upserter.finish()
        let notes = try keeping?.keep(since: since, view: view).map { [$0] } ?? []
        let refreshed = try syncedEntry(entry, view: view, stored: shape.stored, rowCount: try upserter.rowCount(),
                                        refreshedAt: state.refreshedAt, portalRoot: portal.base)
        var refresh = RefreshRecord(
            table: entry.tableName, refreshedAt: refreshed.fetchedAt, kind: "sync", source: entry.sourceURL,
            rowsUpdatedAt: refreshed.rowsUpdatedAt, rowCount: refreshed.rowCount, schemaChanges: shape.changes.count,
            inserted: inserted, updated: tracker?.counts?.changed ?? state.rowCount - inserted, deleted: deleted,
            unchanged: tracker?.counts?.unchanged, seconds: state.elapsed)
        (refresh.api, refresh.notices) = (loader.queryAPI.rawValue, loader.heard.notices)
        try transaction.catalog.recordLoad(refreshed, schemaChanges: shape.changes, refresh: refresh)
        try loader.cancellation?.check()
        return SyncSummary(tableName: entry.tableName, inserted: inserted, updated: state.rowCount - inserted,
                           rowCount: refreshed.rowCount, since: since, elapsed: state.elapsed,
                           invalidCells: sink?.converter.invalidCells ?? [], deleted: deleted, rowChanges: tracker?.counts,
                           schemaChanges: shape.changes, notes: notes)
    }

    /// The portal a table was fetched from (its recorded source URL and dataset id).
    private static func portal(of entry: CatalogEntry) throws -> SocrataPortal {
        // A CKAN, ArcGIS or OpenDataSoft table has no SODA to sync with: its refresh reloads it.
        if let platform = entry.requestSignature.flatMap({ DataPlatform(rawValue: String($0.split(separator: " ").first ?? "")) }),
           platform != .socrata {
            throw LoadError.unsupported("\(entry.tableName) was loaded from \(platform.displayName), and sync reads Socrata's SODA: "
                                        + "socload fetch \(entry.sourceURL) (or refresh) brings it up to date, counting what changed")
        }
        guard let id = entry.datasetID, let components = URLComponents(string: entry.sourceURL),
              let scheme = components.scheme, scheme.hasPrefix("http"), let host = components.host else {
            throw LoadError.notFetchedFromPortal(entry.tableName)
        }
        return SocrataPortal(base: "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")", datasetID: id)
    }

    /// How a sync writes: the plan of the portal's columns now, the stored plan (kept, with what
    /// evolve added), the plan the rows arrive in and how they are reshaped into the table's.
    private struct SyncShape {
        var plan: LoadPlan
        var stored: LoadPlan
        var arriving: LoadPlan
        var reshaping: [Int?]?
        var changes: [SchemaChange] = []
    }

    /// Sync upserts into the table as it is: any change of its columns stops it, unless `evolve`
    /// keeps the table's columns (a fetch with --on-schema-change warn takes the new shape).
    private func syncShape(of entry: CatalogEntry, view: ViewMetadata, layout: SODARowLayout, policy: SchemaChangePolicy,
                           transaction: any LoadTransaction) throws -> SyncShape {
        var stored = try storedPlan(of: entry)
        var options = stored.options ?? PlanOptions(tableName: entry.tableName)
        options.includeSystemColumns = false // SODA gives only :id, :created_at and :updated_at
        var plan = try LoadPlan.socrata(view: layout.view, options: options)
        if let limit = loader.destination.maximumNameBytes { plan = plan.withNamesShortened(toBytes: limit) }
        let changes = plan.schemaChanges(from: stored, previousColumns: entry.columns, columns: view.columns)
            .filter(\.isAboutAColumn)
        let arriving = plan
        guard !changes.isEmpty else { return SyncShape(plan: plan, stored: stored, arriving: arriving, reshaping: nil) }
        let evolution = try evolveForSync(plan, stored: &stored, changes: changes, policy: policy, transaction: transaction)
        plan.tables[0] = evolution.plan.mainTable
        return SyncShape(plan: plan, stored: stored, arriving: arriving, reshaping: evolution.sources, changes: evolution.changes)
    }

    /// The table's catalog entry after a sync: the portal's description of now, the plan kept.
    private func syncedEntry(_ entry: CatalogEntry, view: ViewMetadata, stored: LoadPlan, rowCount: Int,
                             refreshedAt: String, portalRoot: String) throws -> CatalogEntry {
        var refreshed = entry
        refreshed.rowCount = rowCount
        refreshed.fetchedAt = refreshedAt
        refreshed.rowsUpdatedAt = view.rowsUpdatedAtText
        refreshed.columnsJSON = view.columnsJSON
        // The page link keeps the portal's scheme, as a fetch's does.
        refreshed.dictionaryJSON = view.dictionaryJSON(domain: portalRoot)
        refreshed.datasetDescription = view.dictionary.description
        refreshed.planJSON = stored.jsonText
        refreshed.partialReason = "the table was synced since it was loaded (the invalid-cell counts are the load's)"
        return refreshed
    }

    /// The plan a table was loaded with; for a table loaded by an older socload, the plan its
    /// recorded column metadata gives.
    private func storedPlan(of entry: CatalogEntry) throws -> LoadPlan {
        if let plan = entry.plan { return plan }
        let columns = (try? JSONDecoder().decode([ColumnMetadata].self, from: Data(entry.columnsJSON.utf8))) ?? []
        return try LoadPlan.socrata(view: ViewMetadata(columns: columns), options: PlanOptions(tableName: entry.tableName))
    }
}
