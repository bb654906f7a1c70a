import SocloadCore

/// Writing `Encodable` records by column name on PostgreSQL, as SQLite's `Database` writes them:
/// each property stored in the column of its name, checked against the table's columns first;
/// values bound, names quoted. Each call is its own statement (its own transaction).
///
///     struct Agency: Codable { var id: Int64?; var name: String; var nominations: Int }
///     let id = try database.insert(Agency(id: nil, name: "State", nominations: 0), into: "agencies")  // its identity id
///     let labor = try database.findOrCreate(Agency(id: nil, name: "Labor", nominations: 0), in: "agencies", by: ["name"])
///     try database.upsert(Agency(id: nil, name: "State", nominations: 3), into: "agencies", by: ["name"])
///     try database.update(Agency(id: nil, name: "State", nominations: 4), in: "agencies", by: ["name"])
///     try database.delete(from: "agencies", matching: .equals("nominations", 0))
///
/// A property with no column, a value its column cannot hold (text that is no number in a
/// numeric column, a blob in any but `bytea`), or an upsert key that is not unique is a
/// `RecordWriteError`, as on SQLite; a primary key the record leaves nil (`id: nil`) is left to
/// the column's default (an identity or serial), and kept by an upsert or update.
extension PostgreSQLDatabase {
    /// Inserts the record as a new row; the new row's key when the table is keyed by one
    /// integer column (an identity or serial the database filled in, as SQLite's row id), else nil.
    @discardableResult
    public func insert<T: Encodable>(_ record: T, into table: String) throws -> Int64? {
        let (values, key, keyColumns) = try checkedValues(of: record, in: table)
        let inserted = values.filter { !(key.contains($0.column.lowercased()) && $0.value == .null) }
        let sql = inserted.isEmpty ? "INSERT INTO \(qualified(table)) DEFAULT VALUES"
            : "INSERT INTO \(qualified(table)) (\(Self.list(inserted))) VALUES (\(Self.placeholders(inserted.count)))"
        guard keyColumns.count == 1 else {
            try write(sql, inserted.map(\.value))
            return nil
        }
        let returned = try connection.value(sql + " RETURNING \(keyColumns[0].quotedDatabaseIdentifier)::text",
                                            inserted.map(\.value).map(Self.parameterText))
        return returned.flatMap { Int64($0) }
    }

    /// The row whose `keyColumns` hold the record's values (NULL matches NULL), decoded; when
    /// there is none, the record is inserted and the new row is returned, with what the database
    /// filled in (an identity id, a default), as SQLite's `Database.findOrCreate` does.
    public func findOrCreate<T: Codable>(_ record: T, in table: String, by keyColumns: [String]) throws -> T {
        let (values, _, primaryKey) = try checkedValues(of: record, in: table)
        guard !keyColumns.isEmpty else { throw RecordWriteError.noKey(table: table) }
        var matches: [RowFilter] = []
        for column in keyColumns {
            guard let value = values.first(where: { $0.column.lowercased() == column.lowercased() })?.value else {
                throw RecordWriteError.keyNotInRecord(column: column, table: table)
            }
            matches.append(.equals(column, value))
        }
        if let found = try fetchAll(T.self, from: table, where: .all(matches), limit: 1).first { return found }
        let id = try insert(record, into: table)
        let created = try id.map { try fetchAll(T.self, from: table, where: .equals(primaryKey[0], $0), limit: 1) }
            ?? fetchAll(T.self, from: table, where: .all(matches), limit: 1)
        return created.first ?? record
    }

    /// Inserts the record, or updates the row whose `keyColumns` hold its values (which must be
    /// the table's key or unique together).
    public func upsert<T: Encodable>(_ record: T, into table: String, by keyColumns: [String]) throws {
        let (values, key, _) = try checkedValues(of: record, in: table)
        let inserted = values.filter { !(key.contains($0.column.lowercased()) && $0.value == .null) }
        let updates = try updated(values, keyColumns: keyColumns, primaryKey: key, table: table)
            .map { "\($0.column.quotedDatabaseIdentifier) = EXCLUDED.\($0.column.quotedDatabaseIdentifier)" }
        let sql = "INSERT INTO \(qualified(table)) (\(Self.list(inserted))) VALUES (\(Self.placeholders(inserted.count))) "
            + "ON CONFLICT (\(keyColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) DO "
            + (updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", "))
        do {
            try write(sql, inserted.map(\.value))
        } catch let error as PostgreSQLError where error.sqlState == "42P10" {
            throw RecordWriteError.notUnique(table: table, columns: keyColumns)
        }
    }

    /// Writes the record's properties over the rows whose `keyColumns` hold its values (NULL
    /// matches NULL); the number of rows changed, 0 when none has that key.
    @discardableResult
    public func update<T: Encodable>(_ record: T, in table: String, by keyColumns: [String]) throws -> Int {
        let (values, key, _) = try checkedValues(of: record, in: table)
        let changed = try updated(values, keyColumns: keyColumns, primaryKey: key, table: table)
        guard !changed.isEmpty else { return 0 }
        let keyValues = keyColumns.map { name in values.first { $0.column.lowercased() == name.lowercased() }?.value ?? .null }
        let sets = changed.enumerated().map { "\($0.element.column.quotedDatabaseIdentifier) = $\($0.offset + 1)" }
        let matches = keyColumns.enumerated().map {
            "\($0.element.quotedDatabaseIdentifier) IS NOT DISTINCT FROM $\(changed.count + $0.offset + 1)"
        }
        return try changing("UPDATE \(qualified(table)) SET \(sets.joined(separator: ", ")) WHERE \(matches.joined(separator: " AND "))",
                         changed.map(\.value) + keyValues)
    }

    /// Deletes the rows where `predicate` holds (its columns checked first); how many went.
    @discardableResult
    public func delete(from table: String, matching predicate: RowFilter) throws -> Int {
        let condition = try checkedSelect(from: table, where: predicate).condition
        return try changing("DELETE FROM \(qualified(table))" + (condition.map { " WHERE \($0.sql)" } ?? ""), condition?.arguments ?? [])
    }

    // MARK: - Checks

    /// The record's values, each checked against its column, and the table's primary key
    /// (lowercased).
    private func checkedValues<T: Encodable>(of record: T, in table: String) throws
        -> (values: [(column: String, value: DatabaseValue)], primaryKey: Set<String>, keyColumns: [String]) {
        let columns = try self.columns(of: table)
        guard !columns.isEmpty else { throw RecordWriteError.noSuchTable(table) }
        let declared = Dictionary(columns.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var values = try RowEncoder.encode(record)
        for (index, (property, value)) in values.enumerated() {
            guard let column = declared[property.lowercased()] else {
                throw RecordWriteError.noSuchColumn(property: property, table: table, columns: columns.map(\.name))
            }
            if let problem = Self.problem(storing: value, inColumnOfType: column.type) {
                throw RecordWriteError.typeMismatch(column: column.name, table: table, declaredType: column.type, problem: problem)
            }
            values[index].column = column.name
        }
        let keyColumns = columns.filter { $0.keyPosition > 0 }.sorted { $0.keyPosition < $1.keyPosition }.map(\.name)
        return (values, Set(keyColumns.map { $0.lowercased() }), keyColumns)
    }

    private func updated(_ values: [(column: String, value: DatabaseValue)], keyColumns: [String], primaryKey: Set<String>,
                         table: String) throws -> [(column: String, value: DatabaseValue)] {
        guard !keyColumns.isEmpty else { throw RecordWriteError.noKey(table: table) }
        let present = Set(values.map { $0.column.lowercased() })
        for column in keyColumns where !present.contains(column.lowercased()) {
            throw RecordWriteError.keyNotInRecord(column: column, table: table)
        }
        let key = Set(keyColumns.map { $0.lowercased() })
        return values.filter { !key.contains($0.column.lowercased()) }
            .filter { !(primaryKey.contains($0.column.lowercased()) && $0.value == .null) }
    }

    /// What is wrong with storing the value in a column of this PostgreSQL type, or nil.
    static func problem(storing value: DatabaseValue, inColumnOfType type: String) -> String? {
        let numeric = ["smallint", "integer", "bigint", "numeric", "real", "double precision"].contains { type.hasPrefix($0) }
        switch value {
        case .text(let text) where numeric:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return Int64(trimmed) != nil || Double(trimmed) != nil ? nil
                : "the text \(text.count > 40 ? String(text.prefix(40)) + "…" : text) is not a number"
        case .blob where type != "bytea":
            return "a blob (Data) cannot be stored as \(type)"
        default:
            return nil
        }
    }

    /// Runs a write with its values bound.
    private func write(_ sql: String, _ values: [DatabaseValue]) throws {
        try connection.execute(sql, values.map(Self.parameterText))
    }

    /// Runs an UPDATE or DELETE with its values bound; the number of rows it changed (one
    /// `RETURNING 1` row each).
    private func changing(_ sql: String, _ values: [DatabaseValue]) throws -> Int {
        try connection.execute(sql + " RETURNING 1", values.map(Self.parameterText)).rows.count
    }

    private static func list(_ values: [(column: String, value: DatabaseValue)]) -> String {
        values.map(\.column.quotedDatabaseIdentifier).joined(separator: ", ")
    }

    private static func placeholders(_ count: Int) -> String {
        (0..<count).map { "$\($0 + 1)" }.joined(separator: ", ")
    }
}
