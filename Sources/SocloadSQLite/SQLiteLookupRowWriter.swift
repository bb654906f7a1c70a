import SocloadCore
import CSQLite
import SocloadDatabase

/// Inserts the rows of a table with lookups straight into the table, each with its lookups'
/// foreign keys found (or the lookup row created) as the rows stream: the rows are written once,
/// not staged and copied by a join after them. A value met before is found in a
/// `LookupValueCache`; one not met yet by the lookup's unique index (a lookup kept from the last
/// load keeps its ids), and one not there is added, so a new value's id follows the order in
/// which the rows bring it. Counts and pruning are set-based after the rows, as before.
final class SQLiteLookupRowWriter {
    /// Where each stored column's value comes from.
    private enum Source {
        case cell(Int)
        case lookup(Int)
    }

    private let insert: Statement
    private let sources: [Source]
    private let resolvers: [Resolver]
    /// A GeoPackage's geometry, bound after the stored columns.
    private let geometry: SQLiteGeometryBinder?

    /// Prepares the statements; the lookup tables must exist (`SQLiteLookups.ensureTable`).
    init(db: Database, table: PlanTable, writing: LookupWriting, geometry: SQLiteGeometryBinder? = nil) throws {
        self.geometry = geometry
        let columnIndex = Dictionary(table.columns.enumerated().map { ($0.element.name.lowercased(), $0.offset) },
                                     uniquingKeysWith: { first, _ in first })
        var resolvers: [Resolver] = []
        var sources: [Source] = []
        for column in table.storedColumns {
            if let lookup = table.lookups.first(where: { $0.foreignKey.lowercased() == column.name.lowercased() }) {
                let cells = lookup.columns.compactMap { columnIndex[$0.name.lowercased()] }
                guard cells.count == lookup.columns.count else {
                    throw LoadError.unsupported("the rows of \(table.name) lack a column of its lookup \(lookup.table)")
                }
                sources.append(.lookup(resolvers.count))
                resolvers.append(try Resolver(db: db, lookup: lookup, statements: writing.statements(lookup), cells: cells))
            } else if let cell = columnIndex[column.name.lowercased()] {
                sources.append(.cell(cell))
            } else {
                throw LoadError.unsupported("the rows of \(table.name) lack its column \(column.name)")
            }
        }
        self.sources = sources
        self.resolvers = resolvers
        let stored = table.storedColumns.map(\.name) + (geometry.map { [$0.place.name] } ?? [])
        let names = stored.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: stored.count).joined(separator: ", ")
        insert = try db.makeStatement(sql: "INSERT INTO \(table.name.quotedDatabaseIdentifier) (\(names)) VALUES (\(placeholders))")
    }

    /// Inserts every row of `batch`; a constraint failure names the row.
    func insert(_ batch: RowBatch) throws {
        try SQLiteBatchBinder.runEachRow(insert, of: batch, binding: { row, arena in
            let first = row * batch.columnCount
            insert.reset()
            for (index, source) in sources.enumerated() {
                let parameter = Int32(index + 1)
                switch source {
                case .cell(let cell):
                    try SQLiteBatchBinder.bind(batch.values[first + cell], of: batch, arena: arena, at: parameter, to: insert)
                case .lookup(let resolver):
                    let id = try resolvers[resolver].id(ofRow: row, in: batch, arena: arena)
                    let code = id.map { sqlite3_bind_int64(insert.handle, parameter, $0) } ?? sqlite3_bind_null(insert.handle, parameter)
                    if code != SQLITE_OK { throw DatabaseError(extendedResultCode: code, message: "cannot bind a value", sql: insert.sql) }
                }
            }
            try geometry?.bind(row: row, of: batch, arena: arena, at: Int32(sources.count + 1), to: insert)
        })
    }

    /// One lookup's find-or-create.
    private final class Resolver {
        private let db: Database
        private let lookup: PlanLookup
        private let cells: [Int]
        private let find: Statement
        private let add: Statement
        /// 4 MB per lookup at most.
        private var cache = LookupValueCache(maximumBytes: 4 << 20)

        init(db: Database, lookup: PlanLookup, statements: LookupStatements, cells: [Int]) throws {
            self.db = db
            self.lookup = lookup
            self.cells = cells
            find = try db.makeStatement(sql: "SELECT \"l\".\(statements.key) FROM \(statements.lookupTable) AS \"l\" "
                                        + "WHERE \(statements.matchParameters(lookup: "\"l\""))")
            add = try db.makeStatement(sql: "INSERT OR IGNORE INTO \(statements.lookupTable) (\(statements.valueList)) VALUES ("
                                       + (1...cells.count).map { "?\($0)" }.joined(separator: ", ") + ")")
        }

        /// The id of the lookup row holding the value of `row`; nil when the value is NULL in
        /// every column (no value).
        func id(ofRow row: Int, in batch: RowBatch, arena: UnsafeBufferPointer<UInt8>) throws -> Int64? {
            let first = row * batch.columnCount
            cache.beginKey()
            var hasValue = false
            for cell in cells {
                let value = batch.values[first + cell]
                if !value.isNull { hasValue = true }
                cache.appendToKey(value, arena: arena)
            }
            guard hasValue else { return nil }
            if let id = cache.cachedID() { return id }
            let id = try findOrAdd(row: first, in: batch, arena: arena, rowNumber: batch.firstRowNumber + row)
            cache.remember(id)
            return id
        }

        private func findOrAdd(row first: Int, in batch: RowBatch, arena: UnsafeBufferPointer<UInt8>, rowNumber: Int) throws -> Int64 {
            func bindValue(to statement: Statement) throws {
                statement.reset()
                for (index, cell) in cells.enumerated() {
                    try SQLiteBatchBinder.bind(batch.values[first + cell], of: batch, arena: arena, at: Int32(index + 1), to: statement)
                }
            }
            defer {
                // Nothing may keep pointing into the arena.
                for statement in [find, add] {
                    statement.reset()
                    statement.clearBindings()
                }
            }
            try bindValue(to: find)
            if try find.step() { return sqlite3_column_int64(find.handle, 0) }
            try bindValue(to: add)
            try add.step()
            guard db.changesCount == 1 else {
                throw LoadError.unsupported("row \(rowNumber): its value for the lookup \(lookup.table) matches one of its rows "
                                            + "only after conversion; load without that --extract")
            }
            return db.lastInsertedRowID
        }
    }
}
