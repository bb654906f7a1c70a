/// The read role: what socload's read commands (`tables`, `schema`, `info`, `verify`, `select`,
/// `query`, `drop`, `recount`) ask of a loaded database, whatever the database. A command takes
/// one path through it; each destination implements it once, beside its write roles. It refines
/// `CatalogReader`, the part every destination has (`LoadDestination` refines that too).
///
/// Names from the user (a table, a dataset id) are looked up as the database compares them;
/// values are always bound.
public protocol LoadedDatabase: CatalogReader {
    /// The statements that make the table as it is now (CREATE TABLE, then its indexes,
    /// constraints and triggers), as the database has them; empty when there is no such table.
    func definition(of table: String) throws -> [String]

    /// The table's columns in order, with the database's types and their place in the key.
    func columns(of table: String) throws -> [TableColumn]

    /// Per column, how many of the table's rows have it set (not NULL).
    func nonNullCounts(of table: String, columns: [String]) throws -> [String: Int]

    /// The table against the portal's statistics recorded with it, and the counts its lookups
    /// keep against its rows; nil when the catalog has no such table.
    func verify(_ tableOrDatasetID: String) throws -> PortalVerification?

    /// The rows the table's refreshes at or after `since` (ISO-8601 UTC, compared as text)
    /// added, removed and changed, in order (`RowChangeLog`); empty when none were logged.
    func rowChanges(of table: String, since: String) throws -> [RecordedRowChange]

    /// Removes a loaded table, the tables it owns and its catalog entry, in one transaction;
    /// the name removed, or nil when the catalog has no such table. A table another table
    /// still needs is refused (`ReadError.inUse`).
    func drop(_ tableOrDatasetID: String) throws -> String?

    /// Makes the counts the table's lookups keep again from its rows, in one transaction; the
    /// counts that had drifted.
    func recount(_ table: PlanTable) throws -> [KeptCountDrift]

    /// The SELECT `socload select` runs, its columns checked against the table; throws
    /// `SelectError` for an unknown table or column.
    func selectStatement(_ request: SelectRequest) throws -> SQLFragment

    /// Runs a statement and streams its result: `columns` gets the names before the first row
    /// (only for a statement that returns rows), then each row goes to `row` as it arrives.
    func read(_ statement: SQLFragment, columns: ([String]) -> Void, row: ([DatabaseValue]) throws -> Void) throws

    /// Runs a read statement and gives each row in place (`ResultRow`): a reader of many rows
    /// makes no `DatabaseValue` of each value. By default, `read`'s values.
    func scan(_ statement: SQLFragment, row: (any ResultRow) throws -> Void) throws

    /// Runs one statement of the user's, in the database's own SQL, with `parameters` bound as
    /// text. Unless `allowingChanges`, a statement that would change the database is refused
    /// (`ReadError.changeRefused`) and nothing changes.
    func runUserStatement(_ sql: String, parameters: UserParameters, allowingChanges: Bool,
                          columns: ([String]) -> Void, row: ([DatabaseValue]) throws -> Void) throws

    /// False when `--contains` cannot ignore accents here (PostgreSQL without unaccent).
    var containsIgnoresAccents: Bool { get }

    /// Cancels the statement running now, from any thread (a signal, a `--timeout`): it fails
    /// soon, and what it was doing rolls back.
    var cancelAction: @Sendable () -> Void { get }
}

extension CatalogReader {
    /// What the catalog records for a table name or a dataset id, with everything recorded
    /// (nil: not loaded by socload).
    public func entry(for tableOrDatasetID: String) throws -> CatalogEntry? {
        try entry(for: tableOrDatasetID, withDescription: true)
    }
}

/// A table of a loaded database, as `socload tables` lists it.
public struct TableSummary: Sendable, Equatable {
    public let name: String
    public let rowCount: Int
    /// The name as SQL must write it (`"5mtp_qs2h"` needs its quotes).
    public let nameInSQL: String

    public init(name: String, rowCount: Int, nameInSQL: String) {
        self.name = name
        self.rowCount = rowCount
        self.nameInSQL = nameInSQL
    }
}

/// One column of a table, as the database has it.
public struct TableColumn: Sendable, Equatable {
    public let name: String
    /// The database's own type name (`INTEGER`, `timestamp with time zone`).
    public let type: String
    public let notNull: Bool
    /// Where the column is in the table's key, from 1; 0 when it is not part of it.
    public let keyPosition: Int

    public init(name: String, type: String, notNull: Bool, keyPosition: Int) {
        self.name = name
        self.type = type
        self.notNull = notNull
        self.keyPosition = keyPosition
    }
}

/// What `socload select` asks for: a table, some of its columns, a condition, an order, a limit.
public struct SelectRequest: Sendable {
    public var table: String
    /// nil: every column.
    public var columns: [String]?
    public var predicate: RowFilter
    /// Column names; a leading `-` sorts descending.
    public var orderBy: [String]
    public var limit: Int?
    /// Columns read from the lookups the table's foreign keys reference, as if the table had
    /// them (after socload `extract`), after the selected ones.
    public var following: [FollowedColumn] = []
    /// Only rows with every one of these words in the table's full-text index (`--fts`),
    /// best matches first unless `orderBy` says otherwise (then the rank breaks ties).
    public var search: FullTextQuery?

    public init(table: String, columns: [String]? = nil, predicate: RowFilter = .all([]), orderBy: [String] = [],
                limit: Int? = nil) {
        self.table = table
        self.columns = columns
        self.predicate = predicate
        self.orderBy = orderBy
        self.limit = limit
    }
}

/// A column of a lookup read beside a table's own: `column` of the `lookup` row whose `key`
/// is the table's `foreignKey`, NULL where there is none.
public struct FollowedColumn: Sendable, Equatable {
    public var column: String
    public var lookup: String
    public var key: String
    public var foreignKey: String

    public init(column: String, lookup: String, key: String, foreignKey: String) {
        self.column = column
        self.lookup = lookup
        self.key = key
        self.foreignKey = foreignKey
    }

    /// The followed columns of a plan table's lookups named `names`; a name no lookup has is
    /// `SelectError.notInALookup`.
    public static func columns(_ names: [String], of table: PlanTable) throws -> [FollowedColumn] {
        try names.map { name in
            for lookup in table.lookups {
                if let column = lookup.columns.first(where: { $0.name.lowercased() == name.lowercased() }) {
                    return FollowedColumn(column: column.name, lookup: lookup.table, key: PlanLookup.keyColumn,
                                          foreignKey: lookup.foreignKey)
                }
            }
            throw SelectError.notInALookup(name, table: table.name)
        }
    }
}

/// The values of a user's statement (`query --param`): in order, and by name where the
/// database takes named placeholders (SQLite's `:name`).
public struct UserParameters: Sendable, Equatable {
    public var positional: [String]
    public var named: [String: String]

    public init(positional: [String] = [], named: [String: String] = [:]) {
        self.positional = positional
        self.named = named
    }
}
