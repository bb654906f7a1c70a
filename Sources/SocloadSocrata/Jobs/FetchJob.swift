import Foundation
import SocloadCore
import SocloadEngine

/// `socload fetch`: a dataset (a portal's, or a rows.json file) into a new copy of its table, in
/// one transaction, one job with its request: the portal is asked first whether anything changed
/// since the last load (`+ConditionalRefresh`), then the rows come from the rows.json export
/// (`+RowsJSON`) or the query APIs' pages (`+Pages`), each through its row source and the one
/// pipeline, into the table begun by `TableReplacement`; the catalog entry and the refresh log
/// end it.
struct FetchJob {
    let loader: DatasetLoader
    let request: LoadRequest

    /// Loads the dataset, in one transaction of the destination.
    func run() throws -> LoadSummary {
        let api = try request.resolvedAPI(hasCredentials: loader.http.hasCredentials)
        let portal = SocrataPortal(reference: request.reference)
        loader.heard.clear()
        return try loader.destination.performLoad { transaction in
            let state = DatasetLoader.LoadState(schemaPolicy: request.onSchemaChange,
                                                keptChangeRefreshes: request.keptChangeRefreshes, keepsHistory: request.keepsHistory)
            state.source = request.reference.displaySource
            // A refresh writes only what changed, where the table allows; --force a new copy.
            state.options.refreshesInPlace = !request.force && request.partialReason == nil
            let previous = try previousEntry(for: request, catalog: transaction.catalog)
            if let previous, try sourceUnchanged(portal, since: previous, request: request, state: state) {
                return upToDate(previous, state: state)
            }
            if let unchanged = try readRows(api: api, portal: portal, previous: previous, transaction: transaction, state: state) {
                return upToDate(unchanged, state: state)
            }
            try loader.cancellation?.check()
            guard let plan = state.plan, let writer = state.writer, state.view != nil else {
                throw RowsJSONError.missingMetadata
            }
            try transaction.reserveSharedTables()
            var notes = state.allNotes + (try writer.finish(strict: request.strict))
            if let replaying = writer as? ReplayingTableWriter, let folder = request.replayedSyncs.last {
                state.rowCount += replaying.replayed - replaying.replay.leftOut
                state.view = try Self.keptView(in: folder)
            }
            guard let view = state.view else { throw RowsJSONError.missingMetadata }
            if let expected = request.expectedRowsUpdatedAt, view.rowsUpdatedAtText != expected {
                throw LoadError.notTheExpectedVersion(expected: expected, found: view.rowsUpdatedAtText)
            }
            if request.partialReason == nil, let stated = view.statedRowCount, stated != state.rowCount {
                notes.append("the portal's column statistics count \(stated) rows, but \(state.rowCount) were loaded "
                             + "(socload verify \(plan.mainTable.name) compares every column)")
            }
            try loader.cancellation?.check()
            let entry = CatalogEntry(
                tableName: plan.mainTable.name, datasetID: request.reference.datasetID ?? view.id,
                domain: request.reference.domain, name: view.name, sourceURL: state.source,
                fetchedAt: state.refreshedAt, rowsUpdatedAt: view.rowsUpdatedAtText,
                rowCount: state.rowCount, columnsJSON: view.columnsJSON, columnMappingJSON: plan.columnMappingJSON,
                etag: try state.head?.etag ?? state.fileSignature ?? request.reference.fileSignature(), lastModified: state.head?.lastModified,
                requestSignature: request.signature(api: api), planJSON: plan.jsonText,
                invalidCellsJSON: LoadPlan.encode(state.invalidCells), partialReason: request.partialReason,
                dictionaryJSON: view.dictionaryJSON(domain: request.reference.portalRoot ?? request.reference.domain),
                datasetDescription: view.dictionary.description)
            var refresh = state.refreshRecord(entry, kind: "fetch")
            if case .url = request.reference.location { refresh.api = api.rawValue }
            refresh.notices = loader.heard.notices
            try transaction.catalog.recordLoad(entry, schemaChanges: state.schemaChanges, refresh: refresh)
            var summary = LoadSummary(tableName: plan.mainTable.name, rowCount: state.rowCount,
                                      columnCount: plan.mainTable.columns.count, source: state.source, elapsed: state.elapsed,
                                      catalogEntry: entry, invalidCells: state.invalidCells, notes: notes)
            summary.schemaChanges = state.schemaChanges
            if case .cachedPages? = request.prefetched {
                summary.readThrough = "the download cache's pages"
            } else if case .url = request.reference.location {
                summary.readThrough = api.displayName
            }
            summary.rowChanges = state.table?.changeTracker?.counts
            return summary
        }
    }

    /// Reads the rows into the new table — from the cache's pages, the rows.json export or the
    /// query API's pages — or returns the entry of a table found up to date on the way (a 304,
    /// an unchanged file).
    private func readRows(api: DatasetAPI, portal: SocrataPortal?, previous: CatalogEntry?, transaction: any LoadTransaction,
                          state: DatasetLoader.LoadState) throws -> CatalogEntry? {
        if case .cachedPages(let directory)? = request.prefetched {
            try loadCachedPages(directory, portal: portal, transaction: transaction, state: state)
            return nil
        }
        if case .spooledPages(let directory, _, _)? = request.prefetched {
            try loadCachedPages(directory, portal: portal, transaction: transaction, state: state)
            if let portal { state.source = api == .soda3 ? portal.soda3URL : portal.resourceURL }
            return nil
        }
        switch api {
        case .rows, .auto:
            switch try loadRowsJSON(request, previous: previous, transaction: transaction, state: state) {
            case .notModified: return previous
            case .unchangedFile(let entry): return entry
            case .loaded: return nil
            }
        case .soda2, .soda3:
            guard let portal else { throw LoadError.unsupported("SODA needs a dataset id on a portal") }
            try refusalAsFallback(api: api) {
                try loadPages(request, api: api, portal: portal, transaction: transaction, state: state)
            }
            return nil
        }
    }

    /// Starts the new copy of the plan's table (`TableReplacement`: what earlier loads built is
    /// kept, schema changes governed, claims checked, row changes counted).
    /// `rowsFollowThePlan`: the rows will be made from the plan this returns in `state.plan`
    /// (documents); else they arrive made from `plan` and are reshaped when it changes columns.
    func beginTable(_ plan: LoadPlan, transaction: any LoadTransaction, state: DatasetLoader.LoadState, rowsFollowThePlan: Bool = false) throws {
        state.table = try TableReplacement(plan, columns: state.view?.columns ?? [], options: state.options,
                                           capabilities: loader.destination.capabilities, transaction: transaction,
                                           rowsFollowThePlan: rowsFollowThePlan)
        if !request.replayedSyncs.isEmpty, state.replay == nil {
            state.replay = try syncReplay(request.replayedSyncs, plan: plan)
        }
    }
}
