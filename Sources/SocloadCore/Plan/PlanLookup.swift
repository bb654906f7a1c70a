/// A lookup table that columns of a plan table are extracted into (`socload extract`,
/// `fetch --extract`): each distinct value of the columns is one row of the lookup, found or
/// created by value, and the table keeps only a foreign key to it. Named as sqlite-utils names
/// it: the lookup's key is `id`, its value columns keep their names, the foreign key is
/// `<lookup>_id`; `--count` keeps `<table>_count` on each lookup row, `--count-distinct OTHER`
/// keeps `<OTHER>_count`.
///
/// The plan table's `columns` stay the columns rows arrive in; `storedColumns` is what the
/// destination's table holds once the lookups are applied.
public struct PlanLookup: Sendable, Codable, Equatable {
    /// The lookup table.
    public var table: String
    /// The value columns, with their names and types in the source table (unique together).
    public var columns: [PlanColumn]
    /// The source table's column that replaces them, at the place of the first of them.
    public var foreignKey: String
    /// The lookup column that counts the source rows referencing each lookup row, if kept.
    public var countColumn: String?
    /// The lookup columns that count distinct values of other source columns, if kept.
    public var distinctCounts: [PlanDistinctCount]
    /// Lookup rows no source row references any more are deleted (else they stay, ids stable).
    public var prune: Bool

    public init(table: String, columns: [PlanColumn], foreignKey: String, countColumn: String? = nil,
                distinctCounts: [PlanDistinctCount] = [], prune: Bool = false) {
        self.table = table
        self.columns = columns
        self.foreignKey = foreignKey
        self.countColumn = countColumn
        self.distinctCounts = distinctCounts
        self.prune = prune
    }

    /// The lookup's key column.
    public static let keyColumn = "id"

    /// The value column names.
    public var valueColumns: [String] { columns.map(\.name) }

    /// True when the lookup keeps any count.
    public var keepsCounts: Bool { countColumn != nil || !distinctCounts.isEmpty }
}

/// A count of the distinct non-NULL values of a source column per lookup row.
public struct PlanDistinctCount: Sendable, Codable, Equatable {
    /// The source table's column counted (the foreign key, when that column was itself extracted).
    public var sourceColumn: String
    /// The lookup's column holding the count.
    public var countColumn: String

    public init(sourceColumn: String, countColumn: String) {
        self.sourceColumn = sourceColumn
        self.countColumn = countColumn
    }
}
