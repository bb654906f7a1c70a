/// What the SQL both databases share needs to know about the one it is written for. The
/// statements themselves (verify's measurements, the non-NULL counts, `select`'s skeleton) are
/// written once in the core against it; only what truly differs is said here.
public protocol SQLDialect: Sendable {
    /// A table as this database's SQL names it: quoted, and in PostgreSQL qualified by the
    /// schema (a name longer than the database keeps, as the load shortened it).
    func table(_ name: String) -> String

    /// The placeholder of the `position`-th bound value, from 1: `?` or `$1`.
    func placeholder(_ position: Int) -> String

    /// A column (quoted) as its min() and max() compare and read, for a column of `type`: in
    /// PostgreSQL booleans as integers and instants as ISO-8601 text; in SQLite as stored.
    func measured(_ column: String, type: LogicalType) -> String

    /// A column (quoted) as it is compared with a bound value given as text or a number.
    func comparable(_ column: String) -> String

    /// An expression as the text the caller reads back (PostgreSQL casts; SQLite's values are
    /// read as they are).
    func text(_ expression: String) -> String

    /// A literal of a column of `type` that stands for NULL where several columns are matched
    /// as one value (NULLs not distinct).
    func nullStandIn(_ type: LogicalType) -> String

    /// The longest name the database keeps, in UTF-8 bytes (nil: any length); socload's own
    /// object names are shortened to it as the plan's names are.
    var maximumNameBytes: Int? { get }

    /// How the database declares a column of the logical type.
    func declaredType(_ type: LogicalType) -> String

    /// The type of a small flag column socload keeps (0 or 1, NOT NULL DEFAULT 0).
    var flagType: String { get }

    /// True when the database compares table and column names ignoring case (SQLite).
    var namesIgnoreCase: Bool { get }

    /// A column (quoted) as text matching reads it, folded as `options` ask (no options: the
    /// column's text as stored).
    func folded(_ column: String, _ options: TextFolding.Options) -> String

    /// Where `needle` first starts in `text`, from 1; 0 when it does not occur.
    func position(of needle: String, in text: String) -> String

    /// The last `length` characters of `text` (`length` a bound positive integer).
    func suffix(of text: String, length: String) -> String

    /// A JSON object (as text) of `members`: each a name and a column expression, any number of
    /// them (the databases limit a function's arguments; long lists are joined in pieces).
    func jsonObject(_ members: [(name: String, value: String)]) -> String

    /// A column's value as a `jsonObject` member should hold it, so that both databases write
    /// the same text for the same value (PostgreSQL's JSON writes a UTC instant `+00:00`,
    /// SQLite keeps the `Z` it stores).
    func jsonValue(_ expression: String, type: LogicalType) -> String

    /// The expression that numbers the rows of a new table in insertion order, for `alias`
    /// (SQLite's `rowid`); nil where rows have no such number (PostgreSQL: found by key).
    func insertionOrder(of alias: String) -> String?

    /// True when a join of two large tables needs an index on one side to be fast (SQLite joins
    /// by nested loops; PostgreSQL hashes).
    var joinsThroughIndexes: Bool { get }

    /// Makes a column text, its values kept as text (a history column whose source was
    /// retyped upstream); nil where a column takes any value anyway (SQLite).
    func columnToTextStatement(table: String, column: String) -> String?

    /// `select --search`: how the rows of `table` (its name unquoted) that have every word of
    /// `query` are found and ranked, the words bound at `placeholder` (`PlanFullText`).
    func fullTextSearch(table: String, query: FullTextQuery, placeholder: Int) -> FullTextClause

    /// True when `table` (whose columns are `columns`) has the full-text index `--fts` builds;
    /// `columnsOf` reads another relation's columns (empty: none).
    func hasFullTextIndex(table: String, columns: [String], columnsOf: (String) throws -> [String]) throws -> Bool

    /// A column of the index's own that `SELECT *` leaves out (PostgreSQL's `_search`).
    var fullTextColumn: String? { get }
}

extension SQLDialect {
    /// The value as the column holds it.
    public func jsonValue(_ expression: String, type: LogicalType) -> String { expression }

    /// `ALTER TABLE ... ADD COLUMN` of a column of the logical type (NULL in every row there).
    public func addColumnStatement(table: String, column: String, type: LogicalType) -> String {
        "ALTER TABLE \(self.table(table)) ADD COLUMN \(column.quotedDatabaseIdentifier) \(declaredType(type))"
    }

    /// A name as the database keeps it: shortened deterministically past `maximumNameBytes`.
    public func kept(_ name: String) -> String {
        maximumNameBytes.map { LoadPlan.shortenedName(name, toBytes: $0) } ?? name
    }
}
