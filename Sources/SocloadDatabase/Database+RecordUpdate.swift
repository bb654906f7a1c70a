/// Changing and counting rows without writing SQL: `update` writes a record over the row its
/// key columns find, `delete` and `count` take a `RowFilter`, with the columns checked first, as
/// `insert`, `upsert` and `fetchAll(from:where:)` check theirs.
///
///     struct Agency: Codable { var id: Int64?; var name: String; var nominations: Int }
///     try db.update(Agency(id: nil, name: "State", nominations: 4), in: "agencies", by: ["name"])
///     let busy = try db.count(in: "agencies", matching: .greaterThan("nominations", 3))
///     let removed = try db.delete(from: "agencies", matching: .equals("nominations", 0))
///
/// A property with no column, or a value its column cannot hold, is a `RecordWriteError`; a
/// condition on a column the table lacks is a `SelectError` naming the table's columns. Nothing
/// is changed then.
extension Database {
    /// Writes the record's properties over the row(s) whose `keyColumns` hold the record's values
    /// (NULL matches NULL), but a primary-key column the record leaves nil (an `id: nil`), which
    /// the row keeps. Returns the number of rows changed: 0 when no row has that key.
    @discardableResult
    public func update<T: Encodable>(_ record: T, in table: String, by keyColumns: [String]) throws -> Int {
        let values = try checkedValues(of: record, in: table)
        let changed = try updatedValues(values, keyColumns: keyColumns, in: table)
        guard !changed.isEmpty else { return 0 }
        let keyValues = keyColumns.map { name in values.first { $0.column.lowercased() == name.lowercased() }?.value ?? .null }
        let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier) IS ?" }.joined(separator: " AND ")
        try execute(sql: "UPDATE \(table.quotedDatabaseIdentifier) SET "
                         + changed.map { "\($0.column.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")
                         + " WHERE \(condition)",
                    arguments: StatementArguments(positional: changed.map(\.value) + keyValues))
        return changesCount
    }

    /// Deletes the rows of `table` where `predicate` holds (every row with `.all([])`); returns
    /// how many went.
    @discardableResult
    public func delete(from table: String, matching predicate: RowFilter) throws -> Int {
        let condition = try checkedSelect(from: table, where: predicate).condition
        try execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)" + (condition.map { " WHERE \($0.sql)" } ?? ""),
                    arguments: StatementArguments(positional: condition?.arguments ?? []))
        return changesCount
    }

    /// The number of rows of `table` where `predicate` holds (all rows by default).
    public func count(in table: String, matching predicate: RowFilter = .all([])) throws -> Int {
        let condition = try checkedSelect(from: table, where: predicate).condition
        let value = try fetchValue(sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)"
                                        + (condition.map { " WHERE \($0.sql)" } ?? ""),
                                   arguments: StatementArguments(positional: condition?.arguments ?? []))
        guard case .integer(let count)? = value else { return 0 }
        return Int(count)
    }
}
