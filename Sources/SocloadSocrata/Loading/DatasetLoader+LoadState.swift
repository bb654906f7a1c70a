import Dispatch
import SocloadCore
import SocloadEngine

extension DatasetLoader {
    /// What one load has seen so far.
    final class LoadState {
        let start = DispatchTime.now().uptimeNanoseconds
        /// The new copy of the table, once begun (`beginTable`).
        var table: TableReplacement?
        var view: ViewMetadata?
        var rowCount = 0
        var invalidCells: [InvalidCells] = []
        /// Things the user should know that did not stop the load, besides the table's own.
        var notes: [String] = []
        var bytesRead: Int64 = 0
        var bytesExpected: Int64?
        var head: HTTPResponseHead?
        var source = ""
        /// When this refresh happened (the catalog's `fetched_at`, the logs' time), and what the
        /// load asked about schema changes, the change log and history.
        let options: TableReplacement.Options

        init(schemaPolicy: SchemaChangePolicy = .warn, keptChangeRefreshes: Int? = nil, keepsHistory: Bool = false) {
            options = TableReplacement.Options(refreshedAt: DatasetLoader.now(), schemaPolicy: schemaPolicy,
                                               keptChangeRefreshes: keptChangeRefreshes, keepsHistory: keepsHistory)
        }

        var refreshedAt: String { options.refreshedAt }
        var plan: LoadPlan? { table?.plan }
        var writer: (any TableWriter)? { table?.writer }
        var schemaChanges: [SchemaChange] { table?.schemaChanges ?? [] }
        /// The table's notes (what it kept, what changed), then the load's.
        var allNotes: [String] { (table?.notes ?? []) + notes }
        var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

        /// The refresh log's row for this load, which recorded `entry`.
        func refreshRecord(_ entry: CatalogEntry, kind: String, seconds: Double? = nil) -> RefreshRecord {
            .of(entry, kind: kind, schemaChanges: schemaChanges.count, rowChanges: table?.changeTracker?.counts,
                seconds: seconds ?? elapsed)
        }
    }
}
