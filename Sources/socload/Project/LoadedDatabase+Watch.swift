import SocloadCore
import SocloadDatabase
import SocloadPostgreSQL

/// What a database keeps for the watch, read in one statement each: the watch each table's last
/// refresh recorded (`WatchLog`) and the `rowsUpdatedAt` its loads recorded (`RefreshLog`). A
/// refresh's batch reads both once; `socload report` reads the first.
extension LoadedDatabase {
    /// The database's SQL dialect (on PostgreSQL, with its schema).
    var sqlDialect: any SQLDialect { (self as? PostgreSQLDatabase)?.dialect ?? SQLiteDialect() }

    /// Every row of `_socload_watch`, each column as text (none without the table).
    func recordedWatchRows() throws -> [[String?]] {
        guard try tableExists(WatchLog.tableName) else { return [] }
        var rows: [[String?]] = []
        try runUserStatement(WatchLog(dialect: sqlDialect).selectStatement, parameters: UserParameters(), allowingChanges: false,
                             columns: { _ in }) { row in rows.append(row.map(\.textValue)) }
        return rows
    }

    /// Every table's recorded `rowsUpdatedAt`, oldest first, by lowercased table name.
    func refreshStampsByTable() throws -> [String: [String]] {
        guard try tableExists(RefreshLog.tableName) else { return [:] }
        var stamps: [String: [String]] = [:]
        try runUserStatement("SELECT \"table_name\", \"rows_updated_at\" FROM \(sqlDialect.table(RefreshLog.tableName)) "
                             + "WHERE \"rows_updated_at\" IS NOT NULL ORDER BY \"refreshed_at\"", parameters: UserParameters(),
                             allowingChanges: false, columns: { _ in }) { row in
            if row.count == 2, let table = row[0].textValue, let stamp = row[1].textValue { stamps[table.lowercased(), default: []].append(stamp) }
        }
        return stamps
    }
}
