import Foundation
import SocloadCore

/// The step every job that makes a new copy of a table begins with, written once: the plan is
/// settled against the table's last load (the lookups, `--index` indexes, full-text index, `--pk`
/// key and distribution earlier loads made are kept while their columns exist; with `evolve` the
/// old columns are kept too), the schema changes are governed (`--on-schema-change`), the table
/// claims are checked, and the new copy is started, with its row changes counted against the old
/// one where the destination runs SQL. Nothing is written to the old copy.
public final class TableReplacement {
    /// What the load asked about schema changes, the change log and history.
    public struct Options: Sendable {
        /// When this refresh happens (the change log's and the catalog's time).
        public var refreshedAt: String
        public var schemaPolicy: SchemaChangePolicy
        /// `--keep-changes` (nil: as the last load kept them, else the default).
        public var keptChangeRefreshes: Int?
        /// `--history`: keep every version of every row (kept for later refreshes in the plan).
        public var keepsHistory: Bool
        /// A refresh that may write only the rows that changed into the table as it is
        /// (`InPlaceRefresh`), when the table allows it; false for `--force`, which writes a whole
        /// new copy, and for a load cut short.
        public var refreshesInPlace = false

        public init(refreshedAt: String, schemaPolicy: SchemaChangePolicy = .warn, keptChangeRefreshes: Int? = nil,
                    keepsHistory: Bool = false) {
            self.refreshedAt = refreshedAt
            self.schemaPolicy = schemaPolicy
            self.keptChangeRefreshes = keptChangeRefreshes
            self.keepsHistory = keepsHistory
        }
    }

    /// The plan the new copy is written by (what the catalog records).
    public let plan: LoadPlan
    /// Takes the main table's rows: made from `plan`, or from the plan the rows arrive in and
    /// reshaped (`rowsFollowThePlan` false).
    public let writer: any TableWriter
    /// How the table's shape changes from its last load (empty on a first load).
    public let schemaChanges: [SchemaChange]
    /// Counts what the refresh changes in the main table's rows (nil: not counted).
    public let changeTracker: (any RowChangeCounting)?
    /// Things the user should know that did not stop the load (an index not rebuilt, a change).
    public let notes: [String]
    /// The plan of the table's last load (nil: a first load, or another dataset's table).
    public let previousPlan: LoadPlan?

    /// Begins the new copy of `plan`'s main table. `columns` are the source's column metadata
    /// (what schema changes are said against); `rowsFollowThePlan`: the rows will be made from
    /// the settled `plan` (documents), else they arrive made from `plan` as given and are
    /// reshaped when settling changed its columns.
    public init(_ plan: LoadPlan, columns: [ColumnMetadata], options: Options, capabilities: DestinationCapabilities,
                transaction: any LoadTransaction, rowsFollowThePlan: Bool = false) throws {
        let previousEntry = try transaction.catalog.entry(for: plan.mainTable.name, withDescription: false)
        let previous = previousEntry.flatMap { $0.tableName.lowercased() == plan.mainTable.name.lowercased() ? $0.plan : nil }
        var settled = plan
        var notes: [String] = []
        // evolve: the table keeps its columns; what changed about them is said as kept.
        var keptColumns: [SchemaChange]?
        if options.schemaPolicy == .evolve, let previousEntry, let previous {
            let changes = settled.schemaChanges(from: previous, previousColumns: previousEntry.columns, columns: columns)
                .filter(\.isAboutAColumn)
            keptColumns = changes.filter { !settled.isAlreadyKept($0, in: previous) }
            settled = settled.evolved(keepingColumnsOf: previous, changes: changes)
        }
        try transaction.catalog.checkLookupNames(of: settled.mainTable)
        try TableClaims.check(settled, previous: previous, transaction: transaction)
        if let previous { try Self.keepExtractions(of: previous, in: &settled, notes: &notes) }
        if let limit = capabilities.maximumNameBytes { settled = settled.withNamesShortened(toBytes: limit) }
        try capabilities.columnLimit?.check(settled)
        if let previous { try Self.keepWhatWasBuilt(on: previous, in: &settled, notes: &notes) }
        let changes: [SchemaChange]
        if let keptColumns {
            let others = try Self.governedChanges(of: settled, previous: previousEntry, columns: columns, policy: .warn)
                .filter { !$0.isAboutAColumn }
            changes = keptColumns + others
            notes += changes.map { "\($0.table): \($0.evolvedLine)" }
        } else {
            changes = try Self.governedChanges(of: settled, previous: previousEntry, columns: columns, policy: options.schemaPolicy)
            notes += changes.map { "\($0.table): \($0.line)" }
        }
        // A renamed column's values keep the fingerprint they had: a rename alone changes no row.
        if let previous { settled = settled.keepingFingerprintNames(of: previous, changes: changes) }
        let (writer, tracker) = try Self.startCopy(&settled, previous: previous, options: options, transaction: transaction)
        if let tracker = tracker as? RowChangeTracker, !tracker.comparesRows {
            let key = settled.mainTable.primaryKey
            notes.append("\(settled.mainTable.name): its key\(key.isEmpty ? "" : " (" + key.joined(separator: ", ") + ")") is not the "
                         + "previous copy's (other columns or types), so its rows were not compared with it: no change is counted or "
                         + "logged" + (settled.options?.keepsHistory == true ? ", and every row begins a new version in its history" : ""))
        }
        if !rowsFollowThePlan, let sources = ReshapingTableWriter.sources(for: settled.mainTable, arriving: plan.mainTable) {
            self.writer = ReshapingTableWriter(base: writer, sources: sources)
        } else {
            self.writer = writer
        }
        self.plan = settled
        self.schemaChanges = changes
        self.changeTracker = tracker
        self.notes = notes
        self.previousPlan = previous
    }

    /// The changes from the table's recorded plan to `plan`: with `fail` the load stops
    /// (nothing changed, exit 65); with `warn` each change becomes a note and is logged when the
    /// load commits. No previous plan: a first load, nothing to compare.
    static func governedChanges(of plan: LoadPlan, previous: CatalogEntry?, columns: [ColumnMetadata],
                                policy: SchemaChangePolicy) throws -> [SchemaChange] {
        guard let previous, previous.tableName.lowercased() == plan.mainTable.name.lowercased(),
              let previousPlan = previous.plan else { return [] }
        let changes = plan.schemaChanges(from: previousPlan, previousColumns: previous.columns, columns: columns)
        if policy == .fail, !changes.isEmpty {
            throw LoadError.schemaChanged(table: plan.mainTable.name, differences: changes.map(\.line))
        }
        return changes
    }
}
