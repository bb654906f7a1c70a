import SocloadCore

/// What a refresh says and does about a table whose shape changed (`--on-schema-change`).
extension DatasetLoader {
    /// The changes from the table's recorded plan to `plan`: with `fail` the load stops
    /// (nothing changed, exit 65); with `warn` each change becomes a note and is logged when the
    /// load commits. No previous plan: a first load, nothing to compare.
    static func governSchemaChanges(of plan: LoadPlan, previous: CatalogEntry?, columns: [ColumnMetadata],
                                    policy: SchemaChangePolicy) throws -> [SchemaChange] {
        guard let previous, previous.tableName.lowercased() == plan.mainTable.name.lowercased(),
              let previousPlan = previous.plan else { return [] }
        let changes = plan.schemaChanges(from: previousPlan, previousColumns: previous.columns, columns: columns)
        if policy == .fail, !changes.isEmpty {
            throw LoadError.schemaChanged(table: plan.mainTable.name, differences: changes.map(\.line))
        }
        return changes
    }

    /// The notes that say each change, for the summary's warnings.
    static func notes(for changes: [SchemaChange]) -> [String] {
        changes.map { "\($0.table): \($0.line)" }
    }
}

extension RefreshRecord {
    /// The refresh log's row for a load that recorded `entry`: its schema changes and, when
    /// they were counted, its row changes.
    static func of(_ entry: CatalogEntry, kind: String, state: DatasetLoader.LoadState, seconds: Double? = nil) -> RefreshRecord {
        let counts = state.changeTracker?.counts
        return RefreshRecord(table: entry.tableName, refreshedAt: entry.fetchedAt, kind: kind, source: entry.sourceURL,
                             rowsUpdatedAt: entry.rowsUpdatedAt, etag: entry.etag, rowCount: entry.rowCount,
                             schemaChanges: state.schemaChanges.count, inserted: counts?.added, updated: counts?.changed,
                             deleted: counts?.removed, unchanged: counts?.unchanged, reissued: counts?.reissued,
                             seconds: seconds ?? state.elapsed)
    }
}
