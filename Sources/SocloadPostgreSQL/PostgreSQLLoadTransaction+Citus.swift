import SocloadCore

/// Citus, inside a load's transaction: distributed tables made while still empty (so the COPY
/// routes rows to the workers), child and glue tables colocated with their parent, lookups as
/// reference tables (copied to every server, so joins and foreign keys from a distributed
/// table work). The stand-in functions of the tests answer the same calls.
extension PostgreSQLLoadTransaction {
    /// True when the database has Citus's functions.
    func hasCitus() throws -> Bool {
        try value("SELECT count(*) FROM pg_proc WHERE proname = 'create_distributed_table'") != "0"
    }

    /// Makes the empty table `qualifiedName` (plan table `table`) distributed by `column`:
    /// colocated with the new copy of the table it goes with (`PlanTable.colocatedWith`), else in
    /// a colocation group of its own (Citus would otherwise try to colocate it with any table
    /// distributed by a column of its type, and fail on a collation that differs).
    func distribute(_ qualifiedName: String, by column: String, table: PlanTable) throws {
        guard try hasCitus() else {
            throw PostgreSQLError(sqlState: "42883", message: "--distribute-by \(column) needs Citus, and this database has no "
                                  + "create_distributed_table() (CREATE EXTENSION citus, on a Citus server)")
                .withKind(.unavailable)
        }
        try useOneConnectionPerWorker()
        var colocation = "none"
        if table.colocatedWith == nil, try isHashDistributed(qualified(table.name)) {
            // A refresh: the new copy goes with the copy it replaces, so the tables colocated
            // with that one (its glue tables, kept across refreshes) stay with the table. A
            // distribution column of another type cannot: then a group of its own.
            try execute("SAVEPOINT socload_colocate")
            do {
                try execute("SELECT create_distributed_table($1::regclass, $2, colocate_with => $3)",
                            [qualifiedName, column, qualified(table.name)])
                try execute("RELEASE SAVEPOINT socload_colocate")
                return
            } catch is PostgreSQLError {
                try execute("ROLLBACK TO SAVEPOINT socload_colocate")
            }
        }
        if let parent = table.colocatedWith {
            // The parent's new copy, or the parent itself once the swap has given it its name.
            let newCopy = newTableNames[parent]
            colocation = try newCopy.map { try value("SELECT to_regclass($1) IS NOT NULL", [$0]) == "t" } == true
                ? newCopy ?? qualified(parent) : qualified(parent)
        }
        try execute("SELECT create_distributed_table($1::regclass, $2, colocate_with => $3)", [qualifiedName, column, colocation])
    }

    /// True when Citus's metadata lists `qualifiedName` as hash-distributed.
    private func isHashDistributed(_ qualifiedName: String) throws -> Bool {
        guard try value("SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL") == "t",
              try value("SELECT to_regclass($1) IS NOT NULL", [qualifiedName]) == "t" else { return false }
        return try value("SELECT count(*) FROM pg_catalog.pg_dist_partition WHERE logicalrelid = $1::regclass AND partmethod = 'h'",
                         [qualifiedName]) != "0"
    }

    /// Makes `qualifiedName` a reference table. `ifLocal` (a lookup that exists already): only
    /// when Citus's metadata shows it is still a plain local table (a lookup made before the
    /// table was distributed); one an earlier load made a reference table stays as it is.
    func makeReferenceTable(_ qualifiedName: String, ifLocal: Bool = false) throws {
        guard try hasCitus() else {
            throw PostgreSQLError(sqlState: "42883", message: "a lookup of a distributed table needs Citus's create_reference_table()")
                .withKind(.unavailable)
        }
        if ifLocal {
            guard try value("SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL") == "t",
                  try value("SELECT count(*) FROM pg_catalog.pg_dist_partition WHERE logicalrelid = $1::regclass",
                            [qualifiedName]) == "0" else { return }
        }
        try useOneConnectionPerWorker()
        try execute("SELECT create_reference_table($1::regclass)", [qualifiedName])
    }

    /// A load writes reference and distributed tables in one transaction: Citus needs it to
    /// use one connection per worker for that (`multi_shard_modify_mode` sequential), set
    /// before the first write to a distributed table.
    private func useOneConnectionPerWorker() throws {
        guard !citusSequential else { return }
        try execute("SET LOCAL citus.multi_shard_modify_mode TO 'sequential'")
        citusSequential = true
    }
}
