/// A loaded table held against what the portal stated about it (`socload verify`).
public struct PortalVerification: Sendable, Equatable {
    public let tableName: String
    /// Why the table is not comparable with the portal's statistics (`--limit`, `--where`, a
    /// sync), or nil.
    public let partialReason: String?
    public let results: [PortalCheckResult]

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
