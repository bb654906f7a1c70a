import SocloadCore
import SocloadDatabase

/// Moves one of socload's tables aside to another name (the copy a refresh replaces, the new
/// fingerprints), the cheaper way for its size.
///
/// `ALTER TABLE RENAME` costs in proportion to the whole schema, not the table: SQLite parses
/// every CREATE statement of the file to rewrite references, then reloads them all — about 12 µs
/// an object, 30 ms at 2,800 objects (400 datasets), two of them in every load. A table of a few
/// rows per schema object is copied in less: its rows (in order) and plain indexes (under their
/// names) go to a new table and the old one is dropped; CREATE and DROP cost the same whatever
/// the schema holds. A larger table, or one whose indexes cannot be made again as they were, is
/// renamed as before (`legacy_alter_table`: nothing else in the schema is rewritten).
///
/// What the copy does not keep — triggers, constraints, the declared types beyond their
/// affinities — is nothing socload reads of these tables: triggers go with the old table, as
/// the writer drops those of a renamed copy, and the values are stored as they were.
enum SQLiteTableMove {
    /// Rows copied rather than renamed, per object in the schema (a copy costs 1-3 µs a row).
    static let rowsPerSchemaObject = 4

    /// Moves the table; a copy makes its indexes again only `withIndexes` (a copy kept only to be
    /// read once needs none).
    /// A TEMP table (`SQLExecuting.scratchWriter`) is always copied into the file.
    static func move(_ name: String, to newName: String, withIndexes: Bool = true, db: Database) throws {
        let isScratch = try db.fetchValue(sql: "SELECT 1 FROM pragma_table_list(?) WHERE schema = 'temp' AND type = 'table'",
                                          arguments: [name]) != nil
        let indexes = try copyableIndexes(of: name, movedTo: newName, schema: isScratch ? "temp" : "main", db: db)
        if isScratch {
            try copy(name, to: newName, indexes: withIndexes ? indexes ?? [] : [], db: db)
        } else if let indexes, try isSmall(name, db: db) {
            try copy(name, to: newName, indexes: withIndexes ? indexes : [], db: db)
        } else {
            try rename(name, to: newName, db: db)
        }
    }

    /// `ALTER TABLE RENAME` as SQLite did before 3.26 (`legacy_alter_table`): nothing else in the
    /// schema is rewritten or checked, so a view or a foreign key naming the table keeps naming
    /// that name, and a broken view of the user's does not stop the rename.
    static func rename(_ name: String, to newName: String, db: Database) throws {
        try db.execute(sql: "PRAGMA legacy_alter_table = ON")
        defer { try? db.execute(sql: "PRAGMA legacy_alter_table = OFF") }
        try db.execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// True when the table holds at most `rowsPerSchemaObject` rows per object of the schema
    /// (counted only that far).
    private static func isSmall(_ name: String, db: Database) throws -> Bool {
        let objects = try db.fetchOne(Int.self, sql: "SELECT count(*) FROM sqlite_schema") ?? 0
        let limit = objects * rowsPerSchemaObject
        let rows = try db.fetchOne(Int.self, sql: "SELECT count(*) FROM (SELECT 1 FROM \(name.quotedDatabaseIdentifier) LIMIT ?)",
                                   arguments: [limit + 1]) ?? 0
        return rows <= limit
    }

    /// The table's indexes as `CREATE INDEX` statements on `newName`; nil when one cannot be
    /// made again as it is (a constraint's own index, a partial or expression index), or the table
    /// has no rowid.
    private static func copyableIndexes(of name: String, movedTo newName: String, schema: String, db: Database) throws -> [String]? {
        guard try db.fetchOne(Int.self, sql: "SELECT count(*) FROM pragma_table_list(?) WHERE schema = ? "
                                            + "AND type = 'table' AND wr = 0", arguments: [name, schema]) == 1 else { return nil }
        var statements: [String] = []
        for index in try db.fetchRows(sql: "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", arguments: [name]) {
            guard case .text(let indexName) = index[0], case .text("c") = index[2], case .integer(0) = index[3] else { return nil }
            var columns: [String] = []
            for column in try db.fetchRows(sql: "SELECT cid, name, desc, coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno",
                                           arguments: [indexName]) {
                guard case .integer(let cid) = column[0], cid >= 0, case .text(let columnName) = column[1],
                      case .text(let collation) = column[3] else { return nil }
                columns.append(columnName.quotedDatabaseIdentifier + (collation == "BINARY" ? "" : " COLLATE \(collation)")
                               + (column[2] == .integer(1) ? " DESC" : ""))
            }
            let unique = index[1] == .integer(1) ? "UNIQUE " : ""
            statements.append("CREATE \(unique)INDEX \(indexName.quotedDatabaseIdentifier) ON \(newName.quotedDatabaseIdentifier) (\(columns.joined(separator: ", ")))")
        }
        return statements
    }

    private static func copy(_ name: String, to newName: String, indexes: [String], db: Database) throws {
        let (from, to) = (name.quotedDatabaseIdentifier, newName.quotedDatabaseIdentifier)
        try db.execute(sql: "CREATE TABLE main.\(to) AS SELECT * FROM \(from) WHERE 0")
        // A scan of a rowid table is in rowid order: the rows keep theirs.
        try db.execute(sql: "INSERT INTO \(to) SELECT * FROM \(from)")
        try db.withoutSecureDelete { try db.execute(sql: "DROP TABLE \(from)") }
        for statement in indexes {
            try db.execute(sql: statement)
        }
    }
}
