import Foundation
import SocloadDatabase

/// The outcome of an incremental sync.
public struct SyncSummary: Sendable, Equatable {
    public var tableName: String
    public var inserted: Int
    public var updated: Int
    /// Rows in the table after the sync.
    public var rowCount: Int
    /// The `_updated_at` the sync asked for rows after (nil: the table was empty).
    public var since: String?
    public var elapsed: Double
}

/// Incremental sync: only rows changed upstream since the newest stored `_updated_at`.
extension DatasetLoader {
    /// Brings a table fetched before up to date: asks SODA 2.1 for rows with `:updated_at` later
    /// than the newest stored `_updated_at` (ordered by `:updated_at, :id`) and upserts them by
    /// `_id`, in one transaction. Rows deleted upstream are not seen: a full fetch removes them.
    public func sync(_ tableOrDatasetID: String, pageSize: Int = 50_000) throws -> SyncSummary {
        try destination.performLoad { session in
            let state = LoadState()
            guard let entry = try session.catalogEntry(for: tableOrDatasetID) else {
                throw LoadError.notInCatalog(tableOrDatasetID)
            }
            guard let id = entry.datasetID, let components = URLComponents(string: entry.sourceURL),
                  let scheme = components.scheme, scheme.hasPrefix("http"), let host = components.host else {
                throw LoadError.notFetchedFromPortal(entry.tableName)
            }
            let portal = SocrataPortal(base: "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")", datasetID: id)
            let view = try fetchView(portal)
            try view.requireTabular()
            let layout = SODARowLayout(view: view)
            let schema = TableSchema(tableName: entry.tableName, view: layout.view)
            try checkColumns(of: schema, session: session)
            try session.prepareUpsert(schema)

            let since = try session.newestUpdate(in: entry.tableName)
            var query = SoQLQuery(order: ":updated_at")
            if let since { query.where = ":updated_at > '\(since)'" }
            var inserted = 0
            var updated = 0
            state.schema = schema
            state.view = view
            _ = try readPages(api: .soda2, portal: portal, query: query, pageSize: pageSize, limit: nil, layout: layout,
                              session: session, state: state, prepare: { _ in }, handleRow: { cells, rowNumber in
                                  let values = try schema.values(for: cells, rowNumber: rowNumber)
                                  if try session.upsert(values) { inserted += 1 } else { updated += 1 }
                              })
            var refreshed = entry
            refreshed.rowCount = try session.rowCount(of: entry.tableName)
            refreshed.fetchedAt = ISO8601Timestamp.format(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
            refreshed.rowsUpdatedAt = view.rowsUpdatedAt.map { ISO8601Timestamp.format(Date(timeIntervalSince1970: Double($0))) }
            refreshed.columnsJSON = view.columnsJSON
            try session.recordCatalogEntry(refreshed)
            try cancellation?.check()
            return SyncSummary(tableName: entry.tableName, inserted: inserted, updated: updated,
                               rowCount: refreshed.rowCount, since: since, elapsed: state.elapsed)
        }
    }

    /// Stops the sync when the upstream columns no longer match the table's, listing how.
    private func checkColumns(of schema: TableSchema, session: any LoadSession) throws {
        guard let existing = try session.existingColumns(of: schema.tableName) else {
            throw LoadError.notInCatalog(schema.tableName)
        }
        var differences: [String] = []
        let current = Dictionary(existing.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let wanted = Dictionary(schema.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for column in schema.columns {
            if let old = current[column.name] {
                if old.storage != column.storage {
                    differences.append("\(column.name) is now \(column.storage.rawValue), was \(old.storage.rawValue)")
                }
            } else {
                differences.append("added \(column.name) \(column.storage.rawValue)")
            }
        }
        for column in existing where wanted[column.name] == nil {
            differences.append("removed \(column.name)")
        }
        if !differences.isEmpty {
            throw LoadError.schemaChanged(table: schema.tableName, differences: differences)
        }
    }
}
