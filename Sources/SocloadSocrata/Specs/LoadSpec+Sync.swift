import SocloadCore

/// When a refresh keeps a table by sync (`--incremental`, `--incremental-above`) rather than
/// reloading it, and when a sync gives way to a whole load. The command line and the library's
/// `Project.refresh` decide alike.
extension LoadSpec {
    /// True when a table that holds `rows` rows (nil: not loaded yet) is synced: with
    /// `incremental`, or past `incrementalAbove` rows. A table not loaded yet is loaded whole.
    ///
    ///     var spec = LoadSpec(source: .dataset("abcd-1234"))
    ///     spec.incrementalAbove = 100_000
    ///     _ = spec.syncs(tableRows: 250_000)   // true
    public func syncs(tableRows rows: Int?) -> Bool {
        guard let rows else { return false }
        return incremental || incrementalAbove.map { rows > $0 } == true
    }

    /// True when a sync failed because it cannot be done — the table's shape changed, it has no
    /// key, or it was not loaded from a portal — so the table is loaded whole instead.
    public static func reloadsWhole(afterSyncFailure error: any Error) -> Bool {
        guard let error = error as? LoadError else { return false }
        switch error {
        case .schemaChanged, .unsupported, .notFetchedFromPortal: return true
        default: return false
        }
    }
}
