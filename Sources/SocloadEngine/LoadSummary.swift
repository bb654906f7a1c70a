import SocloadCore

/// The outcome of a successful load.
public struct LoadSummary: Sendable, Equatable {
    public var tableName: String
    public var rowCount: Int
    public var columnCount: Int
    public var source: String
    public var elapsed: Double
    public var catalogEntry: CatalogEntry
    /// True when the portal said nothing changed since the last load, so nothing was written.
    public var isUpToDate = false
    /// Per column, the cells that were not of its type and were stored as NULL.
    public var invalidCells: [InvalidCells] = []
    /// Objects the user had built on the old table that could not be rebuilt (skipped).
    public var notes: [String] = []
    /// The child tables loaded beside it (`socload load`), with their row counts.
    public var childTables: [ChildTableCount] = []
    /// How the table's shape changed from the copy it replaced (empty on a first load).
    public var schemaChanges: [SchemaChange] = []
    /// What the load changed in the table's rows against the copy it replaced (nil on a first
    /// load, or where the rows were not counted).
    public var rowChanges: RowChangeCounts?
    /// What `load --mode append|upsert` wrote (nil: the table was replaced, or made).
    public var merged: MergedRows?
    /// The API a load from a portal read its rows through, as people call it (`SODA3`,
    /// `SODA 2.1`, `rows.json`); nil for a file.
    public var readThrough: String?

    public init(tableName: String, rowCount: Int, columnCount: Int, source: String, elapsed: Double,
                catalogEntry: CatalogEntry, isUpToDate: Bool = false, invalidCells: [InvalidCells] = [], notes: [String] = []) {
        (self.tableName, self.rowCount, self.columnCount, self.source) = (tableName, rowCount, columnCount, source)
        (self.elapsed, self.catalogEntry, self.isUpToDate) = (elapsed, catalogEntry, isUpToDate)
        (self.invalidCells, self.notes) = (invalidCells, notes)
    }
}

/// A child table of a load and how many rows it got.
public struct ChildTableCount: Sendable, Equatable {
    public var tableName: String
    public var rowCount: Int

    public init(_ tableName: String, _ rowCount: Int) {
        self.tableName = tableName
        self.rowCount = rowCount
    }
}
