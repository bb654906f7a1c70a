import Foundation
import SocloadCore

/// Loading through the legacy rows.json export (`RowsJSONSource`), on two cores: the source's
/// thread reads and converts, the database queue inserts (`RowPipeline`).
extension FetchJob {
    enum RowsOutcome {
        case loaded, notModified
        /// The file is the one the table was last loaded from (`FileSignature`): nothing to do.
        case unchangedFile(CatalogEntry)
    }

    func loadRowsJSON(_ request: LoadRequest, previous: CatalogEntry?, transaction: any LoadTransaction,
                      state: DatasetLoader.LoadState) throws -> RowsOutcome {
        switch request.reference.location {
        case .file(let path):
            if let foreign = ForeignDocument.recognise(path: path) { throw DocumentError.inDocument(path, .foreign(foreign)) }
            return try runPipeline(request, headers: [], transaction: transaction, state: state)
        case .url:
            let headers = DatasetLoader.conditionalHeaders(since: previous)
            // A transfer that fails in a retryable way starts over, after undoing what it wrote.
            return try loader.retry.run(cancellation: loader.cancellation, onRetry: loader.retryNotice) {
                try transaction.withSavepoint {
                    try runPipeline(request, headers: headers, transaction: transaction, state: state)
                }
            }
        }
    }

    /// Starts the producer and inserts what it sends until the end, a failure, or cancellation.
    private func runPipeline(_ request: LoadRequest, headers: [(name: String, value: String)],
                             transaction: any LoadTransaction, state: DatasetLoader.LoadState) throws -> RowsOutcome {
        state.rowCount = 0
        state.bytesRead = 0
        state.table = nil
        state.notes = []
        let source = RowsJSONSource(request: request, headers: headers, http: loader.http)
        return try RowPipeline(cancellation: loader.cancellation).run(source) { event -> RowsOutcome? in
            switch event {
            case .described(let described):
                // A file whose table was not known before its metadata (no --table, no id in its
                // name) is checked against its table's last load now.
                if let entry = try unchangedFile(request, plan: described.plan, catalog: transaction.catalog) {
                    return .unchangedFile(entry)
                }
                state.view = described.view
                try beginTable(described.plan, transaction: transaction, state: state)
            case let .batch(_, batch, bytesRead, bytesExpected):
                try state.writer?.insert(batch)
                state.rowCount += batch.rowCount
                state.bytesRead = bytesRead
                state.bytesExpected = bytesExpected
                loader.reportProgress(state)
            case .end(let ending):
                state.head = ending.head
                state.fileSignature = ending.fileSignature
                state.invalidCells = ending.invalidCells
                return ending.head?.statusCode == 304 ? .notModified : .loaded
            }
            return nil
        }
    }

    /// The catalog entry of `plan`'s table when the request's file is the one it was last loaded
    /// from, unchanged (and not `--force`).
    private func unchangedFile(_ request: LoadRequest, plan: LoadPlan, catalog: any CatalogStore) throws -> CatalogEntry? {
        guard !request.force, case .file(let path) = request.reference.location,
              let entry = try catalog.entry(for: plan.mainTable.name, withDescription: false), entry.tableName == plan.mainTable.name,
              entry.sourceURL == request.reference.displaySource, request.isSignature(of: entry.requestSignature),
              try FileSignature.unchanged(path, since: entry.etag) else { return nil }
        return entry
    }
}
