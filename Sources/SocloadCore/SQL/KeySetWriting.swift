/// The SQL of `sync --deletes`, written once for every database: the keys the portal still has
/// go into a scratch table, then the rows of the table whose key is not among them are counted
/// and deleted. Only how the keys are inserted differs per database.
public struct KeySetWriting {
    public let dialect: any SQLDialect
    public let table: PlanTable
    /// The scratch table's name as the database names it (unqualified: a temporary table).
    public let keysTable: String

    public init(dialect: any SQLDialect, table: PlanTable, keysTable: String) {
        self.dialect = dialect
        self.table = table
        self.keysTable = keysTable
    }

    /// The key columns, in key order.
    public var keyColumns: [PlanColumn] {
        table.primaryKey.compactMap { table.storedColumn(named: $0) }
    }

    public var createStatement: String {
        "CREATE TEMPORARY TABLE \(keysTable.quotedDatabaseIdentifier) ("
            + keyColumns.map { "\($0.name.quotedDatabaseIdentifier) \(dialect.declaredType($0.type))" }.joined(separator: ", ") + ")"
    }

    /// Built after the keys are in, before they are compared.
    public var indexStatement: String {
        "CREATE INDEX \(LoadPlan.shortenedName(keysTable + "_key", toBytes: 63).quotedDatabaseIdentifier) ON "
            + "\(keysTable.quotedDatabaseIdentifier) (\(keyColumns.map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")))"
    }

    /// True for a row of the table whose key is not in the set (the rows `deleteStatement` deletes).
    /// A distributed table (Citus, which takes no correlated subquery over a local table from
    /// it): the key compared with the set by NOT IN, the key columns being NOT NULL.
    public var missing: String {
        let target = dialect.table(table.name)
        if table.distributionColumn != nil {
            let list = keyColumns.map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")
            let own = keyColumns.map { "\(target).\($0.name.quotedDatabaseIdentifier)" }.joined(separator: ", ")
            return "(\(own)) NOT IN (SELECT \(list) FROM \(keysTable.quotedDatabaseIdentifier))"
        }
        let matches = keyColumns.map { column -> String in
            let name = column.name.quotedDatabaseIdentifier
            return "\(keysTable.quotedDatabaseIdentifier).\(name) = \(target).\(name)"
        }.joined(separator: " AND ")
        return "NOT EXISTS (SELECT 1 FROM \(keysTable.quotedDatabaseIdentifier) WHERE \(matches))"
    }

    /// How many rows of the table have a key the portal no longer lists.
    public var countStatement: String {
        "SELECT count(*) FROM \(dialect.table(table.name)) WHERE \(missing)"
    }

    public var deleteStatement: String {
        "DELETE FROM \(dialect.table(table.name)) WHERE \(missing)"
    }

    public var dropStatement: String {
        "DROP TABLE IF EXISTS \(keysTable.quotedDatabaseIdentifier)"
    }
}

/// The most rows `sync --deletes` may delete (`--max-deletes N` or `P%` of the table's rows).
public enum DeletionLimit: Sendable, Equatable {
    case rows(Int)
    case percent(Double)

    /// `500` or `5%`; nil for anything else.
    public init?(argument: String) {
        if argument.hasSuffix("%"), let percent = Double(argument.dropLast()), percent >= 0, percent <= 100 {
            self = .percent(percent)
        } else if let rows = Int(argument), rows >= 0 {
            self = .rows(rows)
        } else {
            return nil
        }
    }

    /// The most rows of a table of `rowCount` rows.
    public func maximum(of rowCount: Int) -> Int {
        switch self {
        case .rows(let rows): return rows
        case .percent(let percent): return Int((Double(rowCount) * percent / 100).rounded(.down))
        }
    }
}
