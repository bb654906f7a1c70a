import Foundation
import SocloadCore
import SocloadSocrata

/// One read connection to the catalog for a whole batch (`refresh`, `fetch A B C`), shared by
/// its jobs one at a time: a dataset looks up its table's last load without opening a
/// connection of its own (on SQLite each new connection reads the whole schema first, which at
/// a thousand datasets costs more than the lookup) and without the writer's turn.
final class CatalogReader: @unchecked Sendable {
    private let database: DatabaseOptions
    private let context: CommandContext
    private let lock = NSLock()
    private var opened: (any LoadedDatabase)?
    private var unavailable = false

    init(database: DatabaseOptions, context: CommandContext) {
        self.database = database
        self.context = context
    }

    /// The catalog entry of a table (nil when there is none, or no database yet).
    func entry(for table: String) -> CatalogEntry? {
        lock.withLock {
            if opened == nil, !unavailable {
                opened = try? database.openLoaded(context, command: FetchCommand.spec, watched: false)
                unavailable = opened == nil
            }
            return try? opened?.entry(for: table, withDescription: false)
        }
    }

    /// The entry of the table `request` would refresh, when it was loaded by the same request
    /// from the same place (`DatasetLoader.previousEntry`); nil with `--force`.
    func previousEntry(for request: LoadRequest) -> CatalogEntry? {
        try? DatasetLoader.previousEntry(for: request) { entry(for: $0) }
    }
}
