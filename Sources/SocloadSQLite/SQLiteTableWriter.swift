import SocloadCore
import CSQLite
import SocloadDatabase

/// Writes a new copy of a plan table: drops the old one (remembering the indexes and triggers
/// the user built on it), creates the table without any index, inserts the rows with one
/// prepared statement, then builds the key, the plan's indexes and the user's objects.
final class SQLiteTableWriter: TableWriter {
    private let db: Database
    private let table: PlanTable
    /// nil when the rows come from the existing table.
    private let insertStatement: Statement?
    /// The user's indexes and triggers on the old table: (kind, name, CREATE statement).
    private let userObjects: [(kind: String, name: String, sql: String)]

    /// Where the rows of a table rebuilt from itself wait until its lookups are applied.
    static let stagingTable = "temp.\"_socload_rows\""
    /// True when rows go first to the staging table (a table rebuilt from itself).
    private let stagesRows: Bool
    /// Writes the rows of a table with lookups, their foreign keys found as they stream.
    private let lookupRowWriter: SQLiteLookupRowWriter?
    /// In a GeoPackage: the table's layout there, and the binder of its geometry.
    private let geoPackage: GeoPackageTable?
    private let geometry: SQLiteGeometryBinder?
    /// Compares the new copy with the old before the old goes (a refresh's row changes).
    private let comparison: (any PreviousCopyComparing)?
    /// True when the old copy was moved aside (`previousCopy(of:)`) for the comparison.
    private var keepsPreviousCopy = false

    /// Where the copy a refresh replaced is kept, until the next refresh of the table drops it:
    /// the change log reads the old rows from it, and dropping a table (freeing every page)
    /// costs as much as writing it, which the next refresh pays at its start instead of this
    /// one at its end. The file holds the space either way: a dropped table's pages stay in it,
    /// free, for the next copy.
    static func previousCopy(of table: String) -> String { RowChangeSQL.previousCopy(of: table) }

    /// Starts the new copy. With `rowsFromExistingTable`, its rows are those of the table as it
    /// is now (`socload extract`: a table rebuilt with one more lookup), not inserted batches.
    /// With a `comparison`, the old table is moved aside (`previousCopy(of:)`, `SQLiteTableMove`) rather than
    /// dropped, unless foreign keys are enforced on the connection (then SQLite would point
    /// other tables' references at the renamed copy, so it is dropped at once, and only counted).
    /// In a GeoPackage (`geoPackage`), the table is laid out as `GeoPackageTable` says.
    init(db: Database, table: PlanTable, previous: PlanTable?, rowsFromExistingTable: Bool = false,
         comparison: (any PreviousCopyComparing)? = nil, geoPackage: GeoPackageTable? = nil) throws {
        self.db = db
        self.table = table
        self.geoPackage = geoPackage
        geometry = SQLiteGeometryBinder.binder(for: geoPackage)
        self.comparison = comparison
        try SQLiteFreeSpace.check(db: db, table: table.name)
        let owned = SQLiteTypes.ownedObjectNames(table).union(previous.map(SQLiteTypes.ownedObjectNames) ?? [])
        userObjects = try db.fetchRows(sql: """
            SELECT type, name, sql FROM sqlite_schema
            WHERE type IN ('index', 'trigger') AND tbl_name = ? COLLATE NOCASE AND sql IS NOT NULL
            ORDER BY type = 'trigger', rowid
            """, arguments: [table.name]).compactMap { row in
            guard case .text(let kind) = row[0], case .text(let name) = row[1], case .text(let sql) = row[2],
                  !owned.contains(name.lowercased()) else { return nil }
            return (kind, name, sql)
        }
        let quotedTable = table.name.quotedDatabaseIdentifier
        stagesRows = rowsFromExistingTable
        if stagesRows {
            try db.execute(sql: "DROP TABLE IF EXISTS \(Self.stagingTable)")
            if rowsFromExistingTable {
                try db.execute(sql: "CREATE TEMP TABLE \"_socload_rows\" AS SELECT * FROM main.\(quotedTable)")
            } else {
                try db.execute(sql: "CREATE TEMP TABLE \"_socload_rows\" (" + table.columns.map {
                    "\($0.name.quotedDatabaseIdentifier) \(SQLiteTypes.declaredType($0.type))"
                }.joined(separator: ", ") + ")")
            }
        }
        let previousCopy = Self.previousCopy(of: table.name)
        if !rowsFromExistingTable {
            try db.withoutSecureDelete { try db.execute(sql: "DROP TABLE IF EXISTS \(previousCopy.quotedDatabaseIdentifier)") }
        }
        if comparison?.needsPreviousCopy == true, try db.tableExists(table.name),
           try db.fetchValue(sql: "PRAGMA foreign_keys") == .integer(0) {
            try SQLiteTableMove.move(table.name, to: previousCopy, withIndexes: false, db: db)
            keepsPreviousCopy = true
        }
        try db.withoutSecureDelete { try db.execute(sql: "DROP TABLE IF EXISTS \(quotedTable)") }
        try db.execute(sql: Self.createTableSQL(table, geoPackage: geoPackage))
        if !rowsFromExistingTable, !table.lookups.isEmpty {
            let lookups = SQLiteLookups(db: db, table: table)
            for lookup in table.lookups { try lookups.ensureTable(lookup) }
            lookupRowWriter = try SQLiteLookupRowWriter(db: db, table: table, writing: lookups.writing, geometry: geometry)
            insertStatement = nil
            return
        }
        lookupRowWriter = nil
        let names = table.columns.map(\.name) + (geometry.map { [$0.place.name] } ?? [])
        let columns = Self.quotedList(names)
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        insertStatement = rowsFromExistingTable ? nil : try db.makeStatement(
            sql: "INSERT INTO \(quotedTable) (\(columns)) VALUES (\(placeholders))")
    }

    /// `CREATE TABLE` with the columns' types; key columns are NOT NULL, and the key itself is a
    /// unique index built after the rows. In a GeoPackage, with its feature id and geometry;
    /// `temporary`, a TEMP table (gone with the connection, outside the file's schema).
    static func createTableSQL(_ table: PlanTable, geoPackage: GeoPackageTable? = nil, temporary: Bool = false) -> String {
        let key = Set(table.primaryKey.map { $0.lowercased() })
        var definitions = geoPackage.map { [$0.leadingDefinition] } ?? []
        definitions += table.storedColumns.map { column in
            "\(column.name.quotedDatabaseIdentifier) "
                + (geoPackage == nil ? SQLiteTypes.declaredType(column.type) : GeoPackageTable.declaredType(column.type))
                + (key.contains(column.name.lowercased()) ? " NOT NULL" : "")
        }
        definitions += geoPackage?.trailingDefinitions ?? []
        for foreignKey in table.foreignKeys {
            definitions.append("FOREIGN KEY (\(quotedList(foreignKey.columns))) REFERENCES "
                               + "\(foreignKey.referencedTable.quotedDatabaseIdentifier) (\(quotedList(foreignKey.referencedColumns)))")
        }
        for lookup in table.lookups {
            definitions.append("FOREIGN KEY (\(lookup.foreignKey.quotedDatabaseIdentifier)) REFERENCES "
                               + "\(lookup.table.quotedDatabaseIdentifier) (\(PlanLookup.keyColumn.quotedDatabaseIdentifier))")
        }
        return "CREATE \(temporary ? "TEMP " : "")TABLE \(table.name.quotedDatabaseIdentifier) (\(definitions.joined(separator: ", ")))"
    }

    static func quotedList(_ names: [String]) -> String {
        names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    }

    func insert(_ batch: RowBatch) throws {
        if let lookupRowWriter { return try lookupRowWriter.insert(batch) }
        guard let insertStatement else { throw LoadError.unsupported("rows inserted into a table rebuilt from itself") }
        try SQLiteBatchBinder.run(insertStatement, over: batch, geometry: geometry)
    }

    func finish(strict: Bool) throws -> [String] {
        let quotedTable = table.name.quotedDatabaseIdentifier
        let lookups = SQLiteLookups(db: db, table: table)
        if stagesRows {
            // The rows keep their order, so a row's rowid is still its number in the dataset.
            let staged = Set(try db.fetchAll(String.self, sql: "SELECT lower(name) FROM pragma_table_info('_socload_rows', 'temp')"))
            try lookups.addMissingValues(from: Self.stagingTable, columns: staged)
            let rows = lookups.writing.storedRows(table.storedColumns.map(\.name), relationColumns: staged)
            // A GeoPackage's geometry goes along from the old copy.
            let geometry = (geoPackage?.geometry?.name).flatMap { staged.contains($0.lowercased()) ? $0 : nil }
            let names = table.storedColumns.map(\.name) + (geometry.map { [$0] } ?? [])
            let select = rows.select + (geometry.map { ", \"s\".\($0.quotedDatabaseIdentifier)" } ?? "")
            try db.execute(sql: "INSERT INTO \(quotedTable) (\(Self.quotedList(names))) "
                                + "SELECT \(select) FROM \(Self.stagingTable) AS \"s\" \(rows.joins) ORDER BY \"s\".rowid")
            try db.execute(sql: "DROP TABLE \(Self.stagingTable)")
        }
        let previousCopy = Self.previousCopy(of: table.name)
        try comparison?.compare(newTable: quotedTable, oldTable: keepsPreviousCopy ? previousCopy.quotedDatabaseIdentifier : nil)
        // A copy that references lookup rows goes now: a prune may delete rows it still points
        // at, and nothing socload keeps may fail `PRAGMA foreign_key_check`.
        if keepsPreviousCopy, try db.fetchOne(Int.self, sql: "SELECT count(*) FROM pragma_foreign_key_list(?)",
                                              arguments: [previousCopy]) ?? 0 > 0 {
            try db.withoutSecureDelete { try db.execute(sql: "DROP TABLE \(previousCopy.quotedDatabaseIdentifier)") }
            keepsPreviousCopy = false
        }
        if keepsPreviousCopy {
            // Its indexes and triggers go now: their names are the new copy's.
            for object in try db.fetchAll(String.self, sql: "SELECT type || ' ' || name FROM sqlite_schema WHERE tbl_name = ? "
                                          + "AND type IN ('index', 'trigger') AND sql IS NOT NULL", arguments: [previousCopy]) {
                let parts = object.split(separator: " ", maxSplits: 1).map(String.init)
                try db.execute(sql: "DROP \(parts[0] == "index" ? "INDEX" : "TRIGGER") \(parts[1].quotedDatabaseIdentifier)")
            }
        }
        if !table.primaryKey.isEmpty {
            do {
                try db.execute(sql: "CREATE UNIQUE INDEX \(SQLiteTypes.keyIndexName(table).quotedDatabaseIdentifier) "
                                    + "ON \(quotedTable) (\(Self.quotedList(table.primaryKey)))")
            } catch let error as DatabaseError where error.resultCode == SQLITE_CONSTRAINT {
                throw try duplicateKey() ?? error
            }
        }
        for index in table.indexes {
            try db.execute(sql: "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.name.quotedDatabaseIdentifier) "
                                + "ON \(quotedTable) (\(Self.quotedList(index.columns)))")
        }
        try lookups.finishRows()
        try SQLiteFullText(db: db, table: table)?.build()
        // A table rebuilt from itself (extract) has its extent measured after.
        if let geoPackage { try GeoPackageFile.register(geoPackage, db: db, extent: stagesRows ? nil : geometry?.extent) }
        var notes = geometry?.notes(table: table.name) ?? []
        for object in userObjects {
            do {
                try db.withSavepoint(named: "socload_user_object") { try db.execute(sql: object.sql) }
            } catch {
                let reason = (error as? DatabaseError)?.message ?? "\(error)"
                let note = "your \(object.kind) \(object.name) on \(table.name) could not be rebuilt (\(reason))"
                if strict { throw LoadError.userObjectLost(note) }
                notes.append(note + "; skipped")
            }
        }
        return notes
    }

    /// The first duplicate key with the numbers of its first two rows (rows are inserted in
    /// order into a new table, so a row's rowid is its number).
    private func duplicateKey() throws -> LoadError? {
        let columns = Self.quotedList(table.primaryKey)
        let quotedTable = table.name.quotedDatabaseIdentifier
        guard let first = try db.fetchRows(sql: """
            SELECT min(rowid), \(columns) FROM \(quotedTable) GROUP BY \(columns) HAVING count(*) > 1
            ORDER BY min(rowid) LIMIT 1
            """).first, case .integer(let firstRow) = first[0] else { return nil }
        let values = Array(first.values.dropFirst())
        let matches = table.primaryKey.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        let second = try db.fetchValue(sql: "SELECT min(rowid) FROM \(quotedTable) WHERE \(matches) AND rowid > ?",
                                       arguments: StatementArguments(positional: values + [.integer(firstRow)]))
        guard case .integer(let secondRow)? = second else { return nil }
        return table.duplicateKeyError(values: values.map(Self.text), rows: [Int(firstRow), Int(secondRow)])
    }

    /// A key value as text (nil: NULL).
    private static func text(_ value: DatabaseValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return text
        case .blob: return "a blob"
        }
    }
}
