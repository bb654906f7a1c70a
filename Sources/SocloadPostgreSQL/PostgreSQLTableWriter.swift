import SocloadCore

/// Writes a new copy of a plan table: creates it under a temporary name (the old table stays
/// readable), streams the rows in by binary COPY, then builds the key and the plan's indexes and
/// swaps it in for the old table (`PostgreSQLTableSwap`), keeping what the user built on that.
final class PostgreSQLTableWriter: TableWriter {
    private let transaction: PostgreSQLLoadTransaction
    private let table: PlanTable
    private let previous: PlanTable?
    private let newName: String
    private var encoder: PostgreSQLCopyEncoder
    private let geometries: [PostgreSQLGeometryColumn]
    private let buffer = CopyBuffer()
    /// The dataset row number of the first row of the open COPY (for its errors' line numbers).
    private var copyFirstRow = 1

    /// Where the COPY goes: the new table, or, for a table with lookups, a staging table whose
    /// rows reach the new table joined to the lookups.
    private let copyTarget: String
    /// The relation the rows of a table with lookups come from (staging, or the table itself).
    private let rowSource: RowSource?

    enum RowSource {
        /// A table the COPY fills (its quoted name, `makeStagingTable`), numbered in order by `_socload_order`.
        case staging(String)
        /// The table as it is now (`socload extract`).
        case existingTable
    }

    /// Starts the new copy. With `rowsFromExistingTable`, its rows are those of the table as it
    /// is now (`socload extract`: a table rebuilt with one more lookup), not COPY batches.
    /// Compares the new copy with the old one before the swap (a refresh's row changes).
    private let comparison: (any PreviousCopyComparing)?
    /// False when the table's full-text index keeps accents (the database has no `unaccent`).
    private var fullTextFoldsAccents = true
    /// The table's places that get no geometry column because the database has no PostGIS.
    private var placesWithoutPostGIS: [String] = []

    init(transaction: PostgreSQLLoadTransaction, table: PlanTable, previous: PlanTable?,
         rowsFromExistingTable: Bool = false, comparison: (any PreviousCopyComparing)? = nil) throws {
        self.transaction = transaction
        self.comparison = comparison
        self.table = table
        self.previous = previous
        newName = transaction.temporaryName("new")
        let postGIS = try transaction.postGISSchema()
        var geometries = PostgreSQLGeometryColumn.columns(for: table, postGISSchema: postGIS)
        if postGIS == nil, !rowsFromExistingTable { placesWithoutPostGIS = PlanGeometry.all(in: table).map(\.sourceColumn) }
        if rowsFromExistingTable {
            let existing = Set(try PostgreSQLLookups.columnNames(of: transaction.qualified(table.name), transaction: transaction))
            geometries = geometries.filter { existing.contains($0.name) }
        }
        self.geometries = geometries
        encoder = PostgreSQLCopyEncoder(table: table, geometries: geometries)
        for lookup in table.lookups { try PostgreSQLLookups(transaction: transaction, table: table).ensureTable(lookup) }
        if table.fullText != nil { fullTextFoldsAccents = try PostgreSQLFullText.prepareFunction(transaction) }
        try transaction.execute(Self.createTableSQL(table, as: transaction.qualified(newName), geometries: geometries,
                                                    postGISSchema: postGIS, schema: transaction.schema))
        transaction.newTableNames[table.name] = transaction.qualified(newName)
        if let column = table.distributionColumn {
            try transaction.distribute(transaction.qualified(newName), by: column, table: table)
        }
        // After the new copy, which a distributed table's staging goes with.
        if rowsFromExistingTable {
            rowSource = .existingTable
        } else if !table.lookups.isEmpty {
            rowSource = .staging(try transaction.makeStagingTable("rows", for: table, geometries: geometries, postGISSchema: postGIS))
        } else {
            rowSource = nil
        }
        if case .staging(let staging) = rowSource {
            copyTarget = staging
        } else {
            copyTarget = transaction.qualified(newName)
        }
    }

    /// `CREATE TABLE` with the columns' PostgreSQL types; key columns are NOT NULL, so an empty
    /// key stops the COPY at its row, and a text key compares bytes (`COLLATE "C"`, as SQLite
    /// does): a key of opaque ids needs no locale, and its index builds several times faster.
    /// The key itself is added after the rows. With a full-text index (and the `schema` of its
    /// function), the generated `_search` column (`PostgreSQLFullText`).
    static func createTableSQL(_ table: PlanTable, as qualifiedName: String, geometries: [PostgreSQLGeometryColumn] = [],
                               postGISSchema: String? = nil, schema: String? = nil) -> String {
        let key = Set(table.primaryKey)
        let definitions = table.storedColumns.map { column in
            "\(column.name.quotedDatabaseIdentifier) \(PostgreSQLTypes.declaredType(column.type))"
                + (key.contains(column.name) ? (column.type == .text ? " COLLATE \"C\" NOT NULL" : " NOT NULL") : "")
        } + geometries.map { "\($0.name.quotedDatabaseIdentifier) \($0.declaredType(postGISSchema: postGISSchema ?? "public"))" }
            + (table.fullText.flatMap { fullText in schema.map { [PostgreSQLFullText.columnDefinition(fullText, schema: $0)] } } ?? [])
        return "CREATE TABLE \(qualifiedName) (\(definitions.joined(separator: ", ")))"
    }

    static func quotedList(_ names: [String]) -> String {
        names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    }

    func insert(_ batch: RowBatch) throws {
        guard batch.rowCount > 0 else { return }
        let connection = transaction.connection
        if try transaction.openBinaryCopy(into: copyTarget, columns: table.columns.map(\.name) + geometries.map(\.name)) {
            copyFirstRow = batch.firstRowNumber
            buffer.removeAll()
            buffer.write(PostgreSQLCopyEncoder.header)
        } else {
            buffer.removeAll()
        }
        try encoder.encode(batch, into: buffer)
        do {
            try connection.sendCopyData(buffer.bytes)
        } catch let error as PostgreSQLError {
            throw describe(error)
        }
    }

    /// A server error during the COPY with the dataset's row number and the column named:
    /// `COPY t, line 3, column n` counts lines of this COPY, which may have started mid-dataset.
    private func describe(_ error: PostgreSQLError) -> any Error {
        guard let context = error.context, let lineRange = context.range(of: ", line ") else { return error }
        let digits = context[lineRange.upperBound...].prefix { $0.isNumber }
        guard let line = Int(digits) else { return error }
        let row = copyFirstRow + line - 1
        var column: String?
        if let columnRange = context.range(of: ", column ") {
            column = String(context[columnRange.upperBound...].prefix { $0 != ":" })
        }
        if error.sqlState == "23502", let column {
            return LoadError.nullKey(table: table.name, column: column, row: row)
        }
        return PostgreSQLError(sqlState: error.sqlState, message: error.message, detail: error.detail,
                               context: "row \(row)" + (column.map { ", column \($0)" } ?? ""), sql: nil)
    }

    func finish(strict: Bool) throws -> [String] {
        do {
            try transaction.pauseCopy()
        } catch let error as PostgreSQLError {
            throw describe(error)
        }
        let newTable = transaction.qualified(newName)
        let keyName = transaction.temporaryName("key")
        let lookups = PostgreSQLLookups(transaction: transaction, table: table)
        if let rowSource {
            let relation: String
            switch rowSource {
            case .staging(let name): relation = name
            case .existingTable: relation = transaction.qualified(table.name)
            }
            let present = Set(try PostgreSQLLookups.columnNames(of: relation, transaction: transaction))
            try lookups.addMissingValues(from: relation, columns: present)
            let columns = table.storedColumns.map(\.name) + geometries.map(\.name)
            let rows = lookups.writing.storedRows(columns, relationColumns: present)
            // No ORDER BY: sorting a whole dataset would spill to disk; a duplicate key's row
            // numbers come from the staging table's `_socload_order` instead.
            try transaction.execute("INSERT INTO \(newTable) (\(Self.quotedList(columns))) SELECT \(rows.select) FROM \(relation) AS \"s\" "
                                    + rows.joins)
        }

        if !table.primaryKey.isEmpty {
            do {
                try transaction.execute("SAVEPOINT socload_key")
                try transaction.execute("ALTER TABLE \(newTable) ADD CONSTRAINT \(keyName.quotedDatabaseIdentifier) "
                                        + "PRIMARY KEY (\(Self.quotedList(table.primaryKey)))")
                try transaction.execute("RELEASE SAVEPOINT socload_key")
            } catch let error as PostgreSQLError where error.sqlState == "23505" {
                try transaction.execute("ROLLBACK TO SAVEPOINT socload_key")
                if case .staging(let staging)? = rowSource {
                    throw try duplicateKey(in: staging, rowNumber: "\"_socload_order\"") ?? error
                }
                throw try duplicateKey(in: newTable) ?? error
            }
        }
        if case .staging(let staging)? = rowSource { try transaction.dropStaging(staging, for: table) }
        var indexNames: [(temporary: String, final: String)] = []
        for index in table.indexes {
            let name = transaction.temporaryName("index")
            try transaction.execute("CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(name.quotedDatabaseIdentifier) "
                                    + "ON \(newTable) (\(Self.quotedList(index.columns)))")
            indexNames.append((name, index.name))
        }
        if table.fullText != nil {
            let name = transaction.temporaryName("search")
            try transaction.execute("CREATE INDEX \(name.quotedDatabaseIdentifier) ON \(newTable) USING gin "
                                    + "(\(PlanFullText.postgreSQLColumn.quotedDatabaseIdentifier))")
            indexNames.append((name, PostgreSQLFullText.indexName(of: table)))
        }
        for geometry in geometries {
            let name = transaction.temporaryName("gist")
            try transaction.execute("CREATE INDEX \(name.quotedDatabaseIdentifier) ON \(newTable) USING gist "
                                    + "(\(geometry.name.quotedDatabaseIdentifier))")
            indexNames.append((name, geometry.indexName(table: table.name)))
        }
        if !table.primaryKey.isEmpty {
            indexNames.append((keyName, PostgreSQLTableSwap.keyName(of: table)))
        }
        if let comparison {
            let target = transaction.qualified(table.name)
            let oldExists = try transaction.value("SELECT c.relkind::text FROM pg_class c WHERE c.oid = to_regclass($1)", [target])
                .map { $0 == "r" || $0 == "p" } ?? false
            try comparison.compare(newTable: newTable, oldTable: oldExists ? target : nil)
        }
        let swap = PostgreSQLTableSwap(transaction: transaction, table: table, previous: previous, newName: newName,
                                       ownedIndexes: indexNames)
        let notes = try swap.run(strict: strict)
        try describe()
        try lookups.finishRows()
        try addForeignKeys()
        let accents = fullTextFoldsAccents ? [] : ["the full-text index of \(table.name) matches accents as written: this database "
                                                   + "has no unaccent extension (CREATE EXTENSION unaccent, then fetch it again with "
                                                   + "--force, to match as SQLite does)"]
        let places = placesWithoutPostGIS
        let noPostGIS = places.isEmpty ? [] : ["\(table.name): \(places.shortList()) \(places.count == 1 ? "gets" : "get") no geometry "
            + "column: this database has no PostGIS (install postgresql-15-postgis-3 or your PostgreSQL's PostGIS package, "
            + "then CREATE EXTENSION postgis and fetch it again with --force)"]
        return encoder.geometryNotes(table: table.name) + notes + accents + noPostGIS
    }

    /// `COMMENT ON` the table and its columns from the portal's descriptions, unless the
    /// table has a comment of the user's (kept by the swap).
    private func describe() throws {
        guard let descriptions = table.descriptions else { return }
        let target = transaction.qualified(table.name)
        if let text = descriptions.table,
           try transaction.value("SELECT obj_description(to_regclass($1), 'pg_class')", [target]) == nil {
            try PostgreSQLComment.set(on: "TABLE \(target)", to: text) { try transaction.execute($0, $1) }
        }
        let stored = Set(table.storedColumns.map(\.name))
        for (column, text) in descriptions.columns.sorted(by: { $0.key < $1.key }) where stored.contains(column) {
            try PostgreSQLComment.set(on: "COLUMN \(target).\(column.quotedDatabaseIdentifier)", to: text) { try transaction.execute($0, $1) }
        }
    }

    /// The name of a table's `index`-th foreign key (from 1) of the plan's: socload's own.
    static func foreignKeyName(table: String, index: Int) -> String {
        LoadPlan.shortenedName("_socload_fk_\(table)_\(index)", toBytes: 63)
    }

    /// The plan's foreign keys (a child table's to its parent), made once both tables have their
    /// final names.
    private func addForeignKeys() throws {
        let target = transaction.qualified(table.name)
        for (index, foreignKey) in table.foreignKeys.enumerated() {
            let name = Self.foreignKeyName(table: table.name, index: index + 1)
            guard try transaction.value("SELECT count(*) FROM pg_constraint WHERE conrelid = to_regclass($1) AND conname = $2",
                                        [target, name]) == "0" else { continue }
            try transaction.execute("ALTER TABLE \(target) ADD CONSTRAINT \(name.quotedDatabaseIdentifier) FOREIGN KEY "
                                    + "(\(Self.quotedList(foreignKey.columns))) REFERENCES \(transaction.qualified(foreignKey.referencedTable)) "
                                    + "(\(Self.quotedList(foreignKey.referencedColumns)))")
        }
    }

    /// The first duplicate key, with the row numbers of its first two rows: by default the new
    /// table's physical order, since COPY filled it in dataset order; a staging table numbers
    /// its rows itself.
    private func duplicateKey(in relation: String, rowNumber: String = "row_number() OVER (ORDER BY ctid)") throws -> LoadError? {
        let columns = Self.quotedList(table.primaryKey)
        let result = try transaction.execute("""
            WITH numbered AS (SELECT \(columns), \(rowNumber) AS socload_row FROM \(relation))
            SELECT (array_agg(socload_row ORDER BY socload_row))[1:2]::text, \(table.primaryKey.map { "min(\($0.quotedDatabaseIdentifier)::text)" }.joined(separator: ", "))
            FROM numbered GROUP BY \(columns) HAVING count(*) > 1 ORDER BY min(socload_row) LIMIT 1
            """)
        guard let row = result.rows.first, let rows = row[0] else { return nil }
        let numbers = rows.trimmingCharacters(in: ["{", "}"]).split(separator: ",").compactMap { Int($0) }
        return table.duplicateKeyError(values: Array(row.dropFirst()), rows: numbers)
    }
}
