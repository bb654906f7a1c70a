/// `_socload_schema_changes`: every change of a loaded table's shape a refresh made, one row
/// each (table, time, kind, name, before, after), written once for every database against its
/// dialect. `socload info TABLE --changes` reads it back.
public struct SchemaChangeLog {
    public static let tableName = "_socload_schema_changes"
    public let dialect: any SQLDialect

    public init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    /// Makes the table when it is missing (the catalog's migration to version 2 does).
    public var createStatement: String {
        """
        CREATE TABLE IF NOT EXISTS \(dialect.table(Self.tableName)) ("table_name" TEXT NOT NULL, "changed_at" TEXT NOT NULL,
          "position" INTEGER NOT NULL, "kind" TEXT NOT NULL, "name" TEXT NOT NULL, "before" TEXT, "after" TEXT)
        """
    }

    /// One change; bind `arguments(for:at:position:)`.
    public var insertStatement: String {
        let placeholders = (1...7).map(dialect.placeholder).joined(separator: ", ")
        return "INSERT INTO \(dialect.table(Self.tableName)) (\"table_name\", \"changed_at\", \"position\", \"kind\", \"name\", "
            + "\"before\", \"after\") VALUES (\(placeholders))"
    }

    public func arguments(for change: SchemaChange, at time: String, position: Int) -> [DatabaseValue] {
        [.text(change.table), .text(time), .integer(Int64(position)), .text(change.kind.rawValue), .text(change.name),
         change.before.map(DatabaseValue.text) ?? .null, change.after.map(DatabaseValue.text) ?? .null]
    }

    /// A table's changes, oldest first; bind the table's name (compared as the database compares names).
    public var selectStatement: String {
        let name = dialect.namesIgnoreCase ? "lower(\"table_name\") = lower(\(dialect.placeholder(1)))"
            : "\"table_name\" = \(dialect.placeholder(1))"
        return "SELECT \"changed_at\", \"kind\", \"name\", \"before\", \"after\", \"table_name\" FROM "
            + "\(dialect.table(Self.tableName)) WHERE \(name) ORDER BY \"changed_at\", \"position\""
    }

    /// A row of `selectStatement` (as text, NULL as nil); nil for a kind this socload does not know.
    public static func change(fromRow row: [String?]) -> RecordedSchemaChange? {
        guard row.count >= 6, let time = row[0], let kind = row[1].flatMap(SchemaChange.Kind.init(rawValue:)),
              let name = row[2], let table = row[5] else { return nil }
        return RecordedSchemaChange(changedAt: time, change: SchemaChange(table: table, kind: kind, name: name,
                                                                          before: row[3], after: row[4]))
    }
}

/// A schema change as the log keeps it: when the refresh that made it recorded it.
public struct RecordedSchemaChange: Sendable, Equatable, Codable {
    public var changedAt: String
    public var change: SchemaChange

    public init(changedAt: String, change: SchemaChange) {
        self.changedAt = changedAt
        self.change = change
    }
}

/// The catalog's format version, kept in `_socload_meta` (key `catalog_version`). A database
/// made by an earlier release has no such table: version 1. Writing to it migrates it.
/// Version 2 added the schema change and refresh logs; 3 gave the dataset's description a
/// column of its own (`_socload_datasets.description`), and plans record digests of descriptions;
/// 4 added the index of the table names each dataset claims (`TableNameIndex`), filled again
/// whenever a catalog's version is older (a release before 4 wrote to it without keeping it).
public enum CatalogVersion {
    public static let current = 4
    public static let tableName = "_socload_meta"

    public static func createStatement(_ dialect: any SQLDialect) -> String {
        "CREATE TABLE IF NOT EXISTS \(dialect.table(tableName)) (\"key\" TEXT PRIMARY KEY, \"value\" TEXT NOT NULL)"
    }

    /// Sets the version (run after the migration steps): delete, then insert, in one transaction.
    public static func statements(_ dialect: any SQLDialect) -> (delete: String, insert: String) {
        ("DELETE FROM \(dialect.table(tableName)) WHERE \"key\" = 'catalog_version'",
         "INSERT INTO \(dialect.table(tableName)) (\"key\", \"value\") VALUES ('catalog_version', '\(current)')")
    }

    public static func selectStatement(_ dialect: any SQLDialect) -> String {
        "SELECT \"value\" FROM \(dialect.table(tableName)) WHERE \"key\" = 'catalog_version'"
    }
}
