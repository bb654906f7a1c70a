import SocloadCore

/// Which Socrata API a load reads rows through.
public enum DatasetAPI: String, Sendable, CaseIterable {
    /// SODA3 with an app token or a login, SODA 2.1 without; rows.json for a file, a rows.json
    /// URL, or a dataset whose portal refuses the query APIs.
    case auto
    /// The legacy export `/api/views/ID/rows.json`.
    case rows
    /// SODA 2.1 `/resource/ID.json`, in pages.
    case soda2
    /// SODA3 `POST /api/v3/views/ID/query.json`, in pages; needs an app token or a login.
    case soda3

    /// The query API a load reads through by default: SODA3 with an app token or a login (it
    /// needs one), SODA 2.1 without.
    static func query(hasCredentials: Bool) -> DatasetAPI { hasCredentials ? .soda3 : .soda2 }

    /// How people call it: `rows.json`, `SODA 2.1`, `SODA3`.
    public var displayName: String {
        switch self {
        case .auto: return "auto"
        case .rows: return "rows.json"
        case .soda2: return "SODA 2.1"
        case .soda3: return "SODA3"
        }
    }
}

/// A load of a dataset as a job runs it: the `LoadSpec` it was asked for (each of the spec's
/// options is a property of the request too: `request.limit` is `request.spec.limit`), with
/// its reference found and what the load learns of its destination and its turn.
@dynamicMemberLookup
package struct LoadRequest: Sendable {
    package var reference: DatasetReference
    /// What was asked: the table, how it is shaped and kept, the API, SoQL, paging, limits.
    package var spec: LoadSpec
    /// The spec's `cache` folder, opened.
    package var cache: DownloadCache?
    /// Load only this version (the rowsUpdatedAt the source states): another fails the load with
    /// `LoadError.notTheExpectedVersion`, nothing changed (`refresh --locked`).
    package var expectedRowsUpdatedAt: String?
    /// What `DatasetLoader.prefetch` read or started before the load's turn: the load uses it
    /// instead of asking the portal again.
    package var prefetched: PrefetchedSource?
    /// The syncs kept with the cached version being restored (`DownloadCache.syncs`), replayed
    /// over its rows in order (`FetchJob.syncReplay`).
    package var replayedSyncs: [String] = []
    /// What the destination can store; set by the loader from its destination.
    var storable = StorableValues.anything
    /// The destination's longest name; set by the loader from its destination.
    var maximumNameBytes: Int?
    /// The destination's most columns; set by the loader from its destination.
    var columnLimit: ColumnLimit?

    package init(reference: DatasetReference, spec: LoadSpec) {
        self.reference = reference
        self.spec = spec
        cache = spec.cache.map { DownloadCache(directory: $0, keptVersions: spec.keepVersions) }
    }

    package init(reference: DatasetReference, tableName: String? = nil, limit: Int? = nil, includeSystemColumns: Bool = false) {
        var spec = LoadSpec(dataset: reference.datasetID ?? reference.displaySource, tableName: tableName)
        spec.limit = limit
        spec.includeSystemColumns = includeSystemColumns
        self.init(reference: reference, spec: spec)
    }

    package subscript<Value>(dynamicMember option: WritableKeyPath<LoadSpec, Value>) -> Value {
        get { spec[keyPath: option] }
        set { spec[keyPath: option] = newValue }
    }

    /// The API this request reads through and why, as `--dry-run` says it. `hasCredentials`:
    /// the load has an app token or a login (`HTTPOptions.hasCredentials`).
    package func apiChoice(hasCredentials: Bool) throws -> (api: DatasetAPI, why: String) {
        let api = try resolvedAPI(hasCredentials: hasCredentials)
        if case .file = reference.location { return (api, "a file is read whole") }
        guard spec.api == .auto else { return (api, "--api \(spec.api.rawValue)") }
        switch api {
        case .rows where reference.namesExport: return (api, "--api auto with the URL of a rows.json export: that export")
        case .rows: return (api, "--api auto with a URL that names no dataset id: the export it names")
        case .soda3: return (api, "--api auto with an app token or a login: SODA3, Socrata's standard for reads")
        default: return (api, "--api auto without an app token or a login, which SODA3 needs")
        }
    }

    /// The API `auto` stands for, after checking that the request makes sense: SODA3 with an app
    /// token or a login, SODA 2.1 without; rows.json for a file, or a rows.json URL the user named.
    /// (rows.json, deprecated since 2026-10-01, is otherwise read only with `--api rows`, or when a
    /// portal refuses the query APIs for a dataset: `FetchJob` falls back then.)
    func resolvedAPI(hasCredentials: Bool) throws -> DatasetAPI {
        let isFile: Bool
        if case .file = reference.location { isFile = true } else { isFile = false }
        switch spec.api {
        case .auto:
            if isFile {
                guard spec.query.isEmpty else {
                    throw LoadError.unsupported("--where, --select and --order need a dataset on a portal, not a file")
                }
                return .rows
            }
            if (spec.query.isEmpty && reference.namesExport) || reference.datasetID == nil { return .rows }
            return DatasetAPI.query(hasCredentials: hasCredentials)
        case .rows:
            guard spec.query.isEmpty else { throw LoadError.unsupported("--where, --select and --order need --api soda2 or soda3") }
            return .rows
        case .soda2, .soda3:
            guard !isFile, reference.datasetID != nil else {
                throw LoadError.unsupported("--api \(spec.api.rawValue) needs a dataset id on a portal (--domain HOST, or a portal URL)")
            }
            if spec.api == .soda3, !hasCredentials { throw LoadError.unsupported(Self.soda3NeedsCredentials) }
            return spec.api
        }
    }

    /// Why `--api soda3` cannot run without credentials.
    static let soda3NeedsCredentials = "SODA3 needs an app token (--app-token, $SOCRATA_APP_TOKEN or the credentials file) "
        + "or a login ($SOCRATA_USERNAME and $SOCRATA_PASSWORD, or the credentials file)"

    /// The plan for a dataset's metadata under this request's options.
    func plan(for view: ViewMetadata) throws -> LoadPlan {
        let name = targetTable(view: view)
        let lowered = name.lowercased()
        if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("_socload_") || name.isEmpty {
            throw LoadError.reservedTableName(name)
        }
        if name.contains("\u{0}") { throw LoadError.badName("the table name \(JSONValue.quoted(name))") }
        var plan = try LoadPlan.socrata(view: view, options: spec.tableOptions.planOptions(tableName: name,
                                                                                     includeSystemColumns: spec.includeSystemColumns))
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
        spec.tableName ?? LoadPlan.tableName(forDatasetID: reference.datasetID ?? view?.id ?? "dataset")
    }

    /// Why a load of this request is not the whole dataset, if it is not.
    var partialReason: String? {
        var reasons: [String] = []
        if let limit = spec.limit { reasons.append("only the first \(limit) rows were loaded (--limit)") }
        if let condition = spec.query.where, !condition.isEmpty { reasons.append("the rows were filtered (--where)") }
        if spec.query.select != nil { reasons.append("the columns were chosen (--select)") }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// The request's signature with the API that loaded it (`api=soda2&...`), for the catalog.
    func signature(api: DatasetAPI) -> String {
        var parts = ["api=\(api.rawValue)"]
        if !spec.query.isEmpty { parts.append(spec.query.signature) }
        if let limit = spec.limit { parts.append("limit=\(limit)") }
        if spec.includeSystemColumns { parts.append("system-columns") }
        if let primaryKey = spec.tableOptions.primaryKey { parts.append("pk=" + primaryKey.joined(separator: ",")) }
        for extraction in spec.tableOptions.extractions { parts.append("extract=" + extraction.spec) }
        for (field, type) in spec.tableOptions.typeOverrides.sorted(by: { $0.key < $1.key }) { parts.append("type=\(field):\(type.rawValue)") }
        return parts.joined(separator: "&")
    }

    /// True when a catalog entry's recorded signature is this request's, whichever API loaded
    /// it: the three give the same table, so a table loaded by rows.json is up to date for a
    /// request that would read SODA 2.1.
    func isSignature(of recorded: String?) -> Bool {
        guard let recorded else { return false }
        func slice(_ signature: String) -> Substring {
            guard signature.hasPrefix("api=") else { return signature[...] }
            return signature.firstIndex(of: "&").map { signature[signature.index(after: $0)...] } ?? ""
        }
        return slice(recorded) == slice(signature(api: .auto))
    }
}
