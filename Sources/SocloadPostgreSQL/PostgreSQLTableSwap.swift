import Foundation
import SocloadCore

/// The end of a load: the new table (filled, keyed, indexed, under a temporary name) takes the
/// old one's place inside the load's transaction. The old table is locked with a `lock_timeout`,
/// each attempt in a savepoint (a lock timeout aborts the transaction), so a long-running reader
/// delays the swap instead of making every new reader queue behind it. Then what the user built
/// on the old table is recorded, the old table dropped (never with CASCADE), the new one renamed,
/// and the user's objects rebuilt: views on it (recreated from their definitions, with their
/// owners and grants), the table's owner and grants, indexes, constraints and triggers, and
/// foreign keys from other tables to it. One that cannot be rebuilt is reported and skipped, or
/// fails the load when `strict`.
struct PostgreSQLTableSwap {
    let transaction: PostgreSQLLoadTransaction
    let table: PlanTable
    let previous: PlanTable?
    let newName: String
    /// socload's indexes on the new table: (temporary name, name after the swap).
    let ownedIndexes: [(temporary: String, final: String)]

    /// The name of the index that is a table's key.
    static func keyName(of table: PlanTable) -> String {
        LoadPlan.shortenedName("_socload_key_" + table.name, toBytes: 63)
    }

    /// A user object to rebuild after the swap.
    struct UserObject {
        let description: String
        let statements: [String]
    }

    func run(strict: Bool) throws -> [String] {
        let target = transaction.qualified(table.name)
        var lastError: PostgreSQLError?
        for attempt in 0..<transaction.swapLocking.attempts {
            try transaction.execute("SAVEPOINT socload_swap")
            let lockTimeout = try transaction.value("SELECT current_setting('lock_timeout')") ?? "0"
            do {
                try transaction.execute("SELECT set_config('lock_timeout', $1, true)",
                                        ["\(Int(transaction.swapLocking.timeout * 1000))ms"])
                let notes = try swap(into: target, strict: strict)
                try transaction.execute("SELECT set_config('lock_timeout', $1, true)", [lockTimeout])
                try transaction.execute("RELEASE SAVEPOINT socload_swap")
                return notes
            } catch let error as PostgreSQLError where error.isLockTimeout {
                try transaction.execute("ROLLBACK TO SAVEPOINT socload_swap")
                try transaction.execute("RELEASE SAVEPOINT socload_swap")
                lastError = error
                // Waits between attempts, in slices, so that a cancelled load ends at once.
                let resume = Date().addingTimeInterval(min(0.1 * Double(attempt + 1), 1))
                while Date() < resume {
                    try transaction.checkCancellation()
                    Thread.sleep(forTimeInterval: 0.02)
                }
            } catch {
                _ = try? transaction.execute("ROLLBACK TO SAVEPOINT socload_swap")
                throw error
            }
        }
        throw PostgreSQLError(sqlState: lastError?.sqlState, message: "\(table.name) stayed locked by another session "
                              + "through \(transaction.swapLocking.attempts) attempts to swap in the new copy "
                              + "(a long-running query or an open transaction?)", detail: lastError?.message)
    }

    private func swap(into target: String, strict: Bool) throws -> [String] {
        var objects: [UserObject] = []
        var notes: [String] = []
        if let kind = try transaction.value("SELECT c.relkind::text FROM pg_class c WHERE c.oid = to_regclass($1)", [target]) {
            guard kind == "r" || kind == "p" else {
                throw LoadError.unsupported("\(table.name) exists in the database and is not a table (relkind \(kind)); "
                                            + "socload replaces only tables: choose another --table")
            }
            try transaction.execute("LOCK TABLE \(target) IN ACCESS EXCLUSIVE MODE")
            let oid = try transaction.value("SELECT to_regclass($1)::oid::text", [target]) ?? "0"
            let views = try dependentViews(of: oid)
            let foreignKeys = try foreignKeysReferencing(oid)
            objects += try tableAttributes(of: oid)
            objects += try indexesAndConstraints(of: oid)
            objects += try triggers(of: oid)
            // socload's own (a child table's) are made again with the child table.
            objects += foreignKeys.filter { !$0.isSocloads }.map(\.restore)
            objects += views.map(\.restore)
            for view in views.reversed() { try transaction.execute(view.drop) }
            for foreignKey in foreignKeys { try transaction.execute(foreignKey.drop) }
            try transaction.execute("DROP TABLE \(target)")
        }
        try transaction.execute("ALTER TABLE \(transaction.qualified(newName)) RENAME TO \(table.name.quotedDatabaseIdentifier)")
        for index in ownedIndexes {
            try transaction.execute("ALTER INDEX \(transaction.qualified(index.temporary)) RENAME TO \(index.final.quotedDatabaseIdentifier)")
        }
        var unpermitted: [String] = []
        for object in objects {
            do {
                try transaction.execute("SAVEPOINT socload_user_object")
                for statement in object.statements { try transaction.execute(statement) }
                try transaction.execute("RELEASE SAVEPOINT socload_user_object")
            } catch let error as PostgreSQLError where !error.isLockTimeout {
                try transaction.execute("ROLLBACK TO SAVEPOINT socload_user_object")
                try transaction.execute("RELEASE SAVEPOINT socload_user_object")
                // A privilege this role lacks is no reason to lose what another role built:
                // the whole load is refused (77), so it is all still there.
                if error.sqlState == "42501" {
                    unpermitted.append("\(object.description) (\(error.message))")
                    continue
                }
                let note = "your \(object.description) on \(table.name) could not be rebuilt (\(error.message))"
                if strict { throw LoadError.userObjectLost(note) }
                notes.append(note + "; skipped")
            }
        }
        if !unpermitted.isEmpty {
            throw PostgreSQLError(sqlState: "42501", message: "this role cannot rebuild \(unpermitted.shortList(limit: 3, separator: "; ")) "
                                  + "on \(table.name): refresh as their owner (or a member of the owner's role)")
        }
        return notes
    }

    // MARK: - What the user built on the old table

    /// The owner (when it is not the loading user) and the grants.
    private func tableAttributes(of oid: String) throws -> [UserObject] {
        let target = transaction.qualified(table.name)
        var objects: [UserObject] = []
        if let owner = try transaction.value("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = $1::oid AND "
                                             + "relowner <> (SELECT oid FROM pg_roles WHERE rolname = current_user)", [oid]) {
            objects.append(UserObject(description: "owner \(owner)",
                                      statements: ["ALTER TABLE \(target) OWNER TO \(owner.quotedDatabaseIdentifier)"]))
        }
        objects += try grants(of: oid, on: "TABLE \(target)")
        // A comment socload set from the portal's description is socload's, renewed by the load;
        // any other is the user's and stays.
        // Compared by digest on the server: a description of megabytes is not read back.
        if let digest = try transaction.value("SELECT md5(obj_description($1::oid, 'pg_class'))", [oid]),
           digest != previous?.descriptions?.tableDigest,
           let comment = try transaction.value("SELECT obj_description($1::oid, 'pg_class')", [oid]) {
            objects.append(UserObject(description: "comment", statements: ["COMMENT ON TABLE \(target) IS \(PostgreSQLComment.literal(comment))"]))
        }
        return objects
    }

    /// GRANT statements that give back a relation's privileges (the owner's own aside).
    private func grants(of oid: String, on object: String) throws -> [UserObject] {
        let rows = try transaction.execute("""
            SELECT CASE WHEN a.grantee = 0 THEN NULL ELSE pg_get_userbyid(a.grantee) END, a.privilege_type, a.is_grantable::text
            FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = $1::oid AND a.grantee <> c.relowner
            ORDER BY 1, 2
            """, [oid]).rows
        return rows.map { row in
            let grantee = row[0].map(\.quotedDatabaseIdentifier) ?? "PUBLIC"
            let option = row[2] == "true" ? " WITH GRANT OPTION" : ""
            return UserObject(description: "grant of \(row[1] ?? "") to \(row[0] ?? "PUBLIC")",
                              statements: ["GRANT \(row[1] ?? "") ON \(object) TO \(grantee)\(option)"])
        }
    }

    /// Indexes and constraints that are not socload's (its key and its plan's indexes), as the
    /// statements that made them; they name the table, which by then is the new one.
    private func indexesAndConstraints(of oid: String) throws -> [UserObject] {
        let owned = ownedNames
        let target = transaction.qualified(table.name)
        var objects: [UserObject] = []
        for row in try transaction.execute("""
            SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
            WHERE conrelid = $1::oid AND contype IN ('p', 'u', 'c', 'x', 'f') ORDER BY contype = 'f', oid
            """, [oid]).rows {
            guard let name = row[0], let definition = row[1], !owned.contains(name) else { continue }
            objects.append(UserObject(description: "constraint \(name)",
                                      statements: ["ALTER TABLE \(target) ADD CONSTRAINT \(name.quotedDatabaseIdentifier) \(definition)"]))
        }
        for row in try transaction.execute("""
            SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid = $1::oid AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
            ORDER BY i.indexrelid
            """, [oid]).rows {
            guard let name = row[0], let definition = row[1], !owned.contains(name) else { continue }
            objects.append(UserObject(description: "index \(name)", statements: [definition]))
        }
        return objects
    }

    private func triggers(of oid: String) throws -> [UserObject] {
        try transaction.execute("SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = $1::oid AND NOT tgisinternal ORDER BY oid",
                                [oid]).rows.compactMap { row in
            // socload's own (lookup counts) are made again by socload.
            guard let name = row[0], let definition = row[1], !ownedNames.contains(name) else { return nil }
            return UserObject(description: "trigger \(name)", statements: [definition])
        }
    }

    /// The names of the objects socload builds on the table, known from the plans (the new and
    /// the previous), never from a name's prefix: a trigger of the user's may be `_socload_mine`.
    var ownedNames: Set<String> {
        var names: [String] = []
        for planned in [table] + (previous.map { [$0] } ?? []) {
            names += [Self.keyName(of: planned)] + planned.indexes.map(\.name)
            names += PostgreSQLGeometryColumn.columns(for: planned, postGISSchema: "").map { $0.indexName(table: planned.name) }
            if planned.fullText != nil { names.append(PostgreSQLFullText.indexName(of: planned)) }
            for lookup in planned.lookups {
                names += ["fk", "count", "truncate"].map { PostgreSQLLookups.ownedName(table: planned.name, lookup: lookup.table, $0) }
                names += lookup.distinctCounts.map {
                    PostgreSQLLookups.ownedName(table: planned.name, lookup: lookup.table, "distinct_" + $0.sourceColumn)
                }
            }
        }
        return Set(names)
    }

    /// True for the foreign key socload gives a child table to its parent, named after the child
    /// as `PostgreSQLTableWriter` names it (`_socload_fk_<child>_<n>`).
    static func isChildForeignKey(_ name: String, of child: String) -> Bool {
        (1...16).contains { PostgreSQLTableWriter.foreignKeyName(table: child, index: $0) == name }
    }

    /// A view or foreign key that must be dropped before the old table and made again after.
    struct Dependent {
        let drop: String
        let restore: UserObject
        /// A foreign key socload made (a child table's to its parent), not the user's.
        var isSocloads = false
    }

    /// Foreign keys of other tables that reference the old table.
    private func foreignKeysReferencing(_ oid: String) throws -> [Dependent] {
        try transaction.execute("""
            SELECT format('%I.%I', n.nspname, c.relname), k.conname, pg_get_constraintdef(k.oid), c.relname::text
            FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE k.confrelid = $1::oid AND k.conrelid <> $1::oid AND k.contype = 'f' ORDER BY k.oid
            """, [oid]).rows.compactMap { row in
            guard let owner = row[0], let name = row[1], let definition = row[2], let child = row[3] else { return nil }
            return Dependent(drop: "ALTER TABLE \(owner) DROP CONSTRAINT \(name.quotedDatabaseIdentifier)",
                             restore: UserObject(description: "foreign key \(name) of \(owner)",
                                                 statements: ["ALTER TABLE \(owner) ADD CONSTRAINT \(name.quotedDatabaseIdentifier) \(definition)"]),
                             isSocloads: Self.isChildForeignKey(name, of: child))
        }
    }

    /// Views and materialized views that depend on the old table, directly or through other
    /// views, shallowest first, each with its definition, options, owner, grants and comment.
    private func dependentViews(of oid: String) throws -> [Dependent] {
        let rows = try transaction.execute("""
            WITH RECURSIVE dependents(oid, depth) AS (
              SELECT DISTINCT r.ev_class, 1 FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
              WHERE d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
                AND d.refobjid = $1::oid AND r.ev_class <> $1::oid
              UNION
              SELECT r.ev_class, dependents.depth + 1 FROM dependents
              JOIN pg_depend d ON d.refobjid = dependents.oid AND d.refclassid = 'pg_class'::regclass
                AND d.classid = 'pg_rewrite'::regclass
              JOIN pg_rewrite r ON r.oid = d.objid WHERE r.ev_class <> dependents.oid AND dependents.depth < 50
            )
            SELECT c.oid::text, format('%I.%I', n.nspname, c.relname), c.relkind::text, pg_get_viewdef(c.oid),
                   array_to_string(c.reloptions, ', '), pg_get_userbyid(c.relowner),
                   c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = current_user), obj_description(c.oid, 'pg_class')
            FROM (SELECT oid, max(depth) AS depth FROM dependents GROUP BY oid) v
            JOIN pg_class c ON c.oid = v.oid JOIN pg_namespace n ON n.oid = c.relnamespace
            ORDER BY v.depth, c.oid
            """, [oid]).rows
        return try rows.compactMap { row in
            guard let viewOID = row[0], let name = row[1], let kind = row[2], let definition = row[3] else { return nil }
            let materialized = kind == "m"
            let noun = materialized ? "MATERIALIZED VIEW" : "VIEW"
            let options = (row[4]).flatMap { $0.isEmpty ? nil : " WITH (\($0))" } ?? ""
            var statements = ["CREATE \(noun) \(name)\(options) AS \(definition.trimmingCharacters(in: [";", " ", "\n"]))"]
            if row[6] == "t", let owner = row[5] {
                statements.append("ALTER \(noun) \(name) OWNER TO \(owner.quotedDatabaseIdentifier)")
            }
            statements += try grants(of: viewOID, on: "TABLE \(name)").flatMap(\.statements)
            if let comment = row[7] { statements.append("COMMENT ON \(noun) \(name) IS \(PostgreSQLComment.literal(comment))") }
            return Dependent(drop: "DROP \(noun) \(name)",
                             restore: UserObject(description: "\(materialized ? "materialized view" : "view") \(name)",
                                                 statements: statements))
        }
    }
}
