import SocloadSocrata

/// How SQLite spells the plan's logical types: the declared type gives the column its affinity.
enum SQLiteTypes {
    static func declaredType(_ type: LogicalType) -> String {
        switch type {
        case .text, .timestamp, .floatingTimestamp, .date, .json, .geometry: return "TEXT"
        case .integer, .boolean: return "INTEGER"
        case .decimal: return "NUMERIC"
        case .double: return "REAL"
        }
    }

    /// The unique index that is a table's key (SQLite cannot add a PRIMARY KEY to a table that
    /// already has rows, and the key is built after them).
    static func keyIndexName(_ table: PlanTable) -> String {
        "_socload_key_" + table.name
    }

    /// True for a name in socload's own namespace (`_socload_...`): its keys, lookup indexes and
    /// count triggers, which it makes again itself.
    static func isOwned(_ name: String) -> Bool {
        name.lowercased().hasPrefix("_socload_")
    }

    /// The names of the objects socload builds for a table: never treated as the user's.
    static func ownedObjectNames(_ table: PlanTable) -> Set<String> {
        Set(([keyIndexName(table)] + table.indexes.map(\.name)).map { $0.lowercased() })
    }
}
