/// A select that names a table or column that is not there.
public enum SelectError: Error, CustomStringConvertible, Sendable, Equatable {
    case unknownTable(String)
    case unknownColumn(String, table: String, columns: [String])
    /// A record's property is a column of a lookup the table references (socload `extract`
    /// moved it there), not of the table: follow it (`following:`) or read the foreign key.
    case columnInLookup(String, table: String, lookup: String, foreignKey: String)
    /// `following:` names a column no lookup of the table has.
    case notInALookup(String, table: String)
    /// `search` on a table without a full-text index.
    case noFullTextIndex(String)

    public var description: String {
        switch self {
        case .unknownTable(let table):
            return "no table '\(table)'"
        case let .unknownColumn(column, table, columns):
            return "no column '\(column)' in \(table); its columns are: \(columns.shortList())"
        case let .columnInLookup(column, table, lookup, foreignKey):
            return "\(column) is not a column of \(table) but of its lookup \(lookup) (\(table).\(foreignKey) references it): "
                + "read it with following: [\"\(column)\"], or decode \(foreignKey)"
        case .noFullTextIndex(let table):
            return "\(table) has no full-text index: fetch or load it again with --fts COLUMN[,COLUMN...]"
        case let .notInALookup(column, table):
            return "following: \(column) is in no lookup of \(table) (no foreign key of \(table) references a table with that column)"
        }
    }
}
