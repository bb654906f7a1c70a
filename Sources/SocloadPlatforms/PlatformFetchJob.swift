import Foundation
import SocloadCore
import SocloadEngine
import SocloadFiles
import SocloadTransport

/// A dataset of CKAN, ArcGIS or OpenDataSoft into a table, as `socload fetch URL` loads one:
/// the platform's description first (its typed columns, the rows it counts, when its data last
/// changed). A table loaded from the same URL whose data has not changed since is up to date
/// (`force` loads anyway; a platform that does not say when its data changed is always
/// reloaded). Otherwise every page goes into a spool, and the document job loads the spool
/// typed by the description, in one transaction, replacing the table only when every page came.
package struct PlatformFetchJob {
    package struct Request: Sendable {
        /// The URL as the user gave it (kept in the catalog without credentials).
        package var url: String
        package var locator: PlatformLocator
        package var tableName: String?
        package var tableOptions = TableOptions()
        package var force = false
        /// Load only the first N rows.
        package var limit: Int?
        /// Rows a page asks for (`--page-size`), at most the platform's own limit; nil: that limit.
        package var pageSize: Int?

        package init(url: String, locator: PlatformLocator) {
            self.url = url
            self.locator = locator
        }
    }

    let context: LoadContext
    let request: Request

    package init(context: LoadContext, request: Request) {
        self.context = context
        self.request = request
    }

    private var http: PlatformHTTP {
        PlatformHTTP(http: context.http, retry: context.retry, cancellation: context.cancellation, onRetry: context.onRetry,
                     platform: request.locator.platform)
    }

    private var source: any PlatformSource { Self.source(of: request.locator, http: http, pageSize: request.pageSize) }

    static func source(of locator: PlatformLocator, http: PlatformHTTP, pageSize: Int? = nil) -> any PlatformSource {
        switch locator {
        case .ckan(let locator):
            var source = CKANDataStore(locator: locator, http: http)
            if let pageSize {
                source.pageSize = min(pageSize, source.pageSize)
                source.readsDump = false
            }
            return source
        case let .arcgis(layer, service, number):
            return ArcGISLayer(layer: layer, service: service, number: number, http: http, pageSize: pageSize)
        case let .ods(base, datasetID): return ODSDataset(base: base, datasetID: datasetID, http: http)
        }
    }

    /// How the catalog tells a load of this job from others: the platform, and a `--limit`.
    private var signature: String {
        request.locator.platform.rawValue + (request.limit.map { " limit \($0)" } ?? "")
    }

    /// What a load of `request` would make, from the platform's metadata alone (no row read, no
    /// database): what `--dry-run`, `status` and `refresh --locked` look at.
    package static func planned(_ request: Request, http options: HTTPOptions, retry: RetryPolicy,
                                onRetry: (@Sendable (String) -> Void)?) throws -> PlatformPlanned {
        let http = PlatformHTTP(http: options, retry: retry, cancellation: nil, onRetry: onRetry, platform: request.locator.platform)
        switch try source(of: request.locator, http: http).describe() {
        case .described(let description):
            let options = request.tableOptions.planOptions(tableName: request.tableName ?? description.tableName)
            return PlatformPlanned(plan: try description.plan(excluding: [], options: options), dataUpdatedAt: description.dataUpdatedAt,
                                   columns: description.columns, dictionary: description.dictionary, datasetID: description.id)
        case let .file(url, _, _):
            throw PlanError("the resource is a file (\(CredentialRedaction.withoutCredentials(url))), not a DataStore table: "
                            + "its columns are known once it is read")
        }
    }

    /// Loads the dataset (or finds its table up to date); a cancel ends it as any load's does.
    package func run() throws -> LoadSummary {
        try context.reportingCancellation { try load() }
    }

    private func load() throws -> LoadSummary {
        let start = DispatchTime.now().uptimeNanoseconds
        let source = self.source
        let rows = try source.describe()
        let display = CredentialRedaction.withoutCredentials(request.url)
        let origin = { (signal: String?, datasetID: String?) in
            var origin = DocumentOrigin(sourceURL: display, domain: Self.portal(of: request.url),
                                        requestSignature: signature, dataUpdatedAt: signal)
            origin.datasetID = datasetID
            origin.isSlice = request.limit != nil
            return origin
        }
        switch rows {
        case let .file(url, tableName, signal):
            let table = request.tableName ?? tableName
            if let current = try upToDate(table: table, datasetID: url, signal: signal, start: start) { return current }
            var document = DocumentLoadRequest(source: url, tableName: table)
            document.tableOptions = request.tableOptions
            document.origin = origin(signal, url)
            var summary = try DocumentLoadJob(context: context, request: document, describe: Self.noMetadata).run(onSpool: {})
            summary.readThrough = "its file (the resource is not in CKAN's DataStore)"
            return summary
        case .described(let description):
            let table = request.tableName ?? description.tableName
            if let current = try upToDate(table: table, datasetID: description.id, signal: description.dataUpdatedAt, start: start) {
                return current
            }
            let spool = try RecordSpool()
            defer { spool.remove() }
            let progress = context.progress
            let notes = try source.writeRecords(of: description, into: spool, limit: request.limit) { records in
                progress?(LoadProgress(bytesRead: 0, bytesExpected: nil, rowsLoaded: records,
                                       elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
            }
            var document = DocumentLoadRequest(source: spool.path, tableName: table)
            document.tableOptions = request.tableOptions
            document.document.format = .json
            document.document.layout = .lines
            document.givenDescription = description
            document.origin = origin(description.dataUpdatedAt, nil)
            var summary = try DocumentLoadJob(context: context, request: document, describe: Self.noMetadata).run(onSpool: {})
            summary.notes = notes + summary.notes
            if request.limit == nil, let stated = description.rowCount, stated != summary.rowCount {
                // Said at once; verify compares the key's count with the platform's (exit 65).
                summary.notes.append("\(summary.tableName): \(summary.rowCount) row\(summary.rowCount == 1 ? " was" : "s were") "
                                     + "loaded, and \(request.locator.platform.displayName) counts \(stated) for this dataset")
            }
            summary.readThrough = Self.api(of: request.locator.platform)
            summary.elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return summary
        }
    }

    /// The table's last load, when it loaded the same dataset of the same portal (whatever URL
    /// form named it) the same way, and the platform's data has not changed since (never when
    /// the platform does not say, or with `force`).
    ///
    /// A table named after the platform's short name (no `--table`) that holds another dataset
    /// (another portal's, another service's layer of the same name) is not replaced by this one.
    private func upToDate(table: String, datasetID: String, signal: String?, start: UInt64) throws -> LoadSummary? {
        let display = CredentialRedaction.withoutCredentials(request.url)
        let host = Self.portal(of: request.url)
        // The catalog finds a table or a dataset id: only the table's own entry counts here.
        let found = try context.destination.performLoad { transaction in
            try transaction.catalog.entry(for: table, withDescription: false)
        }
        guard let previous = found, previous.tableName.lowercased() == table.lowercased() else { return nil }
        let sameDataset = previous.datasetID == datasetID && previous.domain == host
        if request.tableName == nil, !sameDataset {
            throw LoadError.tableTaken(table, reason: "it holds another dataset (\(previous.sourceURL))")
        }
        guard !request.force, let signal, sameDataset, previous.requestSignature == signature,
              previous.rowsUpdatedAt == signal else { return nil }
        return LoadSummary(tableName: previous.tableName, rowCount: previous.rowCount, columnCount: 0, source: display,
                           elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, catalogEntry: previous,
                           isUpToDate: true)
    }

    /// The portal a URL is on, as the catalog keeps it: its host, and its port when it has one
    /// (two portals on one host are two portals).
    static func portal(of url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host else { return nil }
        return host + (components.port.map { ":\($0)" } ?? "")
    }

    private static let noMetadata: DocumentDescriber = { _, source in
        throw PlanError("\(source): a platform's dataset is described by the platform")
    }

    package static func api(of platform: DataPlatform) -> String {
        switch platform {
        case .ckan: return "CKAN's DataStore API"
        case .arcgis: return "the ArcGIS REST query API"
        case .ods: return "OpenDataSoft's Explore API v2.1 export"
        case .socrata: return "SODA"
        }
    }
}

/// What a platform's dataset would load as, read from its metadata alone.
package struct PlatformPlanned {
    package var plan: LoadPlan
    /// When the platform says the data last changed (nil: it does not say).
    package var dataUpdatedAt: String?
    /// The columns as the catalog would keep them.
    package var columns: [ColumnMetadata]
    package var dictionary: DatasetDictionary
    package var datasetID: String
}
