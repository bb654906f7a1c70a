import SocloadCore

/// Which Socrata API a load reads rows through.
public enum DatasetAPI: String, Sendable, CaseIterable {
    /// rows.json for a plain fetch (one streamed request, every column); SODA 2.1 as soon as SoQL
    /// options are given, since only the query APIs can filter.
    case auto
    /// The legacy export `/api/views/ID/rows.json`.
    case rows
    /// SODA 2.1 `/resource/ID.json`, in pages.
    case soda2
    /// SODA3 `POST /api/v3/views/ID/query.json`, in pages; needs an app token or a login.
    case soda3
}

/// What to load and how.
package struct LoadRequest: TableOptionsCarrying, Sendable {
    package var reference: DatasetReference
    /// How the table is shaped and kept (`--type`, `--pk`, `--index`, `--fts`, `--extract`,
    /// `--distribute-by`, `--geometry`, `--on-schema-change`, `--keep-changes`, `--history`,
    /// `--strict`); each is also a property of the request (`TableOptionsCarrying`).
    package var tableOptions = TableOptions()
    /// The table name; by default the dataset id with `-` as `_` (`n5m4_mism`).
    package var tableName: String?
    /// Load only the first N rows.
    package var limit: Int?
    /// Refuse a dataset of more than N rows (`LoadError.tooManyRows`, nothing changed), unlike
    /// `limit`, which loads the first N. A guard for pipelines against a portal or file gone wrong.
    package var maxRows: Int?
    /// Also keep `_sid`, `_row_id`, `_position`, `_created_meta`, `_updated_meta`, `_meta`.
    package var includeSystemColumns = false
    package var api = DatasetAPI.auto
    /// SoQL pushed down to the portal (SODA APIs only).
    package var query = SoQLQuery()
    /// Rows per SODA page.
    package var pageSize = LoadSpec.defaultPageSize
    /// Reload even when the portal says nothing changed.
    package var force = false
    /// Keep a compressed copy of every rows.json this load downloads, under its version stamp
    /// (`"cache": DIR`, `--cache DIR`).
    package var cache: DownloadCache?
    /// Load only this version (the rowsUpdatedAt the source states): another fails the load with
    /// `LoadError.notTheExpectedVersion`, nothing changed (`refresh --locked`).
    package var expectedRowsUpdatedAt: String?
    /// What `DatasetLoader.prefetch` read or started before the load's turn: the load uses it
    /// instead of asking the portal again.
    package var prefetched: PrefetchedSource?
    /// What the destination can store; set by the loader from its destination.
    var storable = StorableValues.anything
    /// The destination's longest name; set by the loader from its destination.
    var maximumNameBytes: Int?
    /// The destination's most columns; set by the loader from its destination.
    var columnLimit: ColumnLimit?

    package init(reference: DatasetReference, tableName: String? = nil, limit: Int? = nil,
                includeSystemColumns: Bool = false) {
        self.reference = reference
        self.tableName = tableName
        self.limit = limit
        self.includeSystemColumns = includeSystemColumns
    }

    /// The API `auto` stands for, after checking that the request makes sense.
    func resolvedAPI() throws -> DatasetAPI {
        let isFile: Bool
        if case .file = reference.location { isFile = true } else { isFile = false }
        switch api {
        case .auto:
            if query.isEmpty { return .rows }
            guard !isFile else { throw LoadError.unsupported("--where, --select and --order need a dataset on a portal, not a file") }
            return .soda2
        case .rows:
            guard query.isEmpty else { throw LoadError.unsupported("--where, --select and --order need --api soda2 or soda3") }
            return .rows
        case .soda2, .soda3:
            guard !isFile, reference.datasetID != nil else {
                throw LoadError.unsupported("--api \(api.rawValue) needs a dataset id on a portal (--domain HOST, or a portal URL)")
            }
            return api
        }
    }

    /// The plan for a dataset's metadata under this request's options.
    func plan(for view: ViewMetadata) throws -> LoadPlan {
        let name = targetTable(view: view)
        let lowered = name.lowercased()
        if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("_socload_") || name.isEmpty {
            throw LoadError.reservedTableName(name)
        }
        if name.contains("\u{0}") { throw LoadError.badName("the table name \(JSONValue.quoted(name))") }
        var plan = try LoadPlan.socrata(view: view, options: tableOptions.planOptions(tableName: name,
                                                                                     includeSystemColumns: includeSystemColumns))
        if let maximumNameBytes { plan = plan.withNamesShortened(toBytes: maximumNameBytes) }
        if plan.mainTable.columns.isEmpty { throw LoadError.noColumns(name) }
        try columnLimit?.check(plan)
        if let column = plan.mainTable.columns.first(where: { $0.name.contains("\u{0}") }) {
            throw LoadError.badName("the column name \(JSONValue.quoted(column.name))")
        }
        return plan
    }

    /// The table name the load will write.
    func targetTable(view: ViewMetadata?) -> String {
        tableName ?? LoadPlan.tableName(forDatasetID: reference.datasetID ?? view?.id ?? "dataset")
    }

    /// Why a load of this request is not the whole dataset, if it is not.
    var partialReason: String? {
        var reasons: [String] = []
        if let limit { reasons.append("only the first \(limit) rows were loaded (--limit)") }
        if let condition = query.where, !condition.isEmpty { reasons.append("the rows were filtered (--where)") }
        if query.select != nil { reasons.append("the columns were chosen (--select)") }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    func signature(api: DatasetAPI) -> String {
        var parts = ["api=\(api.rawValue)"]
        if !query.isEmpty { parts.append(query.signature) }
        if let limit { parts.append("limit=\(limit)") }
        if includeSystemColumns { parts.append("system-columns") }
        if let primaryKey = tableOptions.primaryKey { parts.append("pk=" + primaryKey.joined(separator: ",")) }
        for extraction in tableOptions.extractions { parts.append("extract=" + extraction.spec) }
        for (field, type) in tableOptions.typeOverrides.sorted(by: { $0.key < $1.key }) { parts.append("type=\(field):\(type.rawValue)") }
        return parts.joined(separator: "&")
    }
}
