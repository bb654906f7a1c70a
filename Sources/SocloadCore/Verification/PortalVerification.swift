/// A loaded table held against what the portal stated about it (`socload verify`).
public struct PortalVerification: Sendable, Equatable {
    public let tableName: String
    /// Why the table is not comparable with the portal's statistics (`--limit`, `--where`, a
    /// sync), or nil.
    public let partialReason: String?
    public let results: [PortalCheckResult]
    /// The counts kept on the table's lookups that no longer match its rows.
    public var driftedCounts: [KeptCountDrift] = []
    /// False for a table loaded without the portal's description (a plain NDJSON or CSV file):
    /// there was nothing stated to hold it against.
    public var hasPortalDescription = true

    public init(tableName: String, partialReason: String?, results: [PortalCheckResult]) {
        self.tableName = tableName
        self.partialReason = partialReason
        self.results = results
    }

    /// The checks the table failed.
    public var differences: [PortalCheckResult] { results.filter { !$0.agrees } }

    /// One line per difference: `ward non_null: the portal says 1344, the table has 1343`.
    public var differenceLines: [String] {
        differences.map { result in
            "\(result.check.columns.joined(separator: ",")) \(result.check.statement.rawValue): "
                + "the portal says \(result.check.stated), the table has \(result.measured)"
        }
    }
}

/// A count a lookup keeps for a table (`agency.t_count`, `agency.name_count`) that no longer
/// matches the table's rows on `rows` lookup rows: a write the triggers did not see (another
/// client's `INSERT OR REPLACE` without `recursive_triggers`, say). `socload recount` repairs it.
public struct KeptCountDrift: Sendable, Equatable {
    public let lookupTable: String
    public let countColumn: String
    public let rows: Int

    public init(lookupTable: String, countColumn: String, rows: Int) {
        self.lookupTable = lookupTable
        self.countColumn = countColumn
        self.rows = rows
    }
}
