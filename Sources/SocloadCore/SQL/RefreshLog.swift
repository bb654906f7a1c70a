/// `_socload_refreshes`: one row per load, refresh or sync of a table, in the same transaction:
/// when, how (`fetch`, `load`, `sync`), from where, the portal's version stamps, the rows after
/// it, the schema changes it made, what sync upserted and deleted, and how long it took.
/// Written once for every database against its dialect; `socload info TABLE --refreshes` reads it.
public struct RefreshRecord: Sendable, Equatable, Codable {
    public var table: String
    public var refreshedAt: String
    public var kind: String
    public var source: String
    public var rowsUpdatedAt: String?
    public var etag: String?
    public var rowCount: Int
    public var schemaChanges: Int
    public var inserted: Int?
    public var updated: Int?
    public var deleted: Int?
    /// Rows a refresh compared and found the same (nil: not counted).
    public var unchanged: Int?
    /// Rows that came back under new keys when the publisher re-issued the dataset.
    public var reissued: Int?
    public var seconds: Double
    /// The API a load from a portal read through (`rows`, `soda2`, `soda3`; nil: a file).
    public var api: String?
    /// What the portal said beside the data during the load (deprecations, sunsets, warnings),
    /// each once, as `PortalNotice` describes it; kept even when not printed.
    public var notices: [String] = []

    public init(table: String, refreshedAt: String, kind: String, source: String, rowsUpdatedAt: String? = nil,
                etag: String? = nil, rowCount: Int, schemaChanges: Int = 0, inserted: Int? = nil, updated: Int? = nil,
                deleted: Int? = nil, unchanged: Int? = nil, reissued: Int? = nil, seconds: Double) {
        self.table = table
        self.refreshedAt = refreshedAt
        self.kind = kind
        self.source = source
        self.rowsUpdatedAt = rowsUpdatedAt
        self.etag = etag
        self.rowCount = rowCount
        self.schemaChanges = schemaChanges
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.unchanged = unchanged
        self.reissued = reissued
        self.seconds = seconds
    }
}

public struct RefreshLog {
    public static let tableName = "_socload_refreshes"
    public let dialect: any SQLDialect

    public init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    /// The columns in order, with their logical types.
    static let columns: [(String, LogicalType)] = [
        ("table_name", .text), ("refreshed_at", .text), ("kind", .text), ("source", .text), ("rows_updated_at", .text),
        ("etag", .text), ("row_count", .integer), ("schema_changes", .integer), ("inserted", .integer), ("updated", .integer),
        ("deleted", .integer), ("seconds", .double), ("unchanged", .integer), ("reissued", .integer), ("api", .text),
        ("notices", .text),
    ]

    /// The columns added after the log's first version, which a migration adds to an older log.
    public static let laterColumns: [(String, LogicalType)] = Array(columns.suffix(4))

    public var createStatement: String {
        "CREATE TABLE IF NOT EXISTS \(dialect.table(Self.tableName)) ("
            + Self.columns.map { "\($0.0.quotedDatabaseIdentifier) \(dialect.declaredType($0.1))" }.joined(separator: ", ") + ")"
    }

    public var insertStatement: String {
        "INSERT INTO \(dialect.table(Self.tableName)) (\(Self.columns.map(\.0.quotedDatabaseIdentifier).joined(separator: ", "))) "
            + "VALUES (\((1...Self.columns.count).map(dialect.placeholder).joined(separator: ", ")))"
    }

    public func arguments(for record: RefreshRecord) -> [DatabaseValue] {
        func text(_ value: String?) -> DatabaseValue { value.map(DatabaseValue.text) ?? .null }
        func integer(_ value: Int?) -> DatabaseValue { value.map { .integer(Int64($0)) } ?? .null }
        return [.text(record.table), .text(record.refreshedAt), .text(record.kind), .text(record.source), text(record.rowsUpdatedAt),
                text(record.etag), integer(record.rowCount), integer(record.schemaChanges), integer(record.inserted),
                integer(record.updated), integer(record.deleted), .real(record.seconds), integer(record.unchanged),
                integer(record.reissued), text(record.api),
                record.notices.isEmpty ? .null : .text(JSONValue.array(record.notices.map(JSONValue.string)).jsonText)]
    }

    /// A table's refreshes, oldest first (each column read back as text); bind the table's name.
    public var selectStatement: String {
        let name = dialect.namesIgnoreCase ? "lower(\"table_name\") = lower(\(dialect.placeholder(1)))"
            : "\"table_name\" = \(dialect.placeholder(1))"
        return "SELECT " + Self.columns.map { dialect.text($0.0.quotedDatabaseIdentifier) }.joined(separator: ", ")
            + " FROM \(dialect.table(Self.tableName)) WHERE \(name) ORDER BY \"refreshed_at\""
    }

    /// A row of `selectStatement`, as text (NULL as nil).
    public static func record(fromRow row: [String?]) -> RefreshRecord? {
        guard row.count == columns.count, let table = row[0], let time = row[1], let kind = row[2], let source = row[3] else { return nil }
        var record = RefreshRecord(table: table, refreshedAt: time, kind: kind, source: source, rowsUpdatedAt: row[4], etag: row[5],
                                   rowCount: row[6].flatMap { Int($0) } ?? 0, schemaChanges: row[7].flatMap { Int($0) } ?? 0,
                                   inserted: row[8].flatMap { Int($0) }, updated: row[9].flatMap { Int($0) },
                                   deleted: row[10].flatMap { Int($0) }, unchanged: row[12].flatMap { Int($0) },
                                   reissued: row[13].flatMap { Int($0) }, seconds: row[11].flatMap { Double($0) } ?? 0)
        record.api = row[14]
        if let notices = row[15], case .array(let values)? = try? JSONValueParser.parse(Array(notices.utf8)) {
            record.notices = values.compactMap { value in
                if case .string(let text) = value { return text }
                return nil
            }
        }
        return record
    }
}
