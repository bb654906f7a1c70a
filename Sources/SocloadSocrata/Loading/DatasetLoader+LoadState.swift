import Dispatch
import SocloadCore

extension DatasetLoader {
    /// What one load has seen so far.
    final class LoadState {
        let start = DispatchTime.now().uptimeNanoseconds
        var plan: LoadPlan?
        var writer: (any TableWriter)?
        var view: ViewMetadata?
        var rowCount = 0
        var invalidCells: [InvalidCells] = []
        /// Things the user should know that did not stop the load.
        var notes: [String] = []
        /// What to do about schema changes, and the changes this load makes.
        var schemaPolicy = SchemaChangePolicy.warn
        var schemaChanges: [SchemaChange] = []
        var bytesRead: Int64 = 0
        var bytesExpected: Int64?
        var head: HTTPResponseHead?
        var source = ""
        /// When this refresh happened (the catalog's `fetched_at`, the logs' time).
        let refreshedAt = DatasetLoader.now()
        /// Counts what the refresh changed in the main table's rows (nil: not counted).
        var changeTracker: RowChangeTracker?
        /// `--keep-changes`: how many refreshes' row changes the change log keeps (nil: as before).
        var keptChangeRefreshes: Int?
        /// `--history`: keep every version of every row (recorded in the plan for later refreshes).
        var keepsHistory = false

        var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    }
}
