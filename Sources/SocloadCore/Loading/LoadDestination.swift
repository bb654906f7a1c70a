/// Where a load writes, split by role so a new database is a few small types: the transaction
/// (`LoadDestination`, `LoadTransaction`), writing a plan's table (`TableWriter`), upserting for
/// sync (`RowUpserter`), and the catalog (`CatalogStore`). None of them sees JSON or Socrata:
/// they get a `LoadPlan` and `RowBatch`es of converted values. The write role refines the read
/// role's catalog part (`CatalogReader`): a destination says what it has loaded.
public protocol LoadDestination: CatalogReader {
    /// Runs one load as ONE transaction: committed when `body` returns, rolled back when it
    /// throws, so a failed load leaves the previous tables exactly as they were.
    func performLoad<T>(_ body: (any LoadTransaction) throws -> T) throws -> T

    /// Stops what the destination is doing now, from any thread: a statement that runs or a wait
    /// for a lock fails soon, so a cancelled load does not wait for it to end. The load then rolls
    /// back as for any failure.
    func interrupt()

    /// Lets the destination work again after `interrupt()` (called when the load has ended).
    func resumeAfterInterrupt()

    /// What the destination can do and hold (`DestinationCapabilities`): the values it stores,
    /// its name length and column limit, one writer or many, distribution, full-text search.
    var capabilities: DestinationCapabilities { get }
}

/// The most columns a destination's table holds.
public struct ColumnLimit: Sendable, Equatable {
    public let maximum: Int
    /// The database, for the message: `SQLite`, `PostgreSQL`.
    public let database: String
    /// True when each location or point column also gets a geometry column.
    public let addsGeometryColumns: Bool

    public init(maximum: Int, database: String, addsGeometryColumns: Bool = false) {
        self.maximum = maximum
        self.database = database
        self.addsGeometryColumns = addsGeometryColumns
    }

    /// The columns `table` becomes in the database.
    public func columnCount(of table: PlanTable) -> Int {
        let geometries = addsGeometryColumns ? table.columns.filter { column in
            switch column.source {
            case .part(_, .locationLatitude, _), .part(_, .pointGeometry, _): return true
            default: return column.type == .geometry
            }
        }.count : 0
        return table.storedColumns.count + geometries
    }

    /// Throws `LoadError.tooManyColumns` for the first table of `plan` with more than `maximum`.
    public func check(_ plan: LoadPlan) throws {
        for table in plan.tables {
            let count = columnCount(of: table)
            if count > maximum { throw LoadError.tooManyColumns(table: table.name, count: count, maximum: maximum, database: database) }
        }
    }
}

extension LoadDestination {
    /// Nothing to stop: the load notices the cancellation between batches.
    public func interrupt() {}
    public func resumeAfterInterrupt() {}

    /// Any value, any name, one writer at a time: what a destination that says nothing gets.
    public var capabilities: DestinationCapabilities { DestinationCapabilities(storableValues: .anything, writers: .one) }

    /// What the destination can store, where that is less than the converter produces: cells
    /// beyond it are treated as not of their column's type.
    public var storableValues: StorableValues { capabilities.storableValues }

    /// The longest table, column or index name the destination takes, in UTF-8 bytes (nil: any
    /// length). Longer names in a plan are shortened deterministically before the load.
    public var maximumNameBytes: Int? { capabilities.maximumNameBytes }

    /// The most columns a table may have here, and how many a plan table becomes (a destination
    /// may add columns of its own, such as PostGIS geometries): a plan with more is refused
    /// before anything is allocated per column.
    public var columnLimit: ColumnLimit? { capabilities.columnLimit }
}

/// The operations of one load, all inside its transaction.
public protocol LoadTransaction: AnyObject {
    /// socload's record of what it loaded.
    var catalog: any CatalogStore { get }

    /// Waits until no other load is writing socload's shared tables (the catalog, the change
    /// log), and keeps them to this load until its transaction ends. A load calls it before its
    /// last steps, so that loads side by side on a database of several writers (PostgreSQL)
    /// never both create or rewrite those tables; a database of one writer has nothing to wait for.
    func reserveSharedTables() throws

    /// Runs `body` so that, if it throws, everything it wrote is undone while the load's
    /// transaction goes on: a failed page is retried alone.
    func withSavepoint<T>(_ body: () throws -> T) throws -> T

    /// Starts a new copy of a plan table; it replaces the old one (if any) in this transaction.
    /// `previous` is the table's plan from the last load, which tells socload's own objects
    /// (keys, `--index` indexes) apart from the user's.
    func replaceTable(_ table: PlanTable, previous: PlanTable?) throws -> any TableWriter

    /// `replaceTable(_:previous:)`, keeping the old copy until the new one is complete so that
    /// `comparison` can compare the two (`RowChangeTracker`) before the old one goes.
    func replaceTable(_ table: PlanTable, previous: PlanTable?, comparison: (any PreviousCopyComparing)?) throws -> any TableWriter

    /// The SQL the core writes once, run in this transaction; nil where the destination is no
    /// SQL database (then a refresh does not count its row changes).
    var sql: (any SQLExecuting)? { get }

    /// Starts a new copy of a table from its own rows as they are now, in the shape of `table`
    /// (one more lookup than `previous`, the plan it was loaded with): what `extract` does.
    func rebuildTable(_ table: PlanTable, previous: PlanTable) throws -> any TableWriter

    /// Starts upserting one side's links into a glue table (`PlanTable.glue`), made when missing;
    /// `finish` withdraws this side's earlier links, upserts the new ones and says what it met.
    func glueWriter(for table: PlanTable) throws -> any TableWriter

    /// `glueWriter(for:)` for an append or upsert of some of the side's rows: only the links of
    /// the rows whose keys `keys` noted are withdrawn.
    func glueWriter(for table: PlanTable, onlyFor keys: NotedKeys) throws -> any TableWriter

    /// Drops a table socload made for an earlier load and no longer does (a child table whose
    /// field is gone), if it exists.
    func dropTable(_ name: String) throws

    /// True when the database has a table of that name (compared as the destination compares names).
    func tableExists(_ name: String) throws -> Bool

    /// Upserts rows into an existing table by its key.
    func upserter(for table: PlanTable) throws -> any RowUpserter
}

extension LoadTransaction {
    /// One writer at a time: nothing to wait for.
    public func reserveSharedTables() throws {}

    /// No comparison: the old copy goes as the destination always did.
    public func replaceTable(_ table: PlanTable, previous: PlanTable?, comparison: (any PreviousCopyComparing)?) throws -> any TableWriter {
        try replaceTable(table, previous: previous)
    }

    public var sql: (any SQLExecuting)? { nil }

    /// A destination that does not say otherwise cannot withdraw some rows' links only.
    public func glueWriter(for table: PlanTable, onlyFor keys: NotedKeys) throws -> any TableWriter {
        throw LoadError.unsupported("this destination does not append or upsert into the glue table \(table.name)")
    }
}

/// Writes the rows of one new table, then builds what the plan asks for.
public protocol TableWriter: AnyObject {
    /// Inserts every row of a batch, in order, values in the plan's column order.
    func insert(_ batch: RowBatch) throws

    /// After the last row: builds the key (a duplicate key is `LoadError.duplicateKey`) and the
    /// plan's indexes, then recreates the objects the user had built on the old table. One that
    /// cannot be rebuilt is skipped and described in the returned notes, or, when `strict`,
    /// fails the load.
    func finish(strict: Bool) throws -> [String]
}

/// Inserts or updates rows by the table's key (sync).
public protocol RowUpserter: AnyObject {
    /// Upserts every row of the batch; returns how many of them were new.
    func upsert(_ batch: RowBatch) throws -> Int
    /// The largest value of a column (where an incremental sync starts), as text.
    func largestValue(of column: String) throws -> String?
    func rowCount() throws -> Int
    /// Builds one more index on the table, unless one of that name exists.
    func addIndex(_ index: PlanIndex) throws
    /// After the last batch: what the table's lookups need (counts made again, pruning).
    func finish() throws
    /// `sync --deletes`: starts the set of the keys the portal still has.
    func beginKeySet() throws
    /// Adds the keys in a batch of the key columns (in key order).
    func addKeys(_ batch: RowBatch) throws
    /// How many rows have a key not in the set (`deleteRowsOutsideKeySet` would delete them).
    func countRowsOutsideKeySet() throws -> Int
    /// Deletes the rows whose key is not in the set, and the set; returns how many went.
    func deleteRowsOutsideKeySet() throws -> Int
    /// The key set's table (`KeySetWriting.keysTable`), once begun; nil where there is none.
    var keySetTable: String? { get }
}

extension RowUpserter {
    public var keySetTable: String? { nil }
}

/// The catalog: one entry per loaded table.
public protocol CatalogStore: AnyObject {
    /// The entry for a table name (compared as the destination compares names) or a dataset id;
    /// without its `datasetDescription` (nil) unless `withDescription`: a load that only compares
    /// with the previous entry does not hold a long description twice.
    func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry?
    /// Records (or replaces) a table's entry.
    func record(_ entry: CatalogEntry) throws
    /// The plans of every entry (those recorded by an older socload have none).
    func recordedPlans() throws -> [LoadPlan]
    /// The plans that claim one of `names` (compared lowercased) as a table of theirs — their
    /// own, a child or glue table, a lookup, SQLite's full-text table (`TableNameIndex`): what a
    /// load can clash with, found by name rather than by reading every plan.
    func plans(claiming names: Set<String>) throws -> [LoadPlan]
    /// Appends a refresh's schema changes to the log (`SchemaChangeLog`), in order.
    func recordSchemaChanges(_ changes: [SchemaChange], at time: String) throws
    /// A table's logged schema changes, oldest first (empty when there is no log yet).
    func schemaChanges(of table: String) throws -> [RecordedSchemaChange]
    /// Appends a load's row to the refresh log (`RefreshLog`).
    func recordRefresh(_ record: RefreshRecord) throws
    /// A table's refreshes, oldest first (empty when there is no log yet).
    func refreshes(of table: String) throws -> [RefreshRecord]
}

extension CatalogStore {
    /// Every plan, filtered: for a store without an index of names.
    public func plans(claiming names: Set<String>) throws -> [LoadPlan] {
        try plansReadingEveryPlan(claiming: names)
    }

    /// The plans that claim one of `names`, found by reading every plan: what a store does without
    /// an index of names, or with one it cannot trust (a catalog an older release wrote).
    public func plansReadingEveryPlan(claiming names: Set<String>) throws -> [LoadPlan] {
        try recordedPlans().filter { !TableNameIndex.names(claimedBy: $0).isDisjoint(with: names) }
    }

    /// The entry for a table name (compared as the destination compares names) or a dataset id,
    /// with everything recorded.
    public func entry(for tableOrDatasetID: String) throws -> CatalogEntry? {
        try entry(for: tableOrDatasetID, withDescription: true)
    }

    /// The plan table of that name: a loaded table, or a child or glue table a load made beside
    /// one (`socload load`). Its logical types are what `schema` and `select` read.
    public func planTable(named name: String) throws -> PlanTable? {
        if let entry = try entry(for: name, withDescription: false), entry.tableName.lowercased() == name.lowercased(), let plan = entry.plan {
            return plan.mainTable
        }
        let tables = try plans(claiming: [name.lowercased()]).flatMap(\.tables)
        return tables.first { $0.name == name } ?? tables.first { $0.name.lowercased() == name.lowercased() }
    }
}
