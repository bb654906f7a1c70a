import Foundation
import SocloadCore
import SocloadPlatforms

extension DatasetLoader {
    /// Loads what `spec` names, in one transaction: a dataset replaces its table (`socload
    /// fetch`; conditionally, unless `force`; a CKAN, ArcGIS or OpenDataSoft URL from that platform), a document replaces its table or adds to it as
    /// `spec.mode` says (`socload load`). `datasetsDirectories`: where a dataset id without a
    /// domain finds its bundled copy. A spec with `incremental` is a sync: see `sync(_:)`.
    ///
    ///     let summary = try loader.load(LoadSpec(dataset: "n5m4-mism"))
    ///
    /// In async code use `await load(_:)`, which a cancelled `Task` stops.
    @available(*, noasync, message: "in async code write `try await loader.load(spec)`: a Task cancel can stop it")
    public func load(_ spec: LoadSpec, datasetsDirectories: [String] = ["Datasets"]) throws -> LoadSummary {
        try loadNow(spec, datasetsDirectories: datasetsDirectories)
    }

    /// The same load, for Swift concurrency: cancelling the calling `Task` stops it (rolled back,
    /// `LoadError.cancelled`). The load itself runs on a thread of its own.
    public func load(_ spec: LoadSpec, datasetsDirectories: [String] = ["Datasets"]) async throws -> LoadSummary {
        let loader = self
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result { try loader.loadNow(spec, datasetsDirectories: datasetsDirectories) })
                }
            }
        } onCancel: {
            loader.cancel(signal: LoadCancellation.taskCancelled)
        }
    }

    /// Brings the table of a dataset `spec` loaded before up to date (`fetch --incremental`,
    /// `socload sync`): only the rows changed upstream, upserted by the table's key.
    public func sync(_ spec: LoadSpec) throws -> SyncSummary {
        let table = try spec.tableName ?? LoadPlan.tableName(forDatasetID: spec.reference().datasetID ?? spec.sourceText)
        return try sync(table, pageSize: spec.pageSize, indexes: spec.tableOptions.indexes, history: spec.tableOptions.keepsHistory,
                        schemaPolicy: spec.tableOptions.onSchemaChange == .evolve ? .evolve : .fail,
                        cache: spec.cache.map { DownloadCache(directory: $0, keptVersions: spec.keepVersions) })
    }

    /// The plan a load of `spec` would make, without loading (`--dry-run`): for a dataset, from
    /// its description; for a document, not yet (`LoadError.unsupported`).
    public static func plan(for spec: LoadSpec, datasetsDirectories: [String] = ["Datasets"], http: HTTPOptions = HTTPOptions(),
                            retry: RetryPolicy = RetryPolicy()) throws -> LoadPlan {
        try spec.validate()
        if let platform = try spec.platformRequest() {
            return try PlatformFetchJob.planned(platform, http: http, retry: retry, onRetry: nil).plan
        }
        return try plan(for: spec.datasetRequest(spec.reference(datasetsDirectories: datasetsDirectories)), http: http, retry: retry)
    }

    private func loadNow(_ spec: LoadSpec, datasetsDirectories: [String]) throws -> LoadSummary {
        try spec.validate()
        switch spec.source {
        case .dataset:
            if let platform = try spec.platformRequest() {
                return try PlatformFetchJob(context: context, request: platform).run()
            }
            guard !spec.incremental else {
                throw LoadError.unsupported("an incremental spec syncs its table: call sync(_:), which says what changed")
            }
            return try loadNow(spec.datasetRequest(spec.reference(datasetsDirectories: datasetsDirectories)))
        case .document:
            return try loadDocument(spec.documentRequest())
        }
    }
}
