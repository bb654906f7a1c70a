import Dispatch
import Foundation
import SocloadCore

/// What one load has seen so far: the new copy of its table, the rows and bytes read, what the
/// user should know. `Facts` is what a job keeps besides (a Socrata fetch: the view and the
/// response's head); each is read as a property of the state (`state.view`).
@dynamicMemberLookup
package final class LoadState<Facts> {
    package let start = DispatchTime.now().uptimeNanoseconds
    /// The new copy of the table, once begun.
    package var table: TableReplacement?
    package var rowCount = 0
    package var invalidCells: [InvalidCells] = []
    /// Things the user should know that did not stop the load, besides the table's own.
    package var notes: [String] = []
    package var bytesRead: Int64 = 0
    package var bytesExpected: Int64?
    package var source = ""
    package var facts: Facts
    /// When this refresh happened (the catalog's `fetched_at`, the logs' time), and what the
    /// load asked about schema changes, the change log and history.
    package var options: TableReplacement.Options

    package init(_ facts: Facts, schemaPolicy: SchemaChangePolicy = .warn, keptChangeRefreshes: Int? = nil,
                 keepsHistory: Bool = false) {
        self.facts = facts
        options = TableReplacement.Options(refreshedAt: Self.now(), schemaPolicy: schemaPolicy,
                                           keptChangeRefreshes: keptChangeRefreshes, keepsHistory: keepsHistory)
    }

    package subscript<Value>(dynamicMember fact: WritableKeyPath<Facts, Value>) -> Value {
        get { facts[keyPath: fact] }
        set { facts[keyPath: fact] = newValue }
    }

    package var refreshedAt: String { options.refreshedAt }
    package var plan: LoadPlan? { table?.plan }
    /// The writer of the new copy: the table's, or, when a replay is laid over the rows
    /// (restoring a synced version), one that applies it.
    package var writer: (any TableWriter)? {
        guard let table else { return nil }
        guard let replay else { return table.writer }
        if let replaying, replaying.base === table.writer { return replaying }
        replaying = ReplayingTableWriter(base: table.writer, replay: replay)
        return replaying
    }
    /// Later rows laid over the rows read, by key (`KeyedReplay`); set before the rows come.
    package var replay: KeyedReplay?
    private var replaying: ReplayingTableWriter?
    package var schemaChanges: [SchemaChange] { table?.schemaChanges ?? [] }
    /// The table's notes (what it kept, what changed), then the load's.
    package var allNotes: [String] { (table?.notes ?? []) + notes }
    package var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// The refresh log's row for this load, which recorded `entry`.
    package func refreshRecord(_ entry: CatalogEntry, kind: String, seconds: Double? = nil) -> RefreshRecord {
        .of(entry, kind: kind, schemaChanges: schemaChanges.count, rowChanges: table?.changeTracker?.counts,
            seconds: seconds ?? elapsed)
    }

    /// The current time, to the second, as ISO-8601 UTC.
    package static func now() -> String {
        ISO8601Timestamp.nowToTheSecond()
    }
}

extension LoadState where Facts == Void {
    /// The state of a load that keeps no facts of its own.
    package convenience init(schemaPolicy: SchemaChangePolicy = .warn, keptChangeRefreshes: Int? = nil, keepsHistory: Bool = false) {
        self.init((), schemaPolicy: schemaPolicy, keptChangeRefreshes: keptChangeRefreshes, keepsHistory: keepsHistory)
    }
}
