import SocloadCore
import SocloadDatabase

/// How SQLite spells the plan's logical types: the declared type gives the column its affinity.
enum SQLiteTypes {
    static func declaredType(_ type: LogicalType) -> String { SQLiteDialect().declaredType(type) }

    /// The unique index that is a table's key (SQLite cannot add a PRIMARY KEY to a table that
    /// already has rows, and the key is built after them).
    static func keyIndexName(_ table: PlanTable) -> String {
        "_socload_key_" + table.name
    }

    /// The names of the objects socload builds for a table, known from its plan (never from a
    /// name's prefix: a trigger of the user's may be called `_socload_mine`): its key, its
    /// `--index` indexes, a GeoPackage's spatial index triggers, and per lookup the foreign key's indexes and the count triggers.
    static func ownedObjectNames(_ table: PlanTable) -> Set<String> {
        var names = [keyIndexName(table)] + table.indexes.map(\.name) + GeoPackageTable(table).triggerNames
            + SQLiteFullText.triggerNames(of: table)
        let writing = LookupWriting(table: table, dialect: SQLiteDialect())
        for lookup in table.lookups {
            names += ["fk", "insert", "update", "delete"].map { writing.ownedName(lookup, $0) }
            names += lookup.distinctCounts.map { writing.ownedName(lookup, "distinct_" + $0.sourceColumn) }
        }
        return Set(names.map { $0.lowercased() })
    }
}
