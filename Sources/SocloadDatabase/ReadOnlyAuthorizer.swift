import CSQLite

/// The SQLite authorizer behind `DatabaseConfiguration.acceptsChanges = false`: statements may
/// read, and nothing else.
///
/// Opening a connection read-only is not enough: SQLite still runs `VACUUM INTO '/any/path'` on
/// one, and `PRAGMA journal_mode` rewrites the file even under `PRAGMA query_only`. The authorizer
/// is asked about every action while a statement is prepared, so a refused statement never runs:
/// it fails with SQLITE_AUTH ("not authorized").
///
/// Allowed: SELECT, reading tables and columns (a GeoPackage's spatial index among them: see
/// `isSpatialIndexShadowTable`), functions, recursive CTEs, transactions and
/// savepoints (which only group reads when nothing can write), and a fixed list of
/// PRAGMAs that only report (`table_info`, `index_list`, `integrity_check`, ...; pragmas that
/// set a value when given one, such as `user_version`, only without a value). Refused: every
/// write, schema change, ATTACH and DETACH (which `VACUUM INTO` uses),
/// ANALYZE, REINDEX and every other PRAGMA.
enum ReadOnlyAuthorizer {
    /// PRAGMAs that only report, whatever their argument (a table or index name).
    static let reportingPragmas: Set<String> = [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
        "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check", "collation_list",
        "function_list", "module_list", "pragma_list", "database_list", "compile_options",
    ]

    /// PRAGMAs that report without an argument and change a setting with one.
    static let queryOnlyPragmas: Set<String> = [
        "user_version", "schema_version", "application_id", "page_size", "page_count", "freelist_count",
        "encoding", "journal_mode", "auto_vacuum", "data_version", "foreign_keys", "synchronous",
        "max_page_count",
        // Set when the connection opens, before the authorizer: it cannot be turned off.
        "query_only",
    ]

    /// `rtree_T_C_node`, `_rowid` or `_parent`: where an RTree virtual table keeps its nodes.
    static func isSpatialIndexShadowTable(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasPrefix("rtree_") && ["_node", "_rowid", "_parent"].contains(where: lowered.hasSuffix)
    }

    /// Installs the authorizer on a connection.
    static func install(on handle: OpaquePointer) {
        sqlite3_set_authorizer(handle, { _, action, first, second, _, _ in
            ReadOnlyAuthorizer.decide(action: action, first: first.map { String(cString: $0) },
                                      second: second.map { String(cString: $0) })
        }, nil)
    }

    /// SQLITE_OK for an action that only reads, SQLITE_DENY for anything else.
    static func decide(action: Int32, first: String?, second: String?) -> Int32 {
        switch action {
        case SQLITE_SELECT, SQLITE_READ, SQLITE_FUNCTION, SQLITE_RECURSIVE, SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
            return SQLITE_OK
        case SQLITE_INSERT where first.map(isSpatialIndexShadowTable) == true,
             SQLITE_UPDATE where first.map(isSpatialIndexShadowTable) == true,
             SQLITE_DELETE where first.map(isSpatialIndexShadowTable) == true:
            // A GeoPackage's RTree prepares writes to its shadow tables when it is first read;
            // they never run (the connection is under PRAGMA query_only, which SQLite enforces).
            return SQLITE_OK
        case SQLITE_UPDATE where first == "sqlite_master" || first == "sqlite_temp_master":
            // Asked while a table-valued function (json_each, pragma_table_info) is prepared.
            // Safe: SQLite refuses every change to its schema table unless writable_schema is on,
            // and that PRAGMA is refused here.
            return SQLITE_OK
        case SQLITE_PRAGMA:
            guard let name = first?.lowercased() else { return SQLITE_DENY }
            if reportingPragmas.contains(name) { return SQLITE_OK }
            if queryOnlyPragmas.contains(name), second == nil { return SQLITE_OK }
            return SQLITE_DENY
        default:
            return SQLITE_DENY
        }
    }
}
