import SocloadCore

/// Staging tables: where rows are copied before they go further (a load with lookups joins them
/// to the lookups; a sync upserts each batch from one).
extension PostgreSQLLoadTransaction {
    /// A staging table for `table`'s rows, its quoted name: the table's columns and PostGIS
    /// columns, then `_socload_order` numbering the rows in the order they came. Temporary,
    /// dropped at commit; for a distributed table a plain table distributed with the table's
    /// newest copy (Citus joins no temporary table with its tables), its distribution column as
    /// that copy has it (text: `COLLATE "C"`) so that the two colocate. `dropStaging` drops it.
    func makeStagingTable(_ purpose: String, for table: PlanTable, geometries: [PostgreSQLGeometryColumn],
                          postGISSchema: String?) throws -> String {
        let columns = (table.columns.map {
            "\($0.name.quotedDatabaseIdentifier) \(PostgreSQLTypes.declaredType($0.type))"
                + ($0.name == table.distributionColumn && $0.type == .text ? " COLLATE \"C\"" : "")
        } + geometries.map { "\($0.name.quotedDatabaseIdentifier) \($0.declaredType(postGISSchema: postGISSchema ?? "public"))" }
            + ["\"_socload_order\" bigserial"]).joined(separator: ", ")
        let name = temporaryName(purpose)
        guard let column = table.distributionColumn else {
            try execute("CREATE TEMPORARY TABLE \(name.quotedDatabaseIdentifier) (\(columns)) ON COMMIT DROP")
            return name.quotedDatabaseIdentifier
        }
        let relation = qualified(name)
        try execute("CREATE TABLE \(relation) (\(columns))")
        var staging = table
        staging.colocatedWith = table.name
        try distribute(relation, by: column, table: staging)
        return relation
    }

    /// Drops a staging table `makeStagingTable` made for `table`, once its rows are in (a
    /// temporary one goes at commit by itself).
    func dropStaging(_ relation: String, for table: PlanTable) throws {
        guard table.distributionColumn != nil else { return }
        try execute("DROP TABLE IF EXISTS \(relation)")
    }
}
