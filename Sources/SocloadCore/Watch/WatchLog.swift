/// `_socload_watch`: each table's watch (`DatasetWatch`), as the last `refresh` judged it — the
/// row of the latest `checked_at` (since when it is so), a row added when a refresh judges it
/// otherwise — and the times it was judged stale, gone or moved before (the last
/// `keptRows`), so that `socload report` shows a dataset stale, gone or moved, and its feed keeps
/// those entries, from the database alone (a dataset gone leaves no other trace: nothing loads).
///
///     let log = WatchLog(dialect: SQLiteDialect())
///     print(log.createStatement)   // CREATE TABLE IF NOT EXISTS "_socload_watch" (...)
public struct WatchLog {
    public static let tableName = "_socload_watch"
    public let dialect: any SQLDialect

    public init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    /// The columns in order.
    static let columns = ["table_name", "checked_at", "watch", "expect", "expect_seconds", "note", "moved_to"]

    public var createStatement: String {
        "CREATE TABLE IF NOT EXISTS \(dialect.table(Self.tableName)) ("
            + Self.columns.map { "\($0.quotedDatabaseIdentifier) \(dialect.declaredType(.text))" }.joined(separator: ", ") + ")"
    }

    /// Removes a table's rows (a dropped table); bind the table's name.
    public var deleteStatement: String {
        "DELETE FROM \(dialect.table(Self.tableName)) WHERE \("table_name".quotedDatabaseIdentifier) = \(dialect.placeholder(1))"
    }

    /// The rows a table keeps, the current one included.
    public static let keptRows = 30

    /// Records a table's watch judged now (`row`: `arguments(table:checkedAt:watch:)`): its rows
    /// that were fresh or unknown go (no feed entry comes of them), and so does one of the same
    /// second; past `keptRows`, the oldest.
    public func recording(_ row: [String]) -> [(sql: String, arguments: [String])] {
        let table = dialect.table(Self.tableName)
        let (name, checked) = ("table_name".quotedDatabaseIdentifier, "checked_at".quotedDatabaseIdentifier)
        return [
            ("DELETE FROM \(table) WHERE \(name) = \(dialect.placeholder(1)) AND (\("watch".quotedDatabaseIdentifier) IN ('fresh', 'unknown') "
             + "OR \(checked) = \(dialect.placeholder(2)))", [row[0], row[1]]),
            (insertStatement, row),
            ("DELETE FROM \(table) WHERE \(name) = \(dialect.placeholder(1)) AND \(checked) < (SELECT \(checked) FROM \(table) "
             + "WHERE \(name) = \(dialect.placeholder(2)) ORDER BY \(checked) DESC LIMIT 1 OFFSET \(Self.keptRows - 1))", [row[0], row[0]]),
        ]
    }

    /// Each table's rows (`watch(fromRow:)`), the current one last, by lowercased table name.
    public static func byTable(_ rows: [[String?]]) -> [String: [(checkedAt: String, watch: DatasetWatch)]] {
        var tables: [String: [(checkedAt: String, watch: DatasetWatch)]] = [:]
        for row in rows {
            if let found = watch(fromRow: row) { tables[found.table.lowercased(), default: []].append((found.checkedAt, found.watch)) }
        }
        return tables.mapValues { $0.sorted { $0.checkedAt < $1.checkedAt } }
    }

    /// Adds a table's row; bind `arguments(table:checkedAt:watch:)`.
    public var insertStatement: String {
        "INSERT INTO \(dialect.table(Self.tableName)) (\(Self.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) "
            + "VALUES (\((1...Self.columns.count).map(dialect.placeholder).joined(separator: ", ")))"
    }

    /// Every table's row, each column as text.
    public var selectStatement: String {
        "SELECT " + Self.columns.map { dialect.text($0.quotedDatabaseIdentifier) }.joined(separator: ", ")
            + " FROM \(dialect.table(Self.tableName))"
    }

    /// The values of `insertStatement`, as text (how a statement of the user's binds them); ""
    /// for what the watch does not have.
    public static func arguments(table: String, checkedAt: String, watch: DatasetWatch) -> [String] {
        let movedTo = watch.movedTo.isEmpty ? "" : JSONValue.array(watch.movedTo.map(JSONValue.string)).jsonText
        return [table, checkedAt, watch.state.rawValue, watch.expected.map { "\($0.interval.label)\u{1F}\($0.source.rawValue)" } ?? "",
                watch.expected.map { String($0.interval.seconds) } ?? "", watch.note ?? "", movedTo]
    }

    /// A row of `selectStatement`: the table, when it was judged, and its watch (nil: not a row
    /// this version wrote).
    public static func watch(fromRow row: [String?]) -> (table: String, checkedAt: String, watch: DatasetWatch)? {
        guard row.count == columns.count, let table = row[0], let checkedAt = row[1], let state = row[2].flatMap(DatasetWatch.State.init)
        else { return nil }
        var watch = DatasetWatch(state: state, note: row[5].flatMap { $0.isEmpty ? nil : $0 })
        if let expect = row[3]?.split(separator: "\u{1F}", omittingEmptySubsequences: false), expect.count == 2,
           let source = DatasetWatch.Source(rawValue: String(expect[1])), let seconds = row[4].flatMap(Double.init) {
            watch.expected = .init(interval: UpdateInterval(seconds: seconds, label: String(expect[0])), source: source)
        }
        if let moved = row[6], case .array(let ids)? = try? JSONValueParser.parse(Array(moved.utf8)) {
            watch.movedTo = ids.compactMap { if case .string(let id) = $0 { id } else { nil } }
        }
        return (table, checkedAt, watch)
    }
}
