/// Runs the SQL the core writes once for every database (`RowChangeSQL`, the change log) inside
/// a load's transaction: what a destination must offer for a refresh to count and log its row
/// changes. Values are always bound, never spliced into the SQL.
public protocol SQLExecuting: AnyObject {
    var dialect: any SQLDialect { get }
    /// Runs one statement with its bound values.
    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws
    /// The rows of a query, each value as text (NULL as nil).
    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[String?]]
    /// True when the database has a table of that name.
    func tableExists(_ name: String) throws -> Bool
    /// The names of a table's columns, in order (as the database spells them).
    func columnNames(of table: String) throws -> [String]
    /// Drops a table socload made for itself, if it exists (without zeroing its pages where the
    /// database would: they are socload's own, and reused).
    func dropTable(_ name: String) throws
    /// Renames a table socload keeps for itself (no other object's SQL is rewritten).
    func renameTable(_ name: String, to newName: String) throws
    /// Makes a table of socload's own anew with `table`'s columns (its key columns NOT NULL and
    /// compared as the data table's are, no index) and returns a writer that appends batches to it.
    func appendWriter(for table: PlanTable) throws -> any TableWriter
    /// As `appendWriter(for:)`, for a table the load reads and moves (`renameTable`) or drops
    /// before it commits: SQLite makes it TEMP, so making and dropping it leave the file's schema
    /// alone (each CREATE and DROP there scans the whole schema). Defaults to `appendWriter`.
    func scratchWriter(for table: PlanTable) throws -> any TableWriter
}

extension SQLExecuting {
    public func scratchWriter(for table: PlanTable) throws -> any TableWriter {
        try appendWriter(for: table)
    }
}

/// Compares a new copy of a table with the one it replaces, at the moment both exist: called by
/// the destination's table writer once every row is in the new copy, before the old is dropped.
public protocol PreviousCopyComparing: AnyObject {
    /// False when the comparison needs only the fingerprints, not the old rows: a destination
    /// may then drop the old copy at once.
    var needsPreviousCopy: Bool { get }

    /// `newTable` and `oldTable` are relations as the dialect names them (quoted, qualified);
    /// `oldTable` is nil when there was no previous copy, or it could not be kept this long
    /// (then the rows are counted, not logged).
    func compare(newTable: String, oldTable: String?) throws
}
