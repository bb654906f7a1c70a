/// Writing `Encodable` records by column name, the counterpart of `fetchAll(_:sql:)`: each
/// property is stored in the column of the same name (compared as SQLite compares names).
///
///     struct Agency: Codable { var id: Int64?; var name: String; var nominations: Int }
///     try db.insert(Agency(id: nil, name: "State", nominations: 0), into: "agencies")
///     try db.upsert(Agency(id: nil, name: "State", nominations: 3), into: "agencies", by: ["name"])
///     let state = try db.findOrCreate(Agency(id: nil, name: "State", nominations: 0), in: "agencies", by: ["name"])
///
/// A property with no column, or a value its column cannot hold (text that is no number in an
/// INTEGER or REAL column, a blob in a TEXT one), is a `RecordWriteError` naming the column;
/// nothing is written then.
extension Database {
    /// Inserts the record as a new row; returns its rowid.
    @discardableResult
    public func insert<T: Encodable>(_ record: T, into table: String) throws -> Int64 {
        let values = try checkedValues(of: record, in: table)
        try execute(sql: "INSERT INTO \(table.quotedDatabaseIdentifier) (\(Self.columnList(values))) "
                         + "VALUES (\(Self.placeholders(values.count)))",
                    arguments: StatementArguments(positional: values.map(\.value)))
        return lastInsertedRowID
    }

    /// Inserts the record, or, when a row with the same values in `keyColumns` exists, updates
    /// that row's other columns from it — except a primary-key column the record leaves nil (an
    /// `id: nil`), which keeps the row's id. The key columns must be the table's key or unique
    /// together (`RecordWriteError.notUnique` otherwise).
    public func upsert<T: Encodable>(_ record: T, into table: String, by keyColumns: [String]) throws {
        let values = try checkedValues(of: record, in: table)
        let updates = try updatedValues(values, keyColumns: keyColumns, in: table)
            .map { "\($0.column.quotedDatabaseIdentifier) = excluded.\($0.column.quotedDatabaseIdentifier)" }
        let sql = "INSERT INTO \(table.quotedDatabaseIdentifier) (\(Self.columnList(values))) VALUES (\(Self.placeholders(values.count))) "
            + "ON CONFLICT (\(keyColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) DO "
            + (updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", "))
        do {
            try execute(sql: sql, arguments: StatementArguments(positional: values.map(\.value)))
        } catch let error as DatabaseError where error.message.contains("ON CONFLICT clause does not match") {
            throw RecordWriteError.notUnique(table: table, columns: keyColumns)
        }
    }

    /// The row whose `keyColumns` hold the record's values (NULL matches NULL), decoded; when there
    /// is none, the record is inserted and the new row is returned (with what the database filled
    /// in, such as an INTEGER PRIMARY KEY id or a default).
    public func findOrCreate<T: Codable>(_ record: T, in table: String, by keyColumns: [String]) throws -> T {
        let values = try checkedValues(of: record, in: table)
        _ = try keyNames(keyColumns, of: values, in: table)
        let keyValues = keyColumns.map { name in values.first { $0.column.lowercased() == name.lowercased() }!.value }
        let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier) IS ?" }.joined(separator: " AND ")
        if let found = try fetchOne(T.self, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE \(condition) LIMIT 1",
                                    arguments: StatementArguments(positional: keyValues)) {
            return found
        }
        let rowID = try insert(record, into: table)
        guard let created = try fetchOne(T.self, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE rowid = ?",
                                         arguments: [rowID]) else { return record }
        return created
    }

    // MARK: - Checks

    /// The record's values, each checked against its column.
    func checkedValues<T: Encodable>(of record: T, in table: String) throws -> [(column: String, value: DatabaseValue)] {
        let columns = try fetchRows(sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [table])
            .compactMap { row -> (String, String)? in
                guard case .text(let name) = row[0] else { return nil }
                if case .text(let type) = row[1] { return (name, type) }
                return (name, "")
            }
        guard !columns.isEmpty else { throw RecordWriteError.noSuchTable(table) }
        let declared = Dictionary(columns.map { ($0.0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let values = try RowEncoder.encode(record)
        for (column, value) in values {
            guard let (name, type) = declared[column.lowercased()] else {
                throw RecordWriteError.noSuchColumn(property: column, table: table, columns: columns.map(\.0))
            }
            if let problem = Self.problem(storing: value, inColumnOfType: type) {
                throw RecordWriteError.typeMismatch(column: name, table: table, declaredType: type, problem: problem)
            }
        }
        return values
    }

    /// The values a write by `keyColumns` changes in a row: all but the key's, and but a
    /// primary key the record leaves nil (an `id: nil` keeps the row's id).
    func updatedValues(_ values: [(column: String, value: DatabaseValue)], keyColumns: [String],
                       in table: String) throws -> [(column: String, value: DatabaseValue)] {
        let key = try keyNames(keyColumns, of: values, in: table)
        let primaryKey = Set(try fetchAll(String.self, sql: "SELECT lower(name) FROM pragma_table_info(?) WHERE pk > 0",
                                          arguments: [table]))
        return values.filter { !key.contains($0.column.lowercased()) }
            .filter { !(primaryKey.contains($0.column.lowercased()) && $0.value == .null) }
    }

    func keyNames(_ keyColumns: [String], of values: [(column: String, value: DatabaseValue)],
                          in table: String) throws -> Set<String> {
        guard !keyColumns.isEmpty else { throw RecordWriteError.noKey(table: table) }
        let present = Set(values.map { $0.column.lowercased() })
        for column in keyColumns where !present.contains(column.lowercased()) {
            throw RecordWriteError.keyNotInRecord(column: column, table: table)
        }
        return Set(keyColumns.map { $0.lowercased() })
    }

    /// What is wrong with storing the value in a column of this declared type (SQLite's affinity
    /// rules), or nil: text that is no number in an INTEGER, REAL or NUMERIC column, a blob in a
    /// TEXT one, a number in neither is fine.
    static func problem(storing value: DatabaseValue, inColumnOfType type: String) -> String? {
        let upper = type.uppercased()
        let numeric = upper.contains("INT") || upper.contains("REAL") || upper.contains("FLOA") || upper.contains("DOUB")
            || upper.contains("NUM") || upper.contains("DEC") || upper.contains("BOOL")
        let textual = upper.contains("CHAR") || upper.contains("CLOB") || upper.contains("TEXT")
        switch value {
        case .text(let text) where numeric && !textual:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return Int64(trimmed) != nil || Double(trimmed) != nil ? nil
                : "the text \(text.count > 40 ? String(text.prefix(40)) + "…" : text) is not a number"
        case .blob where numeric || textual:
            return "a blob (Data) cannot be stored as \(type)"
        default:
            return nil
        }
    }

    static func columnList(_ values: [(column: String, value: DatabaseValue)]) -> String {
        values.map(\.column.quotedDatabaseIdentifier).joined(separator: ", ")
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
